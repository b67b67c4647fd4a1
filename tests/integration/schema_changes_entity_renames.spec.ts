/**
 * Entity renames (renamedFrom) on tables with rows: the table, its rows, the foreign keys that
 * point at it, the link tables it owns or is the target of, self references.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  columnNamesOf,
  columnsOf,
  foreignKeysOf,
  indexesOf,
  insertRows,
  rowsOf,
  table,
  tuplesOf,
  valuesOf,
} from '#tests/helpers/engine'

type Attr = Record<string, unknown>
const customer = (name = 'shop_Customer', extra: Attr = {}) => ({
  name,
  attributes: [{ name: 'name', type: 'string', length: 100 }],
  ...extra,
})
const tag = (name = 'shop_Tag', extra: Attr = {}) => ({
  name,
  attributes: [{ name: 'label', type: 'string', length: 50 }],
  ...extra,
})
const order = (opts: { name?: string; customer?: string; tag?: string; extra?: Attr } = {}) => ({
  name: opts.name ?? 'shop_Order',
  attributes: [
    { name: 'number', type: 'string', length: 20, unique: true },
    {
      name: 'customer',
      type: 'association',
      cardinality: 'MANY_TO_ONE',
      target: opts.customer ?? 'shop_Customer',
    },
    {
      name: 'tags',
      type: 'association',
      cardinality: 'MANY_TO_MANY',
      target: opts.tag ?? 'shop_Tag',
    },
  ],
  ...opts.extra,
})

/** The full shop model with one customer, one tag, one order linked to both. */
async function shopWithRows() {
  await applyDoc({ entities: [customer(), tag(), order()] })
  const [c] = await insertRows('shop_customer', [{ name: 'Alice' }])
  const [t] = await insertRows('shop_tag', [{ label: 'urgent' }])
  const [o] = await insertRows('shop_order', [{ number: 'A-1', customer_id: c.id }])
  await db.table('shop_order_tags_link').insert({ shop_order_id: o.id, shop_tag_id: t.id })
  return { c, t, o }
}

const entityNames = async () => {
  const rows = await db.from('mg_entities').orderBy('name')
  return rows.map((e) => e.name)
}

