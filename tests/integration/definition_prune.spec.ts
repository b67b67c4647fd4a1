/**
 * `prune`: what the document does not name is removed, and a table with rows is dropped only with
 * allowDataLoss. Without prune, unnamed entities and attributes stay.
 */
import { test } from '@japa/runner'
import { findReport } from '#reports/store'
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { DEMO_FILE } from '#start/bootstrap'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState, table } from '#tests/helpers/engine'

const item = {
  name: 'shop_Item',
  attributes: [
    { name: 'code', type: 'string', length: 20 },
    { name: 'note', type: 'text' },
  ],
}
const tag = { name: 'shop_Tag', attributes: [{ name: 'label', type: 'string', length: 50 }] }
const entityNames = async () => (await db.from('mg_entities').orderBy('name')).map((e) => e.name)

async function applied(doc: Record<string, unknown>, options: { allowDataLoss?: boolean } = {}) {
  const result = await importDoc(doc, options)
  if (result.status !== 'applied') throw new Error(`expected applied: ${JSON.stringify(result)}`)
  return result
}

test.group('definition: prune', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('without prune, an entity the document does not name stays', async ({ assert }) => {
    await applied({ entities: [item, tag] })
    const result = await importDoc({ entities: [item] })
    assert.equal(result.status, 'unchanged')
    assert.deepEqual(await entityNames(), ['shop_Item', 'shop_Tag'])
    assert.isNotNull(await table('shop_tag'))
  })

  test('with prune, an unnamed entity with an empty table is removed', async ({ assert }) => {
    await applied({ entities: [item, tag] })
    const result = await applied({ prune: true, entities: [item] })
    assert.include(result.changes, 'entity shop_Tag: removed')
    assert.deepEqual(await entityNames(), ['shop_Item'])
    assert.isNull(await table('shop_tag'))
    assert.isFalse((await engine()).model.entities.has('shop_Tag'))
  })

  test('with prune, an unnamed entity with rows is refused unless allowDataLoss', async ({
    assert,
  }) => {
    await applied({ entities: [item, tag] })
    await db.table('shop_tag').insert({ id: randomUUID(), label: 'keep me' })
    const before = await snapshotState()

    const refused = await importDoc({ prune: true, entities: [item] })
    assert.equal(refused.status, 'refused')
    assert.match(refused.refusals[0].message, /shop_tag.*1 row/)
    assert.isTrue(refused.refusals[0].overridable)
    assert.equal(await snapshotState(), before)

    await applied({ prune: true, entities: [item] }, { allowDataLoss: true })
    assert.isNull(await table('shop_tag'))
    assert.deepEqual(await entityNames(), ['shop_Item'])
  })

  test('without prune an unnamed attribute stays; with prune it is dropped (data loss rules apply)', async ({
    assert,
  }) => {
    await applied({ entities: [item] })
    await db.table('shop_item').insert({ id: randomUUID(), code: 'A', note: 'n' })
    const partial = { name: 'shop_Item', attributes: [item.attributes[0]] }
    assert.equal((await importDoc({ entities: [partial] })).status, 'unchanged')
    assert.include(
      (await table('shop_item'))!.columns.map((c) => c.name),
      'note'
    )

    const refused = await importDoc({ prune: true, entities: [partial] })
    assert.equal(refused.status, 'refused')
    await applied({ prune: true, entities: [partial] }, { allowDataLoss: true })
    assert.notInclude(
      (await table('shop_item'))!.columns.map((c) => c.name),
      'note'
    )
    assert.deepEqual(
      (await db.from('shop_item')).map((r) => r.code),
      ['A']
    )
  })

  test('prune removes unnamed enums and fetch plans too', async ({ assert }) => {
    await applied({
      enums: [{ name: 'shop.Kind', values: [{ name: 'A', id: 'a' }] }],
      entities: [item],
      fetchPlans: [{ entity: 'shop_Item', name: 'item-min', properties: ['code'] }],
    })
    const result = await applied({ prune: true, entities: [item] })
    assert.includeMembers(result.changes, [
      'enum shop.Kind: removed',
      'fetchPlan shop_Item/item-min: removed',
    ])
    assert.lengthOf(await db.from('mg_enums'), 0)
    assert.lengthOf(await db.from('mg_fetch_plans'), 0)
  })

  test('renaming an entity another stored entity references keeps both and the data', async ({
    assert,
  }) => {
    const owner = { name: 'shop_Owner', attributes: [{ name: 'name', type: 'string' }] }
    const pet = {
      name: 'shop_Pet',
      attributes: [
        { name: 'owner', type: 'association', cardinality: 'MANY_TO_ONE', target: 'shop_Owner' },
      ],
    }
    await applied({ entities: [owner, pet] })
    const id = randomUUID()
    await db.table('shop_owner').insert({ id, name: 'Ann' })
    await db.table('shop_pet').insert({ id: randomUUID(), owner_id: id })

    await applied({ entities: [{ ...owner, name: 'shop_Person', renamedFrom: 'shop_Owner' }] })
    assert.deepEqual(await entityNames(), ['shop_Person', 'shop_Pet'])
    assert.deepEqual(
      (await db.from('shop_person')).map((r) => r.name),
      ['Ann']
    )
    const fk = (await table('shop_pet'))!.foreignKeys
    assert.deepEqual(fk, [{ column: 'owner_id', table: 'shop_person', refColumn: 'id' }])
    assert.equal(
      (await engine()).model.entity('shop_Pet')!.attributes.get('owner')!.target,
      'shop_Person'
    )
  })
})

test.group('definition: renames in partial documents', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await applied(JSON.parse(await readFile(app.makePath(DEMO_FILE), 'utf8')))
  })

  test('renaming an attribute that stored fetch plans and instance names use', async ({
    assert,
  }) => {
    const e = await engine()
    const order = structuredClone(e.model.entity('bookstore_Order')!.definition) as any
    const number = order.attributes.find((a: any) => a.name === 'number')
    Object.assign(number, { name: 'orderNumber', renamedFrom: 'number' })
    order.instanceName = '{orderNumber} ({customer.name})'
    order.indexes = order.indexes ?? []

    const result = await applied({ entities: [order] })
    assert.isTrue(
      result.steps.some((s) =>
        s.description.includes('renameColumn bookstore_order.number -> order_number')
      ),
      JSON.stringify(result.steps.map((s) => s.description))
    )
    assert.include(
      (await table('bookstore_order'))!.columns.map((c) => c.name),
      'order_number'
    )
    const plan = e.model.fetchPlans.get('bookstore_Order')!.get('order-full')!
    assert.include(plan.properties, 'orderNumber')
    assert.equal(
      e.model.entity('bookstore_OrderLineDiscount')!.instanceName,
      '{reason} ({orderLine.order.orderNumber})'
    )
    // The demo reports follow too: their fields and sort name the new attribute.
    const report = await findReport(e.db.connection(), '0d5e7a52-2b53-4c1e-9a31-7d0c1b2a1001')
    const orders = report!.bands[0].datasets[0]
    assert.equal(orders.fields![0], 'orderNumber')
    assert.equal(orders.sort, 'orderNumber')
  })
})
