/**
 * Admin API, changing resource roles and row-level roles one at a time: replace (what the body
 * leaves out takes its default), delete (assignments go with the role), copy under a new code;
 * 404, 403 built-in, 409, 412, 422, nothing changed on any refusal, one audit entry per change,
 * and a role made over the API governing a real /rest read at once. Access, list, show and
 * create: admin_roles.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors, versionOf } from '#tests/helpers/admin'
import { accessToken, makeClient, sendJson } from '#tests/helpers/resource_server'
import {
  OWN,
  READER,
  assigned,
  auditCount,
  lastAudit,
  roleRow,
  userWithRoles,
  withNote,
} from './admin_roles_fixtures.js'

test.group('admin API: roles, replace, delete and copy', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await withNote()
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
