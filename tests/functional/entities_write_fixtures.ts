/**
 * Shared fixtures of the entity write tests (entities_write*.spec.ts): the demo application in
 * an empty database, reference rows inserted directly, a client-credentials token and JSON
 * requests against /rest/entities.
 */
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, makeClient, sendJson } from '#tests/helpers/resource_server'
import { demoDocument } from '#tests/unit/_fixtures'

export const E = '/rest/entities'
let token = ''

export const ids = {
  /** The OAuth client the token belongs to: the audit user of client-credentials writes. */
  client: '',
  customer: '',
  book1: '',
  book2: '',
  author1: '',
  author2: '',
  publisher: '',
  tag: '',
}

const audit = { created_by: 'seed', created_date: '2024-01-01T00:00:00.000Z' }

/** Empty database + the demo application + reference rows + a fresh token. */
export async function loadWriteDemo() {
  await resetDatabase()
  await applyDoc(await demoDocument())
  const client = await makeClient()
  ids.client = client.clientId
  token = (await accessToken(client)).token
  await db.table('ref_country').insert({ id: 'DE', name: 'Germany', alpha3: 'DEU' })
  await db.table('ref_currency').insert({ id: 'EUR', name: 'Euro', symbol: '€' })
  Object.assign(ids, {
    customer: randomUUID(),
    book1: randomUUID(),
    book2: randomUUID(),
    author1: randomUUID(),
    author2: randomUUID(),
    publisher: randomUUID(),
    tag: randomUUID(),
  })
  await db.table('bookstore_publisher').insert({ id: ids.publisher, name: 'Pub', ...audit })
  await db.table('bookstore_customer').insert({
    id: ids.customer,
    name: 'Ann',
    email: 'ann@example.com',
    version: 1,
    ...audit,
  })
  for (const [id, lastName] of [
    [ids.author1, 'Austen'],
    [ids.author2, 'Brontë'],
  ]) {
    await db.table('bookstore_author').insert({ id, last_name: lastName, version: 1, ...audit })
  }
  await db.table('bookstore_tag').insert({ id: ids.tag, name: 'classic' })
  for (const [id, isbn] of [
    [ids.book1, '9780000000001'],
    [ids.book2, '9780000000002'],
  ]) {
    await db.table('bookstore_book').insert({
      id,
      title: `Book ${isbn.slice(-1)}`,
      isbn,
      price: 10,
      currency_id: 'EUR',
      publisher_id: ids.publisher,
      version: 1,
      ...audit,
    })
  }
}

export function send(method: string, path: string, body?: unknown, headers = {}) {
  return sendJson(token, method, path, body, headers)
}

export async function count(table: string, where: Record<string, unknown> = {}) {
  const row = await db.from(table).where(where).count('* as n').first()
  return Number(row?.n ?? 0)
}

export const row = (table: string, id: unknown) =>
  db
    .from(table)
    .where('id', id as any)
    .first()

/** Row counts of every table an order write touches: "nothing written" in one comparison. */
export async function orderCounts() {
  const tables = ['bookstore_order', 'bookstore_order_line', 'bookstore_order_line_discount']
  return Promise.all(tables.map((t) => count(t)))
}

let orderNo = 0
export function orderBody(extra: Record<string, unknown> = {}) {
  orderNo++
  return {
    number: `ORD-2024-${String(orderNo).padStart(6, '0')}`,
    date: '2024-03-01',
    status: 'NEW',
    amount: 30.5,
    customer: { id: ids.customer },
    currency: { id: 'EUR' },
    lines: [
      {
        position: 1,
        quantity: 2,
        unitPrice: '10.25',
        book: { id: ids.book1 },
        discounts: [
          { discountType: 'PERCENTAGE', reason: 'loyal', percent: 5 },
          { discountType: 'VOUCHER', reason: 'promo', voucherCode: 'ABC123' },
        ],
      },
      { position: 2, quantity: 1, unitPrice: 10, book: { id: ids.book2 } },
    ],
    ...extra,
  }
}

/** Creates an order over HTTP and returns its id. */
export async function createOrder(extra: Record<string, unknown> = {}): Promise<string> {
  const response = await send('POST', `${E}/bookstore_Order`, orderBody(extra))
  if (response.status !== 201) throw new Error(`create order: ${response.status} ${response.text}`)
  return response.body.id
}
