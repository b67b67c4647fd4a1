/**
 * No N+1 (issue 4, "queries that scale"): a page of orders with customer + lines + each line's
 * book runs one statement for the page plus one per relation level, however many rows the page
 * has. Statements are counted through knex's `query-response` event (tests/helpers/statements.ts).
 */
import { FULL_ACCESS } from '#security/policy_index'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { list } from '#engine/data/read/main'
import type { DataContext } from '#engine/data/data_manager'
import { ANONYMOUS } from '#security/subject'
import { engine } from '#tests/helpers/engine'
import { observeStatements } from '#tests/helpers/statements'
import { IDS, loadDemo, seedBasics, uuid } from '#tests/helpers/entities_read'

const PLAN = {
  entity: 'bookstore_Order',
  properties: [
    'number',
    { name: 'customer', fetchPlan: '_instance_name' },
    {
      name: 'lines',
      fetchPlan: { properties: ['quantity', { name: 'book', fetchPlan: '_base' }] },
    },
  ],
}

async function seedOrders(n: number) {
  const orders = []
  const lines = []
  for (let i = 1; i <= n; i++) {
    const id = uuid(1000, i)
    orders.push({
      id,
      number: `ORD-2025-${String(i).padStart(6, '0')}`,
      date: '2025-01-01',
      status: 'N',
      customer_id: i % 2 ? IDS.alice : IDS.bob,
      currency_id: 'EUR',
      version: 1,
    })
    for (let k = 1; k <= 3; k++) {
      const book = k === 2 ? IDS.book2 : IDS.book1
      lines.push({
        id: uuid(2000 + k, i),
        order_id: id,
        position: k,
        book_id: book,
        quantity: k,
        unit_price: '1.00',
      })
    }
  }
  for (let i = 0; i < orders.length; i += 50)
    await db.table('bookstore_order').multiInsert(orders.slice(i, i + 50))
  for (let i = 0; i < lines.length; i += 50)
    await db.table('bookstore_order_line').multiInsert(lines.slice(i, i + 50))
}

/** The SQL statements `action` ran (system tables left out). */
async function statements(action: () => Promise<unknown>): Promise<string[]> {
  return (await observeStatements(action)).map((s) => s.sql)
}

test.group('Entities read: SQL statements per page', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
    await seedOrders(120)
  })

  test('100 orders with customer, lines and books: constant statement count', async ({
    assert,
  }) => {
    const e = await engine()
    const ctx: DataContext = {
      db,
      model: e.model,
      subject: ANONYMOUS,
      maxFetchSize: 10000,
      maxBulkSize: 10000,
      permissions: FULL_ACCESS,
    }
    const options = (limit: number) => ({ fetchPlan: JSON.stringify(PLAN), limit, sort: 'number' })
    let page: Awaited<ReturnType<typeof list>> = { items: [] }
    const small = await statements(
      async () => (page = await list(ctx, 'bookstore_Order', options(10)))
    )
    assert.lengthOf(page.items, 10)
    const large = await statements(
      async () => (page = await list(ctx, 'bookstore_Order', options(100)))
    )
    assert.lengthOf(page.items, 100)
    assert.lengthOf(page.items[99].lines as unknown[], 3)
    assert.equal((page.items[0].lines as any[])[0].book.publisher.name, 'Penguin')
    // page, customer, lines, lines.book, lines.book.publisher (instance name and _base)
    assert.equal(large.length, small.length)
    assert.equal(large.length, 5, large.join('\n'))
    const withCount = await statements(() =>
      list(ctx, 'bookstore_Order', { ...options(100), returnCount: true })
    )
    assert.equal(withCount.length, large.length + 1)
  })
})
