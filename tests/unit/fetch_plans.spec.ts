/**
 * Fetch-plan expansion (app/engine/query/fetch_plans.ts): built-ins, extends chains, merging,
 * nested plans by name or inline, cycles; pure, on small models.
 */
import { test } from '@japa/runner'
import { Model } from '#engine/metadata/model'
import { normalizeModel } from '#engine/metadata/normalize'
import type { ModelDefinition } from '#engine/metadata/types'
import {
  describeFetchPlan,
  fetchPlanNames,
  filterFetchPlan,
  resolveFetchPlan,
  resolveInlineFetchPlan,
} from '#engine/query/fetch_plans'
import { entity, int, m2o, model, o2m, plan, str } from '#tests/unit/_fixtures'

const snapshot = (def: ModelDefinition) => new Model(1, normalizeModel(def))

/** Order (versioned, instance name with a path) 1-n Line n-1 Product; Customer. */
function shopModel(fetchPlans: ModelDefinition['fetchPlans'] = []) {
  return snapshot(
    model(
      [
        entity('s_Customer', [str('name'), str('email')], { instanceName: 'name' }),
        entity(
          's_Order',
          [
            str('number'),
            m2o('customer', 's_Customer'),
            o2m('lines', 's_Line', 'order'),
            { name: 'total', type: 'decimal', transient: true, readOnly: true },
          ],
          { instanceName: '{number} ({customer.name})', traits: ['versioned'] }
        ),
        entity('s_Line', [m2o('order', 's_Order'), m2o('product', 's_Product'), int('qty')], {
          instanceName: '{product.title} x {qty}',
        }),
        entity('s_Product', [str('title'), int('stock'), m2o('maker', 's_Customer')], {
          instanceName: 'title',
        }),
      ],
      { fetchPlans }
    )
  )
}

const describe = (m: Model, e: string, name: string) => {
  const resolved = resolveFetchPlan(m, e, name)
  return resolved && describeFetchPlan(resolved)
}

test.group('fetch plans: built-ins', () => {
  test('_local: persistent non-reference attributes, system ones included', ({ assert }) => {
    assert.deepEqual(describe(shopModel(), 's_Order', '_local'), {
      name: '_local',
      entity: 's_Order',
      properties: ['id', 'number', 'version'],
    })
  })

  test('_instance_name: its attributes; references with an unnamed nested plan', ({ assert }) => {
    assert.deepEqual(describe(shopModel(), 's_Order', '_instance_name'), {
      name: '_instance_name',
      entity: 's_Order',
      properties: ['number', { name: 'customer', fetchPlan: { properties: ['name'] } }],
    })
    assert.deepEqual(describe(shopModel(), 's_Product', '_instance_name')!.properties, ['title'])
    assert.deepEqual(describe(shopModel(), 's_Line', '_instance_name')!.properties, [
      { name: 'product', fetchPlan: { properties: ['title'] } },
      'qty',
    ])
  })

  test('_base: _local, then instance-name references with their _base', ({ assert }) => {
    assert.deepEqual(describe(shopModel(), 's_Order', '_base'), {
      name: '_base',
      entity: 's_Order',
      properties: [
        'id',
        'number',
        'version',
        { name: 'customer', fetchPlan: { properties: ['id', 'name', 'email'] } },
      ],
    })
  })

  test('an entity without instance name has an empty _instance_name', ({ assert }) => {
    const m = snapshot(model([entity('x_A', [str('a')])]))
    assert.deepEqual(describe(m, 'x_A', '_instance_name')!.properties, [])
    assert.deepEqual(describe(m, 'x_A', '_base')!.properties, ['id', 'a'])
  })

  test('paths deeper than the target instance name are added; cycles are cut', ({ assert }) => {
    const m = snapshot(
      model([
        entity('c_A', [str('code'), m2o('b', 'c_B')], { instanceName: '{code} {b.label}' }),
        entity('c_B', [str('label'), str('extra'), m2o('a', 'c_A')], {
          instanceName: '{label} {a.code}',
        }),
        entity('c_C', [m2o('a', 'c_A')], { instanceName: '{a.b.extra}' }),
      ])
    )
    // A -> B -> A would recurse forever: the repeated built-in is left out, the path stays.
    assert.deepEqual(describe(m, 'c_A', '_instance_name')!.properties, [
      'code',
      {
        name: 'b',
        fetchPlan: { properties: ['label', { name: 'a', fetchPlan: { properties: ['code'] } }] },
      },
    ])
    const c = describe(m, 'c_C', '_instance_name')!
    const a = (c.properties[0] as any).fetchPlan
    const b = a.properties.find((p: any) => p.name === 'b').fetchPlan
    assert.include(b.properties, 'extra', 'a.b.extra reaches past the target instance names')
  })

  test('unknown entity or plan: null', ({ assert }) => {
    assert.isNull(resolveFetchPlan(shopModel(), 'nope', '_base'))
    assert.isNull(resolveFetchPlan(shopModel(), 's_Order', 'nope'))
  })
})

