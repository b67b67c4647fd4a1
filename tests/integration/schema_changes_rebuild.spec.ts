/**
 * Changes that SQLite applies by rebuilding the table (create, copy, drop, rename): tables that
 * other tables and link tables reference, and long ids (autoincrement / identity). PostgreSQL
 * alters in place; both must keep rows, references and sequences.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  columnOf,
  foreignKeysOf,
  insertRows,
  rowsOf,
  tuplesOf,
} from '#tests/helpers/engine'

const customer = (nameLength: number) => ({
  name: 'hr_Customer',
  attributes: [{ name: 'name', type: 'string', length: nameLength }],
})
const tag = (labelType: Record<string, unknown>) => ({
  name: 'hr_Tag',
  attributes: [{ name: 'label', ...labelType }],
})
const order = {
  name: 'hr_Order',
  attributes: [
    { name: 'number', type: 'string', length: 20 },
    { name: 'customer', type: 'association', cardinality: 'MANY_TO_ONE', target: 'hr_Customer' },
    { name: 'tags', type: 'association', cardinality: 'MANY_TO_MANY', target: 'hr_Tag' },
  ],
}

test.group('schema changes: table rebuilds', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('changing columns of referenced tables keeps the referencing rows and foreign keys', async ({
    assert,
  }) => {
    await applyDoc({ entities: [customer(100), tag({ type: 'string', length: 50 }), order] })
    const [c] = await insertRows('hr_customer', [{ name: 'Alice' }])
    const [t] = await insertRows('hr_tag', [{ label: 'vip' }])
    const [o] = await insertRows('hr_order', [{ number: 'A-1', customer_id: c.id }])
    await db.table('hr_order_tags_link').insert({ hr_order_id: o.id, hr_tag_id: t.id })

    // Both referenced tables change a column type (a table rebuild on SQLite).
    await applyDoc({ entities: [customer(60), tag({ type: 'text' })] })

    assert.containsSubset(await columnOf('hr_customer', 'name'), { type: 'varchar(60)' })
    assert.containsSubset(await columnOf('hr_tag', 'label'), { type: 'text' })
    assert.deepEqual(await tuplesOf('hr_customer', ['id', 'name']), [[c.id, 'Alice']])
    assert.deepEqual(await tuplesOf('hr_order', ['id', 'customer_id']), [[o.id, c.id]])
    assert.deepEqual(await rowsOf('hr_order_tags_link', 'hr_tag_id'), [
      { hr_order_id: o.id, hr_tag_id: t.id },
    ])
    assert.deepInclude(await foreignKeysOf('hr_order'), {
      column: 'customer_id',
      table: 'hr_customer',
      refColumn: 'id',
    })
    await assert.rejects(() => db.from('hr_customer').where('id', c.id).delete())
    await assert.rejects(() => db.from('hr_tag').where('id', t.id).delete())
    await assert.rejects(() =>
      insertRows('hr_order', [{ number: 'A-2', customer_id: randomUUID() }])
    )
  })

  test('a rebuilt table with long ids keeps its ids and continues its sequence', async ({
    assert,
  }) => {
    const counter = (length: number) => ({
      entities: [
        {
          name: 'hr_Counter',
          idType: 'long',
          attributes: [{ name: 'label', type: 'string', length }],
        },
      ],
    })
    await applyDoc(counter(50))
    await db
      .table('hr_counter')
      .multiInsert([{ label: 'one' }, { label: 'two' }, { label: 'three' }])
    await db.from('hr_counter').where('label', 'three').delete()

    await applyDoc(counter(80))

    assert.containsSubset(await columnOf('hr_counter', 'label'), { type: 'varchar(80)' })
    const rows = await tuplesOf('hr_counter', ['id', 'label'])
    assert.deepEqual(
      rows.map(([id, label]) => [Number(id), label]),
      [
        [1, 'one'],
        [2, 'two'],
      ]
    )
    await db.table('hr_counter').insert({ label: 'four' })
    const four = await db.from('hr_counter').where('label', 'four').first()
    assert.isAbove(Number(four.id), 2, 'ids are not reused after the rebuild')
  })
})
