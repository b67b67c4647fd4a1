/**
 * Admin API, resource roles and row-level roles one at a time: list (with the built-in roles),
 * show, create, replace, delete (assignments go with the role), copy; validation paths into the
 * request body, 404, 409, 412, who may call, nothing changed on any refusal, one audit entry per
 * change, and a role made over the API governing a real /rest read at once.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { resetDatabase } from '#tests/helpers/database'
import {
  admin,
  adminState,
  setupAdminActors,
  versionOf,
  assertOutsidersRefused,
} from '#tests/helpers/admin'
import { accessToken, makeClient, sendJson } from '#tests/helpers/resource_server'

const NOTE = {
  name: 'adm_Note',
  attributes: [
    { name: 'title', type: 'string', length: 80, mandatory: true },
    { name: 'body', type: 'text' },
  ],
}
const READER = {
  code: 'note-reader',
  name: 'Note reader',
  childRoles: ['rest-minimal'],
  entityPolicies: [{ entity: 'adm_Note', actions: ['read'] }],
  attributePolicies: [{ entity: 'adm_Note', attributes: ['*'], action: 'VIEW' }],
}
const OWN = {
  code: 'titled',
  policies: [
    {
      entity: 'adm_Note',
      type: 'filter',
      actions: ['read'],
      filter: { conditions: [{ property: 'title', operator: '=', value: 'mine' }] },
    },
  ],
}

async function withNote() {
  const r = await admin('admin', 'POST', 'definition/apply', { formatVersion: 1, entities: [NOTE] })
  if (r.status !== 200) throw new Error(r.text)
}
const auditCount = async () => Number((await db.from('mg_audit').count('* as n'))[0].n)
const lastAudit = async () => {
  const entry = await db.from('mg_audit').orderBy('id', 'desc').first()
  const elements = await db.from('mg_audit_elements').where('audit_id', entry.id)
  return { entry, elements: elements.map((e) => `${e.section}:${e.element}`) }
}
const roleRow = (table: string, code: string) => db.from(table).where('code', code).first()
const assigned = (table: string, code: string) =>
  db.from(table).where('role_code', code).select('user_id')
async function userWithRoles(username: string, resource: string[], rowLevel: string[] = []) {
  const user = await User.create({ username, password: 'S3cret-passw0rd', active: true })
  for (const code of resource)
    await db.table('mg_user_resource_roles').insert({ user_id: user.id, role_code: code })
  for (const code of rowLevel)
    await db.table('mg_user_row_level_roles').insert({ user_id: user.id, role_code: code })
  return user
}

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

  test('replace: what the body leaves out takes its default; 404, 403 built-in, 422, 412', async ({
    assert,
  }) => {
    await admin('admin', 'POST', 'resource-roles', READER)
    const v = versionOf(await admin('admin', 'GET', 'resource-roles/note-reader'))
    const before = await adminState()
    const refused: [string, string, unknown, number, Record<string, string>?][] = [
      ['PUT', 'resource-roles/nope', READER, 404],
      ['PUT', 'resource-roles/system-full-access', READER, 403],
      ['PUT', 'resource-roles/note-reader', { ...READER, code: 'other' }, 422],
      ['PUT', 'resource-roles/note-reader', { entityPolicies: [{ entity: 'x' }] }, 422],
      ['PUT', 'resource-roles/note-reader', { name: 'late' }, 412, { 'If-Match': `"${v - 1}"` }],
      ['PUT', 'row-level-roles/nope', OWN, 404],
    ]
    for (const [method, path, body, status, headers] of refused) {
      const reply = await admin('admin', method, path, body, headers)
      assert.equal(reply.status, status, `${path} ${reply.text}`)
    }
    const bad = await admin('admin', 'PUT', 'resource-roles/note-reader', {
      entityPolicies: [{ entity: 'x' }],
    })
    assert.includeMembers(
      bad.body.problems.map((p: any) => p.path),
      ['$.entityPolicies[0].actions']
    )
    assert.equal(await adminState(), before)

    const audits = await auditCount()
    const put = await admin(
      'admin',
      'PUT',
      'resource-roles/note-reader',
      { name: 'Renamed', specificPolicies: ['rest.enabled'] },
      { 'If-Match': `"${v}"` }
    )
    assert.equal(put.status, 200, put.text)
    assert.equal(put.body.status, 'applied')
    assert.deepEqual(put.body.role.entityPolicies, [])
    const row = await roleRow('mg_resource_roles', 'note-reader')
    assert.equal(row.name, 'Renamed')
    assert.deepEqual(JSON.parse(row.child_roles), [])
    assert.lengthOf(await db.from('mg_resource_entity_policies').where('role_id', row.id), 0)
    assert.equal(await auditCount(), audits + 1)
    assert.deepEqual((await lastAudit()).elements, ['resourceRoles:note-reader'])
    // A shown role (builtIn, users) may be sent back as it is.
    const shown = await admin('admin', 'GET', 'resource-roles/note-reader')
    const same = await admin('admin', 'PUT', 'resource-roles/note-reader', shown.body)
    assert.equal(same.status, 200, same.text)
    assert.equal(same.body.status, 'unchanged')
    assert.equal(await auditCount(), audits + 1)
  })

  test('delete: the role and its assignments go, nothing else; 404, 403, 409 child role, 412', async ({
    assert,
  }) => {
    await admin('admin', 'POST', 'resource-roles', READER)
    await admin('admin', 'POST', 'resource-roles', { code: 'keeper' })
    await admin('admin', 'POST', 'resource-roles', { code: 'parent', childRoles: ['keeper'] })
    await admin('admin', 'POST', 'row-level-roles', OWN)
    await admin('admin', 'POST', 'row-level-roles', { ...OWN, code: 'other' })
    const reader = await userWithRoles('reader', ['note-reader', 'keeper'], ['titled', 'other'])
    const v = versionOf(await admin('admin', 'GET', 'resource-roles'))
    const before = await adminState()
    const refused: [string, number, Record<string, string>?][] = [
      ['resource-roles/nope', 404],
      ['resource-roles/system-admin', 403],
      ['resource-roles/keeper', 409],
      ['resource-roles/note-reader', 412, { 'If-Match': `"${v - 1}"` }],
      ['row-level-roles/nope', 404],
    ]
    for (const [path, status, headers] of refused) {
      const reply = await admin('admin', 'DELETE', path, undefined, headers)
      assert.equal(reply.status, status, `${path} ${reply.text}`)
    }
    assert.equal(await adminState(), before)
    const dry = await admin('admin', 'DELETE', 'resource-roles/note-reader?dryRun=true')
    assert.deepEqual(dry.body.changes, ['resource role note-reader: deleted (prune)'])
    assert.equal(await adminState(), before)

    const audits = await auditCount()
    const gone = await admin('admin', 'DELETE', 'resource-roles/note-reader', undefined, {
      'If-Match': `"${v}"`,
    })
    assert.equal(gone.status, 200, gone.text)
    assert.deepEqual(gone.body.unassignedFrom, ['reader'])
    assert.isNull(await roleRow('mg_resource_roles', 'note-reader'))
    assert.lengthOf(await assigned('mg_user_resource_roles', 'note-reader'), 0)
    assert.deepEqual(await assigned('mg_user_resource_roles', 'keeper'), [{ user_id: reader.id }])
    assert.isNotNull(await roleRow('mg_resource_roles', 'parent'))
    assert.isNotNull(await roleRow('mg_row_level_roles', 'titled'))
    assert.equal(await auditCount(), audits + 1)
    assert.deepEqual((await lastAudit()).elements, ['resourceRoles:note-reader'])

    const rl = await admin('admin', 'DELETE', 'row-level-roles/titled')
    assert.equal(rl.status, 200, rl.text)
    assert.isNull(await roleRow('mg_row_level_roles', 'titled'))
    assert.lengthOf(await assigned('mg_user_row_level_roles', 'titled'), 0)
    assert.deepEqual(await assigned('mg_user_row_level_roles', 'other'), [{ user_id: reader.id }])
    assert.deepEqual(
      (await admin('admin', 'GET', 'resource-roles')).body.roles
        .filter((r: any) => !r.builtIn)
        .map((r: any) => r.code),
      ['keeper', 'parent']
    )
  })

  test('copy under a new code, from a stored or a built-in role; 404, 409, 422', async ({
    assert,
  }) => {
    await admin('admin', 'POST', 'resource-roles', READER)
    await admin('admin', 'POST', 'row-level-roles', OWN)
    const before = await adminState()
    const refused: [string, unknown, number, string?][] = [
      ['resource-roles/nope/copy', { code: 'x' }, 404],
      ['resource-roles/note-reader/copy', { code: 'system-admin' }, 409],
      ['resource-roles/note-reader/copy', { code: 'note-reader' }, 409],
      ['resource-roles/note-reader/copy', {}, 422, '$.code'],
      ['resource-roles/note-reader/copy', { code: 'x', colour: 1 }, 422, '$.colour'],
      ['resource-roles/note-reader/copy', { code: 'x', name: 3 }, 422, '$.name'],
      ['row-level-roles/titled/copy', { code: 'titled' }, 409],
    ]
    for (const [path, body, status, problem] of refused) {
      const reply = await admin('admin', 'POST', path, body)
      assert.equal(reply.status, status, `${path} ${reply.text}`)
      if (problem) assert.equal(reply.body.problems[0].path, problem)
    }
    assert.equal(await adminState(), before)

    const copy = await admin('admin', 'POST', 'resource-roles/note-reader/copy', { code: 'twin' })
    assert.equal(copy.status, 201, copy.text)
    assert.equal(copy.body.role.name, 'Note reader (copy)')
    for (const key of ['childRoles', 'entityPolicies', 'attributePolicies'] as const)
      assert.deepEqual(copy.body.role[key], READER[key], key)
    assert.isNotNull(await roleRow('mg_resource_roles', 'twin'))
    assert.deepEqual((await lastAudit()).elements, ['resourceRoles:twin'])

    const admins = await admin('admin', 'POST', 'resource-roles/system-admin/copy', {
      code: 'ops',
      name: 'Operators',
    })
    assert.equal(admins.status, 201, admins.text)
    const ops = await admin('admin', 'GET', 'resource-roles/ops')
    assert.isFalse(ops.body.builtIn)
    assert.equal(ops.body.name, 'Operators')
    assert.deepEqual(ops.body.specificPolicies, ['admin.api'])

    const rl = await admin('admin', 'POST', 'row-level-roles/titled/copy', { code: 'titled2' })
    assert.equal(rl.status, 201, rl.text)
    assert.deepEqual(rl.body.role.policies, OWN.policies)
  })

  test('a role made over the API governs /rest at once: assigned, read, deleted, refused', async ({
    assert,
  }) => {
    await db.table('adm_note').multiInsert([
      { id: '00000000-0000-4000-8000-000000000001', title: 'mine' },
      { id: '00000000-0000-4000-8000-000000000002', title: 'theirs' },
    ])
    assert.equal((await admin('admin', 'POST', 'resource-roles', READER)).status, 201)
    assert.equal((await admin('admin', 'POST', 'row-level-roles', OWN)).status, 201)
    const user = await User.create({ username: 'reader', password: 'S3cret-passw0rd' })
    const token = (await accessToken(await makeClient({ resourceRoles: [] }), user)).token
    const read = () => sendJson(token, 'GET', '/rest/entities/adm_Note')
    assert.equal((await read()).status, 403)

    const assign = await admin('admin', 'PUT', 'users/reader/roles', {
      resourceRoles: ['note-reader'],
      rowLevelRoles: ['titled'],
    })
    assert.equal(assign.status, 200, assign.text)
    const rows = await read()
    assert.equal(rows.status, 200, rows.text)
    assert.deepEqual(
      rows.body.map((r: any) => r.title),
      ['mine']
    )

    assert.equal((await admin('admin', 'DELETE', 'row-level-roles/titled')).status, 200)
    assert.sameMembers(
      (await read()).body.map((r: any) => r.title),
      ['mine', 'theirs']
    )
    assert.equal((await admin('admin', 'DELETE', 'resource-roles/note-reader')).status, 200)
    const refused = await read()
    assert.equal(refused.status, 403)
    assert.lengthOf(await db.from('mg_user_resource_roles').where('user_id', user.id), 0)
  })
})