test.group('fetch plans: named and inline', () => {
  test('extends + own properties; reference without plan gets _base (named)', ({ assert }) => {
    const m = shopModel([
      plan('s_Order', 'with-lines', [{ name: 'lines', fetchPlan: '_instance_name' }], '_local'),
      plan('s_Line', 'line-product', ['qty', 'product']),
    ])
    assert.deepEqual(describe(m, 's_Order', 'with-lines'), {
      name: 'with-lines',
      entity: 's_Order',
      properties: [
        'id',
        'number',
        'version',
        {
          name: 'lines',
          fetchPlan: {
            name: '_instance_name',
            properties: [{ name: 'product', fetchPlan: { properties: ['title'] } }, 'qty'],
          },
        },
      ],
    })
    assert.deepEqual(describe(m, 's_Line', 'line-product')!.properties, [
      'qty',
      {
        name: 'product',
        fetchPlan: {
          name: '_base',
          properties: ['id', 'title', 'stock'],
        },
      },
    ])
    assert.deepEqual(fetchPlanNames(m, 's_Order'), ['with-lines'])
    assert.deepEqual(fetchPlanNames(m, 's_Customer'), [])
  })

  test('a property already in the ancestor is merged in place and loses the name', ({ assert }) => {
    const m = shopModel([
      plan('s_Order', 'full', [{ name: 'customer', fetchPlan: '_instance_name' }], '_base'),
      plan('s_Order', 'fuller', ['total', { name: 'lines', fetchPlan: 'line' }], 'full'),
      plan('s_Line', 'line', [{ name: 'product', fetchPlan: { properties: ['stock'] } }]),
    ])
    const full = describe(m, 's_Order', 'full')!
    assert.deepEqual(full.properties.at(-1), {
      name: 'customer',
      fetchPlan: { properties: ['id', 'name', 'email'] },
    })
    const fuller = describe(m, 's_Order', 'fuller')!
    assert.deepEqual(fuller.properties.slice(0, 4), full.properties, 'the ancestor first, in order')
    assert.deepEqual(fuller.properties.slice(4), [
      'total',
      {
        name: 'lines',
        fetchPlan: {
          name: 'line',
          properties: [{ name: 'product', fetchPlan: { properties: ['stock'] } }],
        },
      },
    ])
  })

  test('inline nested plans: named after their ancestor, unnamed without one', ({ assert }) => {
    const m = shopModel([
      plan('s_Order', 'p', [
        {
          name: 'lines',
          fetchPlan: {
            extends: '_instance_name',
            properties: [{ name: 'product', fetchPlan: { properties: ['stock'] } }],
          },
        },
      ]),
    ])
    assert.deepEqual(describe(m, 's_Order', 'p')!.properties, [
      {
        name: 'lines',
        fetchPlan: {
          name: '_instance_name',
          properties: [{ name: 'product', fetchPlan: { properties: ['title', 'stock'] } }, 'qty'],
        },
      },
    ])
    const inline = resolveInlineFetchPlan(m, 's_Line', { properties: ['qty'] })!
    assert.deepEqual(describeFetchPlan(inline), { name: '', entity: 's_Line', properties: ['qty'] })
  })

  test('named plans that nest each other: the cycle becomes _instance_name', ({ assert }) => {
    const m = shopModel([
      plan('s_Order', 'o', ['number', { name: 'lines', fetchPlan: 'l' }]),
      plan('s_Line', 'l', ['qty', { name: 'order', fetchPlan: 'o' }]),
    ])
    assert.deepEqual(describe(m, 's_Order', 'o')!.properties, [
      'number',
      {
        name: 'lines',
        fetchPlan: {
          name: 'l',
          properties: [
            'qty',
            {
              name: 'order',
              fetchPlan: {
                name: '_instance_name',
                properties: ['number', { name: 'customer', fetchPlan: { properties: ['name'] } }],
              },
            },
          ],
        },
      },
    ])
  })

  test('resolutions are cached per model version; filterFetchPlan copies', ({ assert }) => {
    const m = shopModel()
    const base = resolveFetchPlan(m, 's_Order', '_base')!
    assert.strictEqual(resolveFetchPlan(m, 's_Order', '_base'), base)
    const filtered = filterFetchPlan(base, (e, a) => !(e === 's_Customer' && a === 'email'))
    assert.deepEqual(describeFetchPlan(filtered).properties.at(-1), {
      name: 'customer',
      fetchPlan: { properties: ['id', 'name'] },
    })
    assert.lengthOf((describeFetchPlan(base).properties.at(-1) as any).fetchPlan.properties, 3)
  })
})
