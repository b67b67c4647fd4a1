/**
 * Fixtures of the entities read tests (tests/functional/entities_read*.spec.ts and
 * tests/integration/entities_sql_count.spec.ts): the demo application in an empty database,
 * rows inserted straight into its tables, a client-credentials token and request helpers.
 */
import db from '@adonisjs/lucid/services/db'
import { resetDatabase, dialect } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, bearer, makeClient, raw } from '#tests/helpers/resource_server'
import { demoDocument } from '#tests/unit/_fixtures'

export const E = '/rest/entities'
let token = ''

export const bool = (value: boolean) => (dialect() === 'sqlite' ? Number(value) : value)

/** Fixed ids, so expectations can name them. */
export const IDS = {
  publisher: '11111111-1111-4111-8111-111111111111',
  deletedPublisher: '11111111-1111-4111-8111-111111111112',
  book1: '22222222-2222-4222-8222-222222222221',
  book2: '22222222-2222-4222-8222-222222222222',
  deletedBook: '22222222-2222-4222-8222-222222222223',
  author1: '33333333-3333-4333-8333-333333333331',
  author2: '33333333-3333-4333-8333-333333333332',
  alice: '44444444-4444-4444-8444-444444444441',
  bob: '44444444-4444-4444-8444-444444444442',
  order1: '55555555-5555-4555-8555-555555555551',
  order2: '55555555-5555-4555-8555-555555555552',
  order3: '55555555-5555-4555-8555-555555555553',
}

/** Empty database + the demo application + a fresh token. */
export async function loadDemo() {
  await resetDatabase()
  await applyDoc(await demoDocument())
  token = (await accessToken(await makeClient())).token
}

export async function seedBasics() {
  await db.table('ref_country').multiInsert([
    { id: 'DE', name: 'Germany', alpha3: 'DEU', eu_member: bool(true) },
    { id: 'GB', name: 'United Kingdom', alpha3: 'GBR', eu_member: bool(false) },
  ])
  await db.table('ref_currency').insert({ id: 'EUR', name: 'Euro', symbol: '€', minor_units: 2 })
  await db.table('bookstore_publisher').multiInsert([
    { id: IDS.publisher, name: 'Penguin', country_id: 'GB', founded_on: '1935-07-30' },
    {
      id: IDS.deletedPublisher,
      name: 'Gone Press',
      deleted_date: '2024-01-01T00:00:00.000Z',
      deleted_by: 'admin',
    },
  ])
  const book = { currency_id: 'EUR', publisher_id: IDS.publisher, version: 1 }
  await db.table('bookstore_book').multiInsert([
    {
      ...book,
      id: IDS.book1,
      title: 'Dune',
      isbn: '9780441013593',
      genre: 'fiction',
      publication_date: '1965-08-01',
      page_count: 412,
      price: '12.50',
      weight_kg: 0.5,
      in_print: bool(true),
      metadata: JSON.stringify({ series: 'Dune', n: 1 }),
      cover: 'fs://2024/01/02/abc.jpg?name=dune.jpg',
    },
    { ...book, id: IDS.book2, title: '100% Pure_Fun', isbn: '9780000000002', price: '7.00' },
    {
      ...book,
      id: IDS.deletedBook,
      title: 'Deleted Book',
      isbn: '9780000000003',
      price: '1.00',
      deleted_date: '2024-01-01T00:00:00.000Z',
    },
  ])
  await db.table('bookstore_author').multiInsert([
    { id: IDS.author1, first_name: 'Frank', last_name: 'Herbert', version: 1 },
    { id: IDS.author2, last_name: 'Anonymous', version: 1 },
  ])
  await db.table('bookstore_book_author_link').multiInsert([
    { bookstore_book_id: IDS.book1, bookstore_author_id: IDS.author1 },
    { bookstore_book_id: IDS.book1, bookstore_author_id: IDS.author2 },
  ])
  const customer = { version: 1 }
  await db.table('bookstore_customer').multiInsert([
    {
      ...customer,
      id: IDS.alice,
      name: 'Alice',
      email: 'alice@example.com',
      birth_date: '1990-05-06',
      preferred_contact_time: '09:30:00',
      newsletter: bool(false),
      loyalty_points: 1200,
      preferences: JSON.stringify({ theme: 'dark' }),
      created_date: '2024-02-03T04:05:06.789Z',
      created_by: 'admin',
    },
    { ...customer, id: IDS.bob, name: 'Bob', email: 'bob@example.com' },
  ])
  const order = { currency_id: 'EUR', version: 1 }
  await db.table('bookstore_order').multiInsert([
    {
      ...order,
      id: IDS.order1,
      number: 'ORD-2024-000001',
      date: '2024-03-01',
      placed_at: '2024-03-01T10:00:00.000Z',
      status: 'P',
      amount: '49.99',
      customer_id: IDS.alice,
    },
    {
      ...order,
      id: IDS.order2,
      number: 'ORD-2024-000002',
      date: '2024-03-02',
      status: 'N',
      amount: '10.00',
      customer_id: IDS.bob,
    },
    {
      ...order,
      id: IDS.order3,
      number: 'ORD-2024-000003',
      date: '2024-02-15',
      status: 'S',
      customer_id: IDS.alice,
    },
  ])
  await db.table('bookstore_order_line').multiInsert([
    {
      id: uuid(1, 1),
      order_id: IDS.order1,
      position: 1,
      book_id: IDS.book1,
      quantity: 2,
      unit_price: '12.50',
    },
    {
      id: uuid(1, 2),
      order_id: IDS.order1,
      position: 2,
      book_id: IDS.book2,
      quantity: 1,
      unit_price: '7.00',
    },
    {
      id: uuid(2, 1),
      order_id: IDS.order2,
      position: 1,
      book_id: IDS.book1,
      quantity: 1,
      unit_price: '10.00',
    },
  ])
}

/** A deterministic uuid for generated rows. */
export function uuid(a: number, b: number): string {
  const hex = (n: number, w: number) => n.toString(16).padStart(w, '0')
  return `${hex(a, 8)}-0000-4000-8000-${hex(b, 12)}`
}

/** The current test token (from loadDemo). */
export const currentToken = () => token

export const get = (path: string, headers: Record<string, string> = {}) =>
  raw(path, { headers: { ...bearer(token), ...headers } })

export const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...bearer(token), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

export const q = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [
      k,
      typeof v === 'string' ? v : JSON.stringify(v),
    ])
  ).toString()
