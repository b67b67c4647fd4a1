import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { readFile } from 'node:fs/promises'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc, table } from '#tests/helpers/engine'
import { DEMO_FILE } from '#start/bootstrap'

test.group('demo application schema', (group) => {
  group.setup(async () => {
    await resetDatabase()
    const doc = JSON.parse(await readFile(app.makePath(DEMO_FILE), 'utf8'))
    const result = await importDoc(doc)
    if (result.status !== 'applied') throw new Error(JSON.stringify(result))
  })

  test('every entity has its table with typed columns', async ({ assert }) => {
    const order = await table('bookstore_order')
    assert.isNotNull(order)
    const columns = Object.fromEntries(order!.columns.map((c) => [c.name, c]))
    assert.containsSubset(Object.keys(columns), [
      'id',
      'number',
      'date',
      'status',
      'amount',
      'customer_id',
      'version',
      'created_by',
      'last_modified_date',
    ])
    assert.isFalse(columns.number.nullable)
    assert.isTrue(columns.note.nullable)
    assert.match(columns.amount.type, /numeric\(19, ?2\)/)
    assert.notProperty(columns, 'total', 'transient attributes have no column')
  })

  test('foreign keys reference the target tables and are indexed', async ({ assert }) => {
    const line = await table('bookstore_order_line')
    assert.deepInclude(line!.foreignKeys, {
      column: 'order_id',
      table: 'bookstore_order',
      refColumn: 'id',
    })
    assert.deepInclude(line!.foreignKeys, {
      column: 'book_id',
      table: 'bookstore_book',
      refColumn: 'id',
    })
    const indexed = line!.indexes.flatMap((i) => i.columns)
    assert.includeMembers(indexed, ['order_id', 'book_id'])
    const discount = await table('bookstore_order_line_discount')
    assert.deepInclude(discount!.foreignKeys, {
      column: 'order_line_id',
      table: 'bookstore_order_line',
      refColumn: 'id',
    })
  })

  test('many-to-many relations get link tables with both foreign keys', async ({ assert }) => {
    const explicit = await table('bookstore_book_author_link')
    assert.isNotNull(explicit)
    assert.sameMembers(
      explicit!.foreignKeys.map((f) => f.table),
      ['bookstore_book', 'bookstore_author']
    )
    const derived = await table('bookstore_book_tags_link')
    assert.isNotNull(derived)
    assert.sameMembers(
      derived!.foreignKeys.map((f) => f.table),
      ['bookstore_book', 'bookstore_tag']
    )
  })

  test('unique attributes and declared indexes exist', async ({ assert }) => {
    const order = await table('bookstore_order')
    assert.deepInclude(order!.indexes, {
      name: 'uq_bookstore_order_number',
      columns: ['number'],
      unique: true,
    })
    assert.deepInclude(order!.indexes, {
      name: 'ix_bookstore_order_date_status',
      columns: ['date', 'status'],
      unique: false,
    })
    const currency = await table('ref_currency')
    assert.isTrue(currency!.indexes.some((i) => i.unique && i.columns.join() === 'numeric_code'))
  })
})
