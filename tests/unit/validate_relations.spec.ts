import { test } from '@japa/runner'
import { validateModel } from '#engine/metadata/validate'
import { normalizeModel } from '#engine/metadata/normalize'
import type { ModelDefinition } from '#engine/metadata/types'
import {
  demoDocument,
  entity,
  hasProblem,
  int,
  m2o,
  model,
  o2m,
  plan,
  shop,
  str,
} from '#tests/unit/_fixtures'

const validate = (def: ModelDefinition) => validateModel(normalizeModel(def))

test.group('validateModel: relations', () => {
  test('the shop fixture is valid', ({ assert }) => {
    assert.deepEqual(validate(shop()), [])
  })

  test('relation without target, or with an unknown target', ({ assert }) => {
    const def = model([
      entity('shop_Item', [
        { name: 'a', type: 'association', cardinality: 'MANY_TO_ONE' },
        m2o('b', 'shop_Missing'),
      ]),
    ])
    const problems = validate(def)
    hasProblem(assert, problems, '$.entities[0].attributes[0].target', /needs 'target'/)
    hasProblem(
      assert,
      problems,
      '$.entities[0].attributes[1].target',
      /unknown entity 'shop_Missing'/
    )
  })

  test('ONE_TO_MANY without mappedBy', ({ assert }) => {
    const def = shop()
    def.entities[0].attributes[1] = o2m('lines', 'shop_OrderLine')
    hasProblem(assert, validate(def), '$.entities[0].attributes[1].mappedBy', /needs 'mappedBy'/)
  })

  test('mappedBy naming a missing attribute or a wrong-shaped one', ({ assert }) => {
    const missing = shop()
    missing.entities[0].attributes[1] = o2m('lines', 'shop_OrderLine', 'nope')
    hasProblem(
      assert,
      validate(missing),
      '$.entities[0].attributes[1].mappedBy',
      /has no attribute 'nope'/
    )
    const plain = shop()
    plain.entities[0].attributes[1] = o2m('lines', 'shop_OrderLine', 'quantity')
    hasProblem(
      assert,
      validate(plain),
      '$.entities[0].attributes[1].mappedBy',
      /must be an owning MANY_TO_ONE/
    )
    const system = shop()
    system.entities[0].attributes[1] = o2m('lines', 'shop_OrderLine', 'id')
    hasProblem(
      assert,
      validate(system),
      '$.entities[0].attributes[1].mappedBy',
      /has no attribute 'id'/
    )
  })

  test('MANY_TO_ONE with mappedBy, composition MANY_TO_MANY, unique relation, transient relation', ({
    assert,
  }) => {
    const def = model([
      entity('shop_Tag', [str('name')]),
      entity('shop_Item', [
        m2o('a', 'shop_Tag', { mappedBy: 'name' }),
        { name: 'b', type: 'composition', cardinality: 'MANY_TO_MANY', target: 'shop_Tag' },
        m2o('c', 'shop_Tag', { unique: true }),
        m2o('d', 'shop_Tag', { transient: true }),
      ]),
    ])
    const problems = validate(def)
    hasProblem(assert, problems, '$.entities[1].attributes[0].mappedBy', /cannot have 'mappedBy'/)
    hasProblem(assert, problems, '$.entities[1].attributes[1].cardinality', /composition/)
    hasProblem(assert, problems, '$.entities[1].attributes[2].unique')
    hasProblem(assert, problems, '$.entities[1].attributes[3].transient')
  })

  test('link table columns stay within 63 characters', ({ assert }) => {
    // Both tables are 40+ characters: `<table>_id` link columns would exceed the limit.
    const long = 'shop_' + 'x'.repeat(58)
    const def = model([
      entity('shop_Tag', [str('name')], { table: long.replace('shop_', 'tags_') }),
      entity(
        'shop_Item',
        [
          {
            name: 'tags',
            type: 'association',
            cardinality: 'MANY_TO_MANY',
            target: 'shop_Tag',
            linkTable: 'shop_item_tags',
          },
        ],
        {
          table: long,
        }
      ),
    ])
    hasProblem(assert, validate(def), '$.entities[1].attributes[0].name', /63/)
  })

  test('self-referencing many-to-many whose link columns would coincide', ({ assert }) => {
    const def = model([
      entity('shop_Node', [
        { name: 'shopNode', type: 'association', cardinality: 'MANY_TO_MANY', target: 'shop_Node' },
      ]),
    ])
    hasProblem(
      assert,
      validate(def),
      '$.entities[0].attributes[0].name',
      /would both be 'shop_node_id'/
    )
    const fine = model([
      entity('shop_Node', [
        { name: 'related', type: 'association', cardinality: 'MANY_TO_MANY', target: 'shop_Node' },
      ]),
    ])
    assert.deepEqual(validate(fine), [])
  })
})

