import { test } from '@japa/runner'
import { normalizeAttribute, normalizeEntity, normalizeModel } from '#engine/metadata/normalize'
import { diffModels } from '#engine/metadata/diff'
import { demoDocument, entity, int, m2o, model, shop, str } from '#tests/unit/_fixtures'

test.group('normalize', () => {
  test('defaults and import-only instructions are dropped', ({ assert }) => {
    const e = normalizeEntity({
      name: 'shop_Order',
      table: 'shop_order',
      idType: 'uuid',
      traits: [],
      caption: {},
      renamedFrom: 'shop_OldOrder',
      indexes: [{ attributes: ['number'], unique: false }],
      attributes: [
        {
          name: 'number',
          type: 'string',
          mandatory: false,
          unique: false,
          transient: false,
          readOnly: false,
          renamedFrom: 'code',
        },
        m2o('customer', 'shop_Customer', { onDelete: 'unlink' }),
      ],
    })
    assert.deepEqual(e, {
      name: 'shop_Order',
      attributes: [
        { name: 'number', type: 'string' },
        {
          name: 'customer',
          type: 'association',
          target: 'shop_Customer',
          cardinality: 'MANY_TO_ONE',
        },
      ],
      indexes: [{ attributes: ['number'] }],
    })
  })

  test('meaningful values are kept, traits ordered and deduplicated', ({ assert }) => {
    const e = normalizeEntity(
      entity('shop_Order', [m2o('customer', 'shop_Customer', { onDelete: 'cascade' })], {
        table: 'orders',
        idType: 'long',
        traits: ['audited', 'versioned', 'audited'],
      })
    )
    assert.equal(e.table, 'orders')
    assert.equal(e.idType, 'long')
    assert.deepEqual(e.traits, ['versioned', 'audited'])
    assert.equal(e.attributes[0].onDelete, 'cascade')
  })

  test('keys come in a fixed order', ({ assert }) => {
    const a = normalizeAttribute({ mandatory: true, type: 'string', name: 'x', length: 5 } as any)
    assert.deepEqual(Object.keys(a), ['name', 'type', 'length', 'mandatory'])
  })

  test('numeric strings in min/max are stored as numbers, so they normalize to numbers', ({
    assert,
  }) => {
    // The store writes min/max as text and reads numbers back: normalizing the same way keeps a
    // re-import of a document with `"min": "0"` a no-op.
    assert.deepEqual(normalizeAttribute(int('a', { min: '0', max: '10' })), {
      name: 'a',
      type: 'int',
      min: 0,
      max: 10,
    })
    assert.deepEqual(normalizeAttribute(int('a', { min: 'abc' })), {
      name: 'a',
      type: 'int',
      min: 'abc',
    })
  })

  test('enum value ids become strings; empty fetch plan properties stay', ({ assert }) => {
    const def = normalizeModel(
      model([], {
        enums: [{ name: 'x.E', values: [{ name: 'ONE', id: 1 as any }] }],
        fetchPlans: [
          { entity: 'e', name: 'p', properties: [] },
          {
            entity: 'e',
            name: 'q',
            properties: [{ name: 'a' }, { name: 'b', fetchPlan: { properties: ['c'] } }],
          },
        ],
      })
    )
    assert.deepEqual(def.enums[0].values, [{ name: 'ONE', id: '1' }])
    assert.deepEqual(def.fetchPlans[0].properties, [])
    assert.deepEqual(def.fetchPlans[1].properties, [
      'a',
      { name: 'b', fetchPlan: { properties: ['c'] } },
    ])
  })

  test('normalize is idempotent on the demo (export -> normalize -> normalize)', async ({
    assert,
  }) => {
    const doc = await demoDocument()
    const once = normalizeModel({
      enums: doc.enums,
      entities: doc.entities,
      fetchPlans: doc.fetchPlans,
    })
    const exported = JSON.parse(JSON.stringify(once))
    assert.deepEqual(normalizeModel(exported), once)
    assert.deepEqual(diffModels(once, normalizeModel(exported)), [])
    assert.notProperty(
      once.entities.find((e) => e.name === 'bookstore_Order')!,
      'table',
      'derived table name dropped'
    )
  })

  test('diffModels names what changed', ({ assert }) => {
    const before = normalizeModel(shop())
    const after = normalizeModel(shop())
    after.entities[0].attributes.push(str('note'))
    after.entities[1].attributes.splice(1, 1)
    after.entities.push(entity('shop_Tag', [str('name')]))
    assert.deepEqual(diffModels(before, after), [
      'entity shop_Order: attribute note added',
      'entity shop_OrderLine: attribute quantity removed',
      'entity shop_Tag: added',
    ])
    assert.deepEqual(diffModels(before, normalizeModel(shop())), [])
  })

  test('diffModels names renames as renames, not as removed and added', ({ assert }) => {
    const before = normalizeModel(shop())
    const after = normalizeModel(shop())
    const order = after.entities[0]
    const first = order.attributes[0].name
    order.name = 'shop_PurchaseOrder'
    order.attributes[0] = { ...order.attributes[0], name: 'code' }
    const renames = {
      entities: new Map([['shop_Order', 'shop_PurchaseOrder']]),
      attributes: new Map([['shop_PurchaseOrder', new Map([[first, 'code']])]]),
    }
    const changes = diffModels(before, after, renames)
    assert.include(
      changes,
      `entity shop_PurchaseOrder: renamed from shop_Order, attribute code renamed from ${first}`
    )
    assert.notInclude(changes.join('\n'), 'shop_Order: removed')
    assert.notInclude(changes.join('\n'), 'added')
  })
})
