/**
 * Admin API, resource roles and row-level roles: who may call (401/403), list (with the built-in
 * roles) and show, create (dry run, 201 with Location, stored rows, one audit entry), and create
 * refused (409, 422 with paths into the request body) with nothing changed. Replace, delete,
 * copy and a role governing /rest: admin_roles_changes.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  admin,
  adminState,
  setupAdminActors,
  versionOf,
  assertOutsidersRefused,
} from '#tests/helpers/admin'
import {
  OWN,
  READER,
  auditCount,
  lastAudit,
  roleRow,
  userWithRoles,
  withNote,
} from './admin_roles_fixtures.js'

test.group('admin API: roles', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await withNote()
  })

  test('401 anonymous, 403 plain user and full-access client on every endpoint', async ({
    assert,
  }) => {
    await admin('admin', 'POST', 'resource-roles', READER)
    const before = await adminState()
    const calls: [string, string, unknown?][] = []
    for (const path of ['resource-roles', 'row-level-roles'])
      calls.push(
        ['GET', path],
        ['GET', `${path}/note-reader`],
        ['POST', path, { code: 'x' }],
        ['PUT', `${path}/note-reader`, { code: 'note-reader' }],
        ['DELETE', `${path}/note-reader`],
        ['POST', `${path}/note-reader/copy`, { code: 'y' }]
      )
    await assertOutsidersRefused(assert, calls)
    assert.equal(await adminState(), before)
    assert.equal((await admin('adminClient', 'GET', 'resource-roles')).status, 200)
  })

  test('list and show: built-in roles flagged and read-only, stored roles with their users', async ({
    assert,
  }) => {
    await admin('admin', 'POST', 'resource-roles', READER)
    await userWithRoles('reader', ['note-reader'])
    const list = await admin('admin', 'GET', 'resource-roles')
    assert.equal(list.status, 200)
    assert.equal(versionOf(list), versionOf(await admin('admin', 'GET', 'definition')))
    const byCode = new Map(list.body.roles.map((r: any) => [r.code, r]))
    for (const code of ['system-full-access', 'system-admin', 'rest-minimal', 'anonymous'])
      assert.isTrue((byCode.get(code) as any)?.builtIn, code)
    assert.deepEqual((byCode.get('system-admin') as any).specificPolicies, ['admin.api'])
    assert.isFalse((byCode.get('note-reader') as any).builtIn)
    assert.deepEqual((byCode.get('note-reader') as any).entityPolicies, READER.entityPolicies)

    const one = await admin('admin', 'GET', 'resource-roles/note-reader')
    assert.equal(one.status, 200)
    assert.equal(one.body.name, 'Note reader')
    assert.deepEqual(one.body.users, ['reader'])
    const builtIn = await admin('admin', 'GET', 'resource-roles/rest-minimal')
    assert.isTrue(builtIn.body.builtIn)
    assert.deepEqual(builtIn.body.users, ['plain'])
    const missing = await admin('admin', 'GET', 'resource-roles/nope')
    assert.equal(missing.status, 404)
    assert.equal(missing.body.error, 'Not found')
    assert.deepEqual((await admin('admin', 'GET', 'row-level-roles')).body.roles, [])
    assert.equal((await admin('admin', 'GET', 'row-level-roles/nope')).status, 404)
  })

  test('create: 201 with Location, stored rows and one audit entry; dry run changes nothing', async ({
    assert,
  }) => {
    const before = await adminState()
    const dry = await admin('admin', 'POST', 'resource-roles?dryRun=true', READER)
    assert.equal(dry.status, 200, dry.text)
    assert.equal(dry.body.status, 'dry-run')
    assert.include(dry.body.changes, 'resource role note-reader: created')
    assert.equal(await adminState(), before)

    const v0 = versionOf(dry)
    const audits = await auditCount()
    const created = await admin('admin', 'POST', 'resource-roles', READER, {
      'If-Match': `"${v0}"`,
    })
    assert.equal(created.status, 201, created.text)
    assert.equal(created.headers.get('location'), '/admin/api/resource-roles/note-reader')
    assert.equal(created.body.status, 'applied')
    assert.equal(created.body.role.code, 'note-reader')
    assert.deepEqual(created.body.role.scopes, ['API', 'UI'])
    assert.equal(versionOf(created), v0 + 1)
    const row = await roleRow('mg_resource_roles', 'note-reader')
    assert.equal(row.name, 'Note reader')
    const policies = await db.from('mg_resource_entity_policies').where('role_id', row.id)
    assert.deepEqual(
      policies.map((p) => [p.entity, JSON.parse(p.actions)]),
      [['adm_Note', ['read']]]
    )
    assert.equal(await auditCount(), audits + 1)
    const audit = await lastAudit()
    assert.equal(audit.entry.author, 'root')
    assert.deepEqual(audit.elements, ['resourceRoles:note-reader'])

    const rl = await admin('admin', 'POST', 'row-level-roles', OWN)
    assert.equal(rl.status, 201, rl.text)
    assert.equal(rl.headers.get('location'), '/admin/api/row-level-roles/titled')
    const rlRow = await roleRow('mg_row_level_roles', 'titled')
    const rlPolicies = await db.from('mg_row_level_policies').where('role_id', rlRow.id)
    assert.deepEqual(JSON.parse(rlPolicies[0].filter), OWN.policies[0].filter)
    assert.deepEqual((await lastAudit()).elements, ['rowLevelRoles:titled'])
  })

  test('create refused: 409 for an existing or built-in code, 422 with paths into the body', async ({
    assert,
  }) => {
    await admin('admin', 'POST', 'resource-roles', READER)
    await admin('admin', 'POST', 'row-level-roles', OWN)
    const before = await adminState()
    for (const code of ['note-reader', 'system-admin']) {
      const reply = await admin('admin', 'POST', 'resource-roles', { ...READER, code })
      assert.equal(reply.status, 409, code)
      assert.equal(reply.body.error, 'Conflict')
    }
    assert.equal((await admin('admin', 'POST', 'row-level-roles', OWN)).status, 409)

    const cases: [string, unknown, string[]][] = [
      [
        'resource-roles',
        {
          code: 'bad',
          colour: 'red',
          childRoles: ['ghost'],
          entityPolicies: [{ entity: 'adm_Nope', actions: ['read', 'fly'] }],
          attributePolicies: [{ entity: 'adm_Note', attributes: ['ghost'], action: 'EDIT' }],
          specificPolicies: ['rest.nope'],
        },
        [
          '$.colour',
          '$.childRoles[0]',
          '$.entityPolicies[0].entity',
          '$.entityPolicies[0].actions[1]',
          '$.attributePolicies[0].attributes[0]',
          '$.attributePolicies[0].action',
          '$.specificPolicies[0]',
        ],
      ],
      ['resource-roles', { name: 'no code' }, ['$.code']],
      ['resource-roles', [READER], ['$']],
      [
        'row-level-roles',
        {
          code: 'bad',
          policies: [
            { entity: 'adm_Note', type: 'filter', actions: ['update'], filter: { conditions: [] } },
            {
              entity: 'adm_Note',
              type: 'filter',
              actions: ['read'],
              filter: { conditions: [{ property: 'ghost', operator: '=', value: 1 }] },
            },
            { entity: 'adm_Nope', type: 'sometimes', actions: ['read'], filter: {} },
          ],
        },
        [
          '$.policies[0].actions',
          '$.policies[1].filter',
          '$.policies[2].entity',
          '$.policies[2].type',
        ],
      ],
    ]
    for (const [path, body, paths] of cases) {
      const reply = await admin('admin', 'POST', path, body)
      assert.equal(reply.status, 422, `${path} ${reply.text}`)
      assert.equal(reply.body.error, 'Invalid definition')
      assert.includeMembers(
        reply.body.problems.map((p: any) => p.path),
        paths
      )
    }
    assert.equal(await adminState(), before)
  })
})
