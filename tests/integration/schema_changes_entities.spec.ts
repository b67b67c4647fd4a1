/**
 * Entity-level schema changes on a database with rows: add, remove (prune, allowDataLoss),
 * traits. Renames are in schema_changes_renames.spec.ts. Every test starts from an empty
 * database and asserts the real schema and the data.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  columnOf,
  columnsOf,
  expectRefused,
  insertRows,
  rowsOf,
  table,
  tuplesOf,
  valuesOf,
} from '#tests/helpers/engine'

const customer = (extra: Record<string, unknown> = {}) => ({
  name: 'shop_Customer',
  attributes: [{ name: 'name', type: 'string', length: 100 }],
  ...extra,
})
const tag = { name: 'shop_Tag', attributes: [{ name: 'label', type: 'string', length: 50 }] }
const order = {
  name: 'shop_Order',
  attributes: [
    { name: 'number', type: 'string', length: 20 },
    { name: 'customer', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Customer' },
    { name: 'tags', type: 'association', cardinality: 'MANY_TO_MANY', target: 'shop_Tag' },
  ],
}

const entityNames = async () => {
  const rows = await db.from('mg_entities').orderBy('name')
  return rows.map((e) => e.name)
}

test.group('schema changes: entities', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('adding an entity creates its table and leaves existing tables and rows alone', async ({
    assert,
  }) => {
    await applyDoc({ entities: [customer()] })
    const [alice] = await insertRows('shop_customer', [{ name: 'Alice' }])
    const before = await table('shop_customer')

    await applyDoc({ entities: [tag] })

    const columns = await columnsOf('shop_tag')
    assert.sameMembers(Object.keys(columns), ['id', 'label'])
    assert.equal(columns.label.type, 'varchar(50)')
    assert.isTrue(columns.label.nullable)
    assert.isFalse(columns.id.nullable)
    assert.deepEqual(await table('shop_customer'), before)
    assert.deepEqual(await tuplesOf('shop_customer', ['id', 'name']), [[alice.id, 'Alice']])
    assert.deepEqual(await entityNames(), ['shop_Customer', 'shop_Tag'])
  })

  test('removing an entity whose table is empty drops the table', async ({ assert }) => {
    await applyDoc({ entities: [customer(), tag] })
    await insertRows('shop_customer', [{ name: 'Alice' }])

    const result = await applyDoc({ prune: true, entities: [customer()] })

    assert.isNull(await table('shop_tag'))
    assert.deepEqual(await valuesOf('shop_customer', 'name'), ['Alice'])
    assert.deepEqual(await entityNames(), ['shop_Customer'])
    assert.isTrue(result.steps.some((s) => s.kind === 'dropTable' && s.target === 'shop_tag'))
  })

  test('removing an entity whose table has rows is refused and changes nothing', async ({
    assert,
  }) => {
    await applyDoc({ entities: [customer(), tag] })
    await insertRows('shop_tag', [{ label: 'a' }, { label: 'b' }])

    const result = await expectRefused(
      assert,
      { prune: true, entities: [customer()] },
      /dropping entity shop_Tag \(table shop_tag\) would delete 2 row\(s\)/
    )

    assert.lengthOf(result.refusals, 1)
    assert.isTrue(result.refusals[0].overridable)
  })

  test('removing an entity with rows and relations is allowed with allowDataLoss', async ({
    assert,
  }) => {
    await applyDoc({ entities: [customer(), tag, order] })
    const [c] = await insertRows('shop_customer', [{ name: 'Alice' }])
    const [t] = await insertRows('shop_tag', [{ label: 'urgent' }])
    const [o] = await insertRows('shop_order', [{ number: 'A-1', customer_id: c.id }])
    await db.table('shop_order_tags_link').insert({ shop_order_id: o.id, shop_tag_id: t.id })

    await applyDoc({ prune: true, entities: [customer(), tag] }, { allowDataLoss: true })

    assert.isNull(await table('shop_order'))
    assert.isNull(await table('shop_order_tags_link'), 'the link table goes with its owner')
    assert.deepEqual(await valuesOf('shop_customer', 'id'), [c.id])
    assert.deepEqual(await valuesOf('shop_tag', 'id'), [t.id])
    assert.deepEqual(await entityNames(), ['shop_Customer', 'shop_Tag'])
    // Nothing references the customer any more.
    await db.from('shop_customer').delete()
  })

  test('adding traits to an entity with rows adds their columns and keeps the rows', async ({
    assert,
  }) => {
    await applyDoc({ entities: [customer()] })
    const [alice] = await insertRows('shop_customer', [{ name: 'Alice' }])

    await applyDoc({ entities: [customer({ traits: ['versioned', 'audited'] })] })

    assert.containsSubset(await columnOf('shop_customer', 'version'), { nullable: false })
    assert.containsSubset(await columnOf('shop_customer', 'created_by'), { nullable: true })
    assert.containsSubset(await columnOf('shop_customer', 'last_modified_date'), { nullable: true })
    const [row] = await rowsOf('shop_customer')
    assert.equal(row.id, alice.id)
    assert.equal(row.name, 'Alice')
    assert.equal(Number(row.version), 1, 'existing rows start at version 1')
    assert.isNull(row.created_by)
  })

  test('removing traits drops their columns; with values only with allowDataLoss', async ({
    assert,
  }) => {
    await applyDoc({ entities: [customer({ traits: ['audited'] })] })
    await insertRows('shop_customer', [{ name: 'Alice', created_by: 'admin' }])

    await expectRefused(
      assert,
      { entities: [customer({ traits: [] })] },
      /dropping column shop_customer\.created_by would lose the values of 1 row/
    )

    await applyDoc({ entities: [customer({ traits: [] })] }, { allowDataLoss: true })
    assert.sameMembers(Object.keys(await columnsOf('shop_customer')), ['id', 'name'])
    assert.deepEqual(await valuesOf('shop_customer', 'name'), ['Alice'])
  })
})