test.group('schema changes: entity renames', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('renaming a referenced entity keeps its rows and the foreign keys to it', async ({
    assert,
  }) => {
    const { c, o } = await shopWithRows()
    const client = customer('shop_Client', { renamedFrom: 'shop_Customer' })

    await applyDoc({ entities: [client, tag(), order({ customer: 'shop_Client' })] })

    assert.isNull(await table('shop_customer'))
    assert.deepEqual(await tuplesOf('shop_client', ['id', 'name']), [[c.id, 'Alice']])
    const fk = { column: 'customer_id', table: 'shop_client', refColumn: 'id' }
    assert.deepInclude(await foreignKeysOf('shop_order'), fk)
    assert.deepEqual(await tuplesOf('shop_order', ['id', 'customer_id']), [[o.id, c.id]])
    // The foreign key still works: a known client is accepted, an unknown one refused.
    await insertRows('shop_order', [{ number: 'A-2', customer_id: c.id }])
    await assert.rejects(() =>
      insertRows('shop_order', [{ number: 'A-3', customer_id: randomUUID() }])
    )
    assert.deepEqual(await entityNames(), ['shop_Client', 'shop_Order', 'shop_Tag'])
  })

  test('renaming an entity that owns relations renames its link table, keeps link rows', async ({
    assert,
  }) => {
    const { c, t, o } = await shopWithRows()
    const renamed = order({ name: 'shop_PurchaseOrder', extra: { renamedFrom: 'shop_Order' } })

    await applyDoc({ entities: [customer(), tag(), renamed] })

    assert.isNull(await table('shop_order'))
    assert.isNull(await table('shop_order_tags_link'))
    assert.deepInclude(await foreignKeysOf('shop_purchase_order'), {
      column: 'customer_id',
      table: 'shop_customer',
      refColumn: 'id',
    })
    const indexes = await indexesOf('shop_purchase_order')
    assert.deepInclude(indexes, {
      name: 'ix_shop_purchase_order_customer_id',
      columns: ['customer_id'],
      unique: false,
    })
    assert.deepInclude(indexes, {
      name: 'uq_shop_purchase_order_number',
      columns: ['number'],
      unique: true,
    })
    assert.deepEqual(await tuplesOf('shop_purchase_order', ['id', 'number', 'customer_id']), [
      [o.id, 'A-1', c.id],
    ])
    const link = 'shop_purchase_order_tags_link'
    assert.sameMembers(await columnNamesOf(link), ['shop_purchase_order_id', 'shop_tag_id'])
    assert.sameDeepMembers(await foreignKeysOf(link), [
      { column: 'shop_purchase_order_id', table: 'shop_purchase_order', refColumn: 'id' },
      { column: 'shop_tag_id', table: 'shop_tag', refColumn: 'id' },
    ])
    assert.deepEqual(await rowsOf(link, 'shop_tag_id'), [
      { shop_purchase_order_id: o.id, shop_tag_id: t.id },
    ])
    // Constraints still enforced under the new names.
    await assert.rejects(() => insertRows('shop_purchase_order', [{ number: 'A-1' }]))
    await assert.rejects(() =>
      db.table(link).insert({ shop_purchase_order_id: randomUUID(), shop_tag_id: t.id })
    )
  })

  test('renaming the target of a many-to-many renames the link column, keeps link rows', async ({
    assert,
  }) => {
    const { t, o } = await shopWithRows()
    const label = tag('shop_Label', { renamedFrom: 'shop_Tag' })

    await applyDoc({ entities: [customer(), label, order({ tag: 'shop_Label' })] })

    assert.isNull(await table('shop_tag'))
    assert.deepEqual(await tuplesOf('shop_label', ['id', 'label']), [[t.id, 'urgent']])
    assert.sameDeepMembers(await foreignKeysOf('shop_order_tags_link'), [
      { column: 'shop_order_id', table: 'shop_order', refColumn: 'id' },
      { column: 'shop_label_id', table: 'shop_label', refColumn: 'id' },
    ])
    assert.deepEqual(await rowsOf('shop_order_tags_link', 'shop_order_id'), [
      { shop_order_id: o.id, shop_label_id: t.id },
    ])
    await assert.rejects(() =>
      db.table('shop_order_tags_link').insert({ shop_order_id: o.id, shop_label_id: randomUUID() })
    )
  })

  test('the old name of a renamed entity can be used again by a new entity', async ({ assert }) => {
    await applyDoc({ entities: [customer()] })
    await insertRows('shop_customer', [{ name: 'Alice' }])
    await applyDoc({ entities: [customer('shop_Client', { renamedFrom: 'shop_Customer' })] })

    await applyDoc({ entities: [customer()] })

    assert.deepEqual(await valuesOf('shop_client', 'name'), ['Alice'])
    assert.deepEqual(await rowsOf('shop_customer'), [])
    await insertRows('shop_customer', [{ name: 'Bob' }])
    assert.deepEqual(await entityNames(), ['shop_Client', 'shop_Customer'])
  })

  test('renaming a self-referencing entity keeps the references between its rows', async ({
    assert,
  }) => {
    const node = (name: string, extra: Attr = {}) => ({
      name,
      attributes: [
        { name: 'label', type: 'string', length: 20 },
        { name: 'parent', type: 'association', cardinality: 'MANY_TO_ONE', target: name },
        { name: 'related', type: 'association', cardinality: 'MANY_TO_MANY', target: name },
      ],
      ...extra,
    })
    await applyDoc({ entities: [node('hr_Node')] })
    const [root] = await insertRows('hr_node', [{ label: 'root' }])
    const [leaf] = await insertRows('hr_node', [{ label: 'leaf', parent_id: root.id }])
    await db.table('hr_node_related_link').insert({ hr_node_id: leaf.id, related_id: root.id })

    await applyDoc({ entities: [node('hr_Unit', { renamedFrom: 'hr_Node' })] })

    assert.isNull(await table('hr_node'))
    assert.deepEqual(await foreignKeysOf('hr_unit'), [
      { column: 'parent_id', table: 'hr_unit', refColumn: 'id' },
    ])
    assert.deepEqual(await tuplesOf('hr_unit', ['label', 'parent_id'], 'label'), [
      ['leaf', root.id],
      ['root', null],
    ])
    assert.deepEqual(await rowsOf('hr_unit_related_link', 'hr_unit_id'), [
      { hr_unit_id: leaf.id, related_id: root.id },
    ])
    await assert.rejects(() =>
      insertRows('hr_unit', [{ label: 'orphan', parent_id: randomUUID() }])
    )
  })

  test('renaming an entity and its attributes, changing types and adding columns at once', async ({
    assert,
  }) => {
    const { c, o } = await shopWithRows()
    const client = {
      name: 'shop_Client',
      renamedFrom: 'shop_Customer',
      attributes: [
        {
          name: 'fullName',
          type: 'string',
          length: 200,
          renamedFrom: 'name',
          mandatory: true,
          unique: true,
        },
        { name: 'score', type: 'int' },
      ],
    }

    await applyDoc({ entities: [client, tag(), order({ customer: 'shop_Client' })] })

    const columns = await columnsOf('shop_client')
    assert.sameMembers(Object.keys(columns), ['id', 'full_name', 'score'])
    assert.equal(columns.full_name.type, 'varchar(200)')
    assert.isFalse(columns.full_name.nullable)
    assert.deepInclude(await indexesOf('shop_client'), {
      name: 'uq_shop_client_full_name',
      columns: ['full_name'],
      unique: true,
    })
    assert.deepEqual(await tuplesOf('shop_client', ['id', 'full_name', 'score']), [
      [c.id, 'Alice', null],
    ])
    const fk = { column: 'customer_id', table: 'shop_client', refColumn: 'id' }
    assert.deepInclude(await foreignKeysOf('shop_order'), fk)
    assert.deepEqual(await tuplesOf('shop_order', ['id', 'customer_id']), [[o.id, c.id]])
    await assert.rejects(() => insertRows('shop_client', [{ full_name: 'Alice' }]))
  })
})
