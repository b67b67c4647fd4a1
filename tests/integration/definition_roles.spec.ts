/**
 * The `resourceRoles` and `rowLevelRoles` sections of the definition document: storage only
 * (no enforcement yet). Import, idempotence, export round trip, semantic problems with JSON
 * paths that change nothing, prune, built-in roles neither stored nor exported.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'
import { readVersion } from '#changes/versions'
import { definitions } from '#definition/main'

const order = {
  name: 'shop_Order',
  traits: ['audited'],
  attributes: [
    { name: 'number', type: 'string', length: 20 },
    { name: 'status', type: 'string', length: 10 },
    { name: 'amount', type: 'int' },
  ],
}
const clerk = {
  code: 'shop-clerk',
  name: 'Clerk',
  description: 'Order desk',
  scopes: ['API', 'UI'],
  childRoles: ['rest-minimal'],
  entityPolicies: [
    { entity: 'shop_Order', actions: ['create', 'read', 'update'] },
    { entity: '*', actions: ['read'] },
  ],
  attributePolicies: [
    { entity: 'shop_Order', attributes: ['*'], action: 'MODIFY' },
    { entity: 'shop_Order', attributes: ['number', 'createdBy'], action: 'VIEW' },
  ],
  specificPolicies: ['rest.fileUpload.enabled', 'rest.fileDownload.enabled'],
}
const ownOrders = {
  code: 'own-orders',
  name: 'Only own orders',
  description: '',
  policies: [
    {
      entity: 'shop_Order',
      type: 'filter',
      actions: ['read'],
      filter: {
        conditions: [{ property: 'createdBy', operator: '=', value: ':current_user_username' }],
      },
    },
    {
      entity: 'shop_Order',
      type: 'predicate',
      actions: ['update', 'delete'],
      filter: { conditions: [{ property: 'status', operator: '=', value: 'NEW' }] },
    },
  ],
}
const codes = async (table: string) =>
  (await db.from(table).orderBy('code')).map((r) => r.code as string)

async function applied(doc: Record<string, unknown>) {
  const result = await importDoc(doc)
  if (result.status !== 'applied') throw new Error(`expected applied: ${JSON.stringify(result)}`)
  return result
}

/** Imports an invalid document; asserts the problems (path -> message part) and no change. */
async function refused(assert: any, doc: Record<string, unknown>, expected: [string, RegExp][]) {
  const before = await snapshotState()
  const result = await importDoc(doc)
  assert.equal(result.status, 'invalid', JSON.stringify(result))
  for (const [path, message] of expected)
    assert.isTrue(
      result.problems.some((p) => p.path === path && message.test(p.message)),
      `no problem ${path} ${message}: ${JSON.stringify(result.problems)}`
    )
  assert.equal(await snapshotState(), before, 'an invalid document changes nothing')
}