test.group('validateModel: instance names, fetch plans, tables', () => {
  test('instanceName through a to-many relation', ({ assert }) => {
    const def = shop()
    def.entities[0].instanceName = '{number} {lines.quantity}'
    hasProblem(assert, validate(def), '$.entities[0].instanceName', /to-one relations/)
  })

  test('instanceName through a to-one relation is fine; unknown property is not', ({ assert }) => {
    const def = shop()
    def.entities[1].instanceName = '{order.number} x {quantity}'
    assert.deepEqual(validate(def), [])
    def.entities[1].instanceName = '{order.nope}'
    hasProblem(assert, validate(def), '$.entities[1].instanceName', /unknown property 'order.nope'/)
  })

  test('fetch plan: unknown property, unknown nested plan, not a relation', ({ assert }) => {
    const def = shop()
    def.fetchPlans = [
      plan('shop_Order', 'p1', [
        'number',
        'nope',
        { name: 'lines', fetchPlan: 'missing-plan' },
        { name: 'number', fetchPlan: '_base' },
      ]),
      plan('shop_Order', 'p2', [
        {
          name: 'lines',
          fetchPlan: {
            properties: ['quantity', { name: 'order', fetchPlan: { properties: ['bad'] } }],
          },
        },
      ]),
    ]
    const problems = validate(def)
    hasProblem(assert, problems, '$.fetchPlans[0].properties[1]', /unknown attribute 'nope'/)
    hasProblem(
      assert,
      problems,
      '$.fetchPlans[0].properties[2].fetchPlan',
      /unknown fetch plan 'missing-plan'/
    )
    hasProblem(assert, problems, '$.fetchPlans[0].properties[3].fetchPlan', /not a relation/)
    hasProblem(
      assert,
      problems,
      '$.fetchPlans[1].properties[0].fetchPlan.properties[1].fetchPlan.properties[0]',
      /unknown attribute 'bad'/
    )
  })

  test('fetch plan: unknown entity, invalid name, duplicates, unknown extends', ({ assert }) => {
    const def = shop()
    def.fetchPlans = [
      plan('shop_Missing', 'p', ['a']),
      plan('shop_Order', '_mine', ['number']),
      plan('shop_Order', 'p', ['number'], 'nope'),
      plan('shop_Order', 'p', ['number']),
    ]
    const problems = validate(def)
    hasProblem(assert, problems, '$.fetchPlans[0].entity', /unknown entity/)
    hasProblem(assert, problems, '$.fetchPlans[1].name', /invalid fetch plan name/)
    hasProblem(assert, problems, '$.fetchPlans[2].extends', /unknown fetch plan 'nope'/)
    hasProblem(assert, problems, '$.fetchPlans[3].name', /duplicate/)
  })

  test('fetch plan extends cycle', ({ assert }) => {
    const def = shop()
    def.fetchPlans = [
      plan('shop_Order', 'a', ['number'], 'b'),
      plan('shop_Order', 'b', ['number'], 'a'),
      plan('shop_Order', 'c', [], 'c'),
    ]
    const problems = validate(def)
    hasProblem(assert, problems, '$.fetchPlans[0].extends', /extends itself/)
    hasProblem(assert, problems, '$.fetchPlans[1].extends', /extends itself/)
    hasProblem(assert, problems, '$.fetchPlans[2].extends', /extends itself/)
  })

  test('an inline plan over a relation with an unknown target reports instead of crashing', ({
    assert,
  }) => {
    const def = model([entity('shop_Item', [m2o('owner', 'shop_Missing')])], {
      fetchPlans: [
        plan('shop_Item', 'p', [{ name: 'owner', fetchPlan: { properties: ['name'] } }]),
      ],
    })
    hasProblem(assert, validate(def), '$.entities[0].attributes[0].target', /unknown entity/)
  })

  test('duplicate table names and reserved prefixes', ({ assert }) => {
    const def = model([
      entity('shop_Order', [str('a')]),
      entity('shop_Other', [str('a')], { table: 'shop_order' }),
      entity('shop_Sys', [str('a')], { table: 'mg_entities' }),
      entity('mg_Thing', [str('a')]),
      entity('shop_Bad', [str('a')], { table: 'Shop-Bad' }),
      entity('shop$Order', [str('a')]),
    ])
    const problems = validate(def)
    hasProblem(assert, problems, '$.entities[1].table', /already used by entity shop_Order/)
    hasProblem(assert, problems, '$.entities[2].table', /reserved/)
    hasProblem(assert, problems, '$.entities[3].name', /reserved/)
    hasProblem(assert, problems, '$.entities[4].table', /not a valid table name/)
    hasProblem(assert, problems, '$.entities[5].name', /already used/)
  })

  test('index problems', ({ assert }) => {
    const def = shop()
    def.entities[0].indexes = [
      { attributes: [] },
      { attributes: ['nope', 'lines'] },
      { attributes: ['number'], name: 'Bad Name' },
    ]
    const problems = validate(def)
    hasProblem(assert, problems, '$.entities[0].indexes[0].attributes')
    hasProblem(assert, problems, '$.entities[0].indexes[1].attributes[0]', /unknown attribute/)
    hasProblem(assert, problems, '$.entities[0].indexes[1].attributes[1]', /no column/)
    hasProblem(assert, problems, '$.entities[0].indexes[2].name')
  })

  test('the demo document validates with zero problems', async ({ assert }) => {
    const doc = await demoDocument()
    assert.deepEqual(
      validate({ enums: doc.enums, entities: doc.entities, fetchPlans: doc.fetchPlans }),
      []
    )
  })

  test('every problem of a document is reported, not just the first', ({ assert }) => {
    const def = shop()
    def.entities[1].attributes.push(
      { name: 'x', type: 'nope' as any },
      int('y', { min: 5, max: 1 })
    )
    def.entities[0].attributes.push(str('version'))
    assert.isAtLeast(validate(def).length, 3)
  })
})
