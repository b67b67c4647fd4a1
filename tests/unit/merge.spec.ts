import { test } from '@japa/runner'
import { mergeDocument } from '#engine/definition/merge'
import { normalizeModel } from '#engine/metadata/normalize'
import { validateModel } from '#engine/metadata/validate'
import type { ModelDefinition } from '#engine/metadata/types'
import { entity, int, m2o, model, plan, shop, str } from '#tests/unit/_fixtures'

const current = () =>
  normalizeModel({
    ...shop(),
    enums: [{ name: 'x.Status', values: [{ name: 'A', id: 'a' }] }],
    fetchPlans: [plan('shop_Order', 'order-full', ['number', 'lines'])],
  })
const doc = (
  entities: ModelDefinition['entities'],
  prune = false,
  extra: Partial<ModelDefinition> = {}
) => ({ ...model(entities, extra), prune })
const names = (def: ModelDefinition) => def.entities.map((e) => e.name)

test.group('mergeDocument', () => {
  test('entities the document does not name are kept without prune', ({ assert }) => {
    const merged = mergeDocument(current(), doc([entity('shop_Tag', [str('name')])]))
    assert.deepEqual(names(merged.model), ['shop_Tag', 'shop_Order', 'shop_OrderLine'])
    assert.deepEqual(
      merged.model.enums.map((e) => e.name),
      ['x.Status']
    )
    assert.lengthOf(merged.model.fetchPlans, 1)
    assert.equal(merged.paths.entity(0), '$.entities[0]')
    assert.equal(merged.paths.entity(1), '(stored entity shop_Order)')
  })

  test('with prune, unnamed entities, enums and fetch plans are removed', ({ assert }) => {
    const merged = mergeDocument(current(), doc([entity('shop_Tag', [str('name')])], true))
    assert.deepEqual(names(merged.model), ['shop_Tag'])
    assert.deepEqual(merged.model.enums, [])
    assert.deepEqual(merged.model.fetchPlans, [])
  })

  test('attributes the document does not name stay unless prune', ({ assert }) => {
    const partial = entity('shop_OrderLine', [
      m2o('order', 'shop_Order', { mandatory: true }),
      str('note'),
    ])
    const kept = mergeDocument(current(), doc([partial]))
    const line = kept.model.entities.find((e) => e.name === 'shop_OrderLine')!
    assert.deepEqual(
      line.attributes.map((a) => a.name),
      ['order', 'note', 'quantity']
    )
    const pruned = mergeDocument(
      current(),
      doc([partial, ...current().entities.filter((e) => e.name === 'shop_Order')], true)
    )
    assert.deepEqual(
      pruned.model.entities.find((e) => e.name === 'shop_OrderLine')!.attributes.map((a) => a.name),
      ['order', 'note']
    )
  })

  test('renamedFrom on an entity gives a table hint; its fetch plans follow it', ({ assert }) => {
    const order = current().entities[0]
    const renamed = { ...order, name: 'shop_PurchaseOrder', renamedFrom: 'shop_Order' }
    const line = entity('shop_OrderLine', [
      m2o('order', 'shop_PurchaseOrder', { mandatory: true }),
      int('quantity'),
    ])
    const merged = mergeDocument(current(), doc([renamed, line]))
    assert.deepEqual(names(merged.model), ['shop_PurchaseOrder', 'shop_OrderLine'])
    assert.deepEqual([...merged.hints.tables], [['shop_purchase_order', 'shop_order']])
    assert.deepEqual(
      merged.model.fetchPlans.map((p) => p.entity),
      ['shop_PurchaseOrder']
    )
    assert.notProperty(merged.model.entities[0], 'renamedFrom')
    assert.deepEqual(validateModel(normalizeModel(merged.model), merged.paths), [])
  })

  test('renamedFrom on an attribute gives a column hint and replaces the old attribute', ({
    assert,
  }) => {
    const order = current().entities[0]
    const renamed = {
      ...order,
      attributes: [
        { ...order.attributes[0], name: 'code', renamedFrom: 'number' },
        order.attributes[1],
      ],
    }
    const merged = mergeDocument(current(), doc([renamed]))
    const attrs = merged.model.entities.find((e) => e.name === 'shop_Order')!.attributes
    assert.deepEqual(
      attrs.map((a) => a.name),
      ['code', 'lines']
    )
    assert.notProperty(attrs[0], 'renamedFrom')
    assert.deepEqual([...merged.hints.tables], [])
    assert.deepEqual([...merged.hints.columns.get('shop_order')!], [['code', 'number']])
  })

  test('renaming a relation renames its foreign key column', ({ assert }) => {
    const line = entity('shop_OrderLine', [
      m2o('parent', 'shop_Order', { mandatory: true, renamedFrom: 'order' } as any),
      int('quantity'),
    ])
    const merged = mergeDocument(current(), doc([line]))
    assert.deepEqual([...merged.hints.columns.get('shop_order_line')!], [['parent_id', 'order_id']])
  })

  test('an explicit new table name is a table rename', ({ assert }) => {
    const order = { ...current().entities[0], table: 'orders' }
    const merged = mergeDocument(current(), doc([order]))
    assert.deepEqual([...merged.hints.tables], [['orders', 'shop_order']])
  })

  test('renaming a stored entity: entities the document does not name follow the new name', ({
    assert,
  }) => {
    // Only the renamed entity is in the document; shop_OrderLine (stored) still targets it.
    const order = current().entities[0]
    const renamed = {
      ...order,
      name: 'shop_PurchaseOrder',
      renamedFrom: 'shop_Order',
      attributes: [order.attributes[0]],
    }
    const merged = mergeDocument(current(), doc([renamed]))
    const line = merged.model.entities.find((e) => e.name === 'shop_OrderLine')!
    assert.equal(line.attributes[0].target, 'shop_PurchaseOrder')
    assert.deepEqual(validateModel(normalizeModel(merged.model), merged.paths), [])
  })

  test('renaming a relation: a stored inverse side follows the new mappedBy', ({ assert }) => {
    const line = entity('shop_OrderLine', [
      m2o('parent', 'shop_Order', { mandatory: true, renamedFrom: 'order' } as any),
      int('quantity'),
    ])
    const merged = mergeDocument(current(), doc([line]))
    const order = merged.model.entities.find((e) => e.name === 'shop_Order')!
    assert.equal(order.attributes[1].mappedBy, 'parent')
    assert.deepEqual(validateModel(normalizeModel(merged.model), merged.paths), [])
  })

  test('renaming an attribute: stored fetch plans and instance names follow it', ({ assert }) => {
    const base = current()
    base.entities[1].instanceName = '{order.number} x {quantity}'
    base.fetchPlans.push(
      plan('shop_OrderLine', 'line-full', [
        'quantity',
        { name: 'order', fetchPlan: { properties: ['number'] } },
      ])
    )
    const order = base.entities[0]
    const renamed = {
      ...order,
      instanceName: 'code',
      attributes: [
        { ...order.attributes[0], name: 'code', renamedFrom: 'number' },
        order.attributes[1],
      ],
    }
    const merged = mergeDocument(base, doc([renamed]))
    assert.deepEqual(
      merged.model.fetchPlans.map((p) => p.properties),
      [
        ['code', 'lines'],
        ['quantity', { name: 'order', fetchPlan: { properties: ['code'] } }],
      ]
    )
    assert.equal(
      merged.model.entities.find((e) => e.name === 'shop_OrderLine')!.instanceName,
      '{order.code} x {quantity}'
    )
    assert.deepEqual(validateModel(normalizeModel(merged.model), merged.paths), [])
  })

  test('problems in stored attributes kept in a named entity point at the stored attribute', ({
    assert,
  }) => {
    // The document adds `Quantity`; the stored `quantity` (kept, not named) then clashes with it.
    const line = entity('shop_OrderLine', [
      m2o('order', 'shop_Order', { mandatory: true }),
      str('Quantity'),
    ])
    const merged = mergeDocument(current(), doc([line]))
    const problems = validateModel(normalizeModel(merged.model), merged.paths)
    assert.isNotEmpty(problems)
    for (const p of problems)
      assert.equal(p.path, '(stored attribute shop_OrderLine.quantity).name')
  })

  test('renamedFrom naming an attribute the document also names: no column is renamed away', ({
    assert,
  }) => {
    const order = current().entities[0]
    const both = {
      ...order,
      attributes: [
        { ...order.attributes[0], name: 'code', renamedFrom: 'number' },
        order.attributes[0],
        order.attributes[1],
      ],
    }
    const merged = mergeDocument(current(), doc([both]))
    assert.isUndefined(merged.hints.columns.get('shop_order')?.get('code'))
  })

  test('merging the current model into itself changes nothing', ({ assert }) => {
    const merged = mergeDocument(current(), { ...current(), prune: false })
    assert.deepEqual(normalizeModel(merged.model), current())
    assert.deepEqual([...merged.hints.tables], [])
    assert.deepEqual([...merged.hints.columns], [])
  })
})