test.group('definition: resource and row-level roles', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('roles are stored with their policies, with the model in one import', async ({ assert }) => {
    const result = await applied({
      entities: [order],
      resourceRoles: [clerk],
      rowLevelRoles: [ownOrders],
    })
    assert.includeMembers(result.changes, [
      'resource role shop-clerk: created',
      'row-level role own-orders: created',
    ])
    assert.deepEqual(await codes('mg_resource_roles'), ['shop-clerk'])
    assert.lengthOf(await db.from('mg_resource_entity_policies'), 2)
    assert.lengthOf(await db.from('mg_resource_attribute_policies'), 2)
    assert.lengthOf(await db.from('mg_resource_specific_policies'), 2)
    const policies = await db.from('mg_row_level_policies').orderBy('position')
    assert.deepEqual(
      policies.map((p) => [p.type, JSON.parse(p.actions)]),
      [
        ['filter', ['read']],
        ['predicate', ['update', 'delete']],
      ]
    )
    // The placeholder is stored as written.
    assert.include(policies[0].filter, ':current_user_username')
    assert.equal(await readVersion(db.connection(), 'roles'), 1)
  })

  test('re-import changes nothing; export round trip is a no-op; built-ins are not exported', async ({
    assert,
  }) => {
    await applied({ entities: [order], resourceRoles: [clerk], rowLevelRoles: [ownOrders] })
    const before = await snapshotState()
    const again = await importDoc({ resourceRoles: [clerk], rowLevelRoles: [ownOrders] })
    assert.equal(again.status, 'unchanged', JSON.stringify(again.changes))
    assert.equal(await snapshotState(), before)

    const e = await engine()
    const exported = await definitions(e).exportDocument()
    assert.deepEqual(exported.resourceRoles, [clerk])
    assert.deepEqual(exported.rowLevelRoles, [ownOrders])
    const roundTrip = await definitions(e).importDocument(JSON.parse(JSON.stringify(exported)))
    assert.equal(roundTrip.status, 'unchanged', JSON.stringify(roundTrip.changes))
    assert.equal(await snapshotState(), before)

    await resetDatabase()
    assert.equal((await importDoc(exported)).status, 'applied')
    assert.deepEqual((await definitions(e).exportDocument()).resourceRoles, [clerk])
  })

  test('defaults: name is the code, both scopes, no policies', async ({ assert }) => {
    await applied({ resourceRoles: [{ code: 'bare' }], rowLevelRoles: [{ code: 'none' }] })
    const exported = await definitions(await engine()).exportDocument()
    assert.deepEqual(exported.resourceRoles, [
      {
        code: 'bare',
        name: 'bare',
        description: '',
        scopes: ['API', 'UI'],
        childRoles: [],
        entityPolicies: [],
        attributePolicies: [],
        specificPolicies: [],
      },
    ])
    assert.deepEqual(exported.rowLevelRoles, [
      { code: 'none', name: 'none', description: '', policies: [] },
    ])
  })

  test('a changed role replaces its policies', async ({ assert }) => {
    await applied({ entities: [order], resourceRoles: [clerk] })
    const changed = { ...clerk, entityPolicies: [{ entity: 'shop_Order', actions: ['read'] }] }
    const result = await applied({ resourceRoles: [changed] })
    assert.deepEqual(result.changes, ['resource role shop-clerk: changed'])
    assert.deepEqual(
      (await db.from('mg_resource_entity_policies')).map((p) => JSON.parse(p.actions)),
      [['read']]
    )
  })

  test('invalid roles are reported with their JSON paths and change nothing', async ({
    assert,
  }) => {
    await applied({ entities: [order] })
    await refused(
      assert,
      {
        resourceRoles: [
          {
            code: 'a',
            scopes: ['REST'],
            childRoles: ['b', 'missing'],
            entityPolicies: [{ entity: 'shop_Nope', actions: ['read', 'fly'] }],
            attributePolicies: [
              { entity: 'shop_Order', attributes: ['number', 'nope'], action: 'EDIT' },
              { entity: '*', attributes: ['number'], action: 'VIEW' },
            ],
            specificPolicies: ['rest.unknown'],
          },
          { code: 'b', childRoles: ['a'] },
          { code: 'b' },
          { code: 'rest-minimal' },
        ],
        rowLevelRoles: [
          {
            code: 'r',
            policies: [
              { entity: 'shop_Order', type: 'filter', actions: ['update'], filter: {} },
              {
                entity: 'shop_Order',
                type: 'predicate',
                actions: ['read'],
                filter: { conditions: [{ property: 'nope', operator: '=', value: 1 }] },
              },
              {
                entity: 'shop_Order',
                type: 'check',
                actions: ['read'],
                filter: { conditions: [{ property: 'amount', operator: '=', value: 'x' }] },
              },
              { entity: 'shop_Gone', type: 'filter', actions: ['read'], filter: {} },
            ],
          },
        ],
      },
      [
        ['$.resourceRoles[0].scopes[0]', /not one of API, UI/],
        ['$.resourceRoles[0].childRoles[1]', /unknown role 'missing'/],
        ['$.resourceRoles[0].childRoles', /cycle: a -> b -> a/],
        ['$.resourceRoles[0].entityPolicies[0].entity', /unknown entity 'shop_Nope'/],
        ['$.resourceRoles[0].entityPolicies[0].actions[1]', /'fly'/],
        ['$.resourceRoles[0].attributePolicies[0].attributes[1]', /unknown attribute 'nope'/],
        ['$.resourceRoles[0].attributePolicies[0].action', /VIEW or MODIFY/],
        ['$.resourceRoles[0].attributePolicies[1].attributes[0]', /only '\*'/],
        ['$.resourceRoles[0].specificPolicies[0]', /rest.unknown/],
        ['$.resourceRoles[2].code', /duplicate role code 'b'/],
        ['$.resourceRoles[3].code', /built-in role/],
        ['$.rowLevelRoles[0].policies[0].actions', /read only/],
        ['$.rowLevelRoles[0].policies[1].filter', /nope/],
        ['$.rowLevelRoles[0].policies[2].type', /filter or predicate/],
        ['$.rowLevelRoles[0].policies[2].filter', /.+/],
        ['$.rowLevelRoles[0].policies[3].entity', /unknown entity 'shop_Gone'/],
      ]
    )
  })

  test('unknown keys are problems; a bad role makes the whole import change nothing', async ({
    assert,
  }) => {
    await refused(
      assert,
      {
        entities: [order],
        resourceRoles: [{ code: 'x', entityPolicys: [] }],
        rowLevelRoles: [
          {
            code: 'y',
            policies: [
              { entity: 'shop_Order', type: 'filter', actions: ['read'], filter: {}, extra: 1 },
            ],
          },
        ],
      },
      [
        ['$.resourceRoles[0].entityPolicys', /unknown property/],
        ['$.rowLevelRoles[0].policies[0].extra', /unknown property/],
      ]
    )
  })

  test('prune removes the roles a present section does not name, and their assignments', async ({
    assert,
  }) => {
    await applied({
      entities: [order],
      resourceRoles: [clerk, { code: 'old' }],
      rowLevelRoles: [ownOrders, { code: 'old-rows' }],
      users: [
        { username: 'bob', password: 'bob-password-1', resourceRoles: ['old', 'shop-clerk'] },
      ],
    })
    // Without prune, unnamed roles stay; an absent section leaves its roles alone even with prune.
    assert.equal((await importDoc({ resourceRoles: [clerk] })).status, 'unchanged')
    const result = await applied({ prune: true, entities: [order], resourceRoles: [clerk] })
    assert.deepEqual(result.changes, ['resource role old: deleted (prune)'])
    assert.deepEqual(await codes('mg_resource_roles'), ['shop-clerk'])
    assert.deepEqual(await codes('mg_row_level_roles'), ['old-rows', 'own-orders'])
    assert.deepEqual(
      (await db.from('mg_user_resource_roles')).map((r) => r.role_code),
      ['shop-clerk']
    )
    await applied({ prune: true, entities: [order], rowLevelRoles: [] })
    assert.deepEqual(await codes('mg_row_level_roles'), [])
    assert.lengthOf(await db.from('mg_row_level_policies'), 0)
  })

  test('a role removed by prune cannot be named as a child', async ({ assert }) => {
    await applied({ resourceRoles: [{ code: 'base' }] })
    await refused(assert, { prune: true, resourceRoles: [{ code: 'top', childRoles: ['base'] }] }, [
      ['$.resourceRoles[0].childRoles[0]', /unknown role 'base'/],
    ])
  })
})
