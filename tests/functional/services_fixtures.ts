/**
 * Fixtures of the Services API and custom controller tests (tests/functional/services*.spec.ts,
 * custom_controllers.spec.ts): the demo application plus a row-level role `short-books` (books
 * under 400 pages) and a resource role `book-titles`, three books, a tag, a warehouse
 * with two stock items; tokens of a full-access client and of a reader limited to short books.
 */
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { IDS, seedBasics } from '#tests/helpers/entities_read'
import { accessToken, bearer, makeClient, raw } from '#tests/helpers/resource_server'
import { demoDocument } from '#tests/unit/_fixtures'

export const S = '/rest/services'
export const BOOKS = {
  dune: IDS.book1,
  cosmos: '22222222-2222-4222-8222-222222222224',
  emma: '22222222-2222-4222-8222-222222222225',
}
export const tokens = { full: '', reader: '' }

const SHORT_BOOKS = {
  code: 'short-books',
  policies: [
    {
      entity: 'bookstore_Book',
      type: 'filter',
      actions: ['read'],
      filter: { conditions: [{ property: 'pageCount', operator: '<', value: 400 }] },
    },
  ],
}

/** Reads books, views only their titles (attribute-level restriction). */
const BOOK_TITLES = {
  code: 'book-titles',
  scopes: ['API'],
  childRoles: ['rest-minimal'],
  entityPolicies: [{ entity: 'bookstore_Book', actions: ['read'] }],
  attributePolicies: [{ entity: 'bookstore_Book', attributes: ['title'], action: 'VIEW' }],
}

export async function setupServices() {
  await resetDatabase()
  const demo = await demoDocument()
  await applyDoc({
    ...demo,
    resourceRoles: [...(demo.resourceRoles as unknown[]), BOOK_TITLES],
    rowLevelRoles: [SHORT_BOOKS],
  })
  await seedBasics()
  const book = { currency_id: 'EUR', publisher_id: IDS.publisher, version: 1 }
  await db
    .from('bookstore_book')
    .where('id', BOOKS.dune)
    .update({ isbn: '9780441013593', genre: 'fiction', publication_date: '1965-08-01' })
  await db.from('bookstore_book').where('id', BOOKS.dune).update({ page_count: 412, price: 9.5 })
  await db.table('bookstore_book').multiInsert([
    {
      ...book,
      id: BOOKS.cosmos,
      title: 'Cosmos',
      isbn: '9780345539434',
      genre: 'science',
      publication_date: '1980-01-01',
      page_count: 365,
      price: 12,
    },
    {
      ...book,
      id: BOOKS.emma,
      title: 'Emma',
      isbn: '9780141439587',
      genre: 'fiction',
      publication_date: '1815-12-23',
      page_count: 200,
      price: 4.25,
    },
  ])
  await db.table('bookstore_warehouse').insert({ id: 7, code: 'WH1', name: 'Main', version: 1 })
  const item = { warehouse_id: 7, version: 1 }
  await db.table('bookstore_stock_item').multiInsert([
    { ...item, id: 41, book_id: BOOKS.dune, bin_code: 'A-1', quantity: 2, reorder_level: 5 },
    { ...item, id: 42, book_id: BOOKS.emma, bin_code: 'B-2', quantity: 30, reorder_level: 5 },
  ])
  tokens.full = (
    await accessToken(await makeClient({ resourceRoles: ['system-full-access'] }))
  ).token
  const reader = await makeClient({
    resourceRoles: ['bookstore-reader'],
    rowLevelRoles: ['short-books'],
  })
  tokens.reader = (await accessToken(reader)).token
}

export const call = (path: string, token: string | null = tokens.full) =>
  raw(path, { headers: token ? bearer(token) : {} })

export const callPost = (path: string, body: unknown, token: string | null = tokens.full) =>
  raw(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? bearer(token) : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

/** The entity data the tests can change (oracle "nothing changed"). */
export async function dataState(): Promise<string> {
  const parts = []
  for (const table of ['bookstore_book', 'bookstore_tag', 'bookstore_stock_item'])
    parts.push(await db.from(table).select('*').orderBy('id'))
  return JSON.stringify(parts)
}
