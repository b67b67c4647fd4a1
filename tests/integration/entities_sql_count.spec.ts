/**
 * No N+1 (issue 4, "queries that scale"): a page of orders with customer + lines + each line's
 * book runs a fixed number of statements however many rows the page has: one for the page with
 * its to-one references joined, one per collection level with theirs (read/folds.ts), and one
 * per reference a row-level rule covers. Statements are counted through knex's `query-response`
 * event (tests/helpers/statements.ts).
 */
import { FULL_ACCESS, type Permissions } from '#security/policy_index'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { list } from '#engine/data/read/main'
import type { DataContext } from '#engine/data/data_manager'
import { ANONYMOUS } from '#security/subject'
import { engine, readRulePermissions } from '#tests/helpers/engine'
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

/** An anonymous reading context with these permissions. */
async function context(permissions: Permissions): Promise<DataContext> {
  const e = await engine()
  return {
    db,
    model: e.model,
    subject: ANONYMOUS,
    maxFetchSize: 10000,
    maxBulkSize: 10000,
    permissions,
  }
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
    const ctx = await context(FULL_ACCESS)
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
    // page + customer (joined); lines + book + book.publisher (joined)
    assert.equal(large.length, small.length)
    assert.equal(large.length, 2, large.join('\n'))
    assert.match(large[0], /left join .bookstore_customer. as .j1./)
    assert.match(
      large[1],
      /left join .bookstore_publisher. as .j2. on .j2.\..id. = .j1.\..publisher_id./
    )
    const withCount = await statements(() =>
      list(ctx, 'bookstore_Order', { ...options(100), returnCount: true })
    )
    assert.equal(withCount.length, large.length + 1)
  })

  test('a reference under a row-level rule keeps its own statement; hidden rows are absent', async ({
    assert,
  }) => {
    const permissions = await readRulePermissions('bookstore_Book', {
      conditions: [{ property: 'id', operator: '<>', value: IDS.book2 }],
    })
    const ctx = await context(permissions)
    const options = { fetchPlan: JSON.stringify(PLAN), limit: 100, sort: 'number' }
    let page: Awaited<ReturnType<typeof list>> = { items: [] }
    const seen = await statements(async () => (page = await list(ctx, 'bookstore_Order', options)))
    // page + customer; lines; books (under the rule) + publisher
    assert.lengthOf(seen, 3, seen.join('\n'))
    assert.match(seen[2], /from .bookstore_book. as .r. left join .bookstore_publisher. as .j1./)
    const order = page.items.find((o) => o.number === 'ORD-2025-000001')!
    const lines = (order.lines as any[]).sort((x, y) => x.quantity - y.quantity)
    assert.deepEqual(
      lines.map((l) => [l.quantity, l.book?.id ?? null, l.book?.publisher?.name ?? null]),
      [
        [1, IDS.book1, 'Penguin'],
        [2, null, null],
        [3, IDS.book1, 'Penguin'],
      ]
    )
    assert.equal((order.customer as any).id, IDS.alice)
  })

  test('the same reference with other nested plans: each answer has its own columns', async ({
    assert,
  }) => {
    const ctx = await context(FULL_ACCESS)
    const plan = (customer: string) =>
      JSON.stringify({
        entity: 'bookstore_Order',
        properties: ['number', { name: 'customer', fetchPlan: customer }],
      })
    const keys = async (customer: string) => {
      const page = await list(ctx, 'bookstore_Order', {
        fetchPlan: plan(customer),
        limit: 3,
        sort: 'number',
      })
      return page.items.map((o) =>
        Object.keys(o.customer as object)
          .sort()
          .join(',')
      )
    }
    // Cold, then warm (the statement's shape cached): the keys must not mix the two plans.
    const name = await keys('_instance_name')
    const base = await keys('_base')
    assert.notDeepEqual(name, base)
    assert.include(base[0], 'email')
    assert.notInclude(name[0], 'email')
    assert.deepEqual(await keys('_instance_name'), name)
    assert.deepEqual(await keys('_base'), base)
  })
})
