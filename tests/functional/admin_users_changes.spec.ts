/**
 * Admin API, changing users one at a time: change (fields left out stay, role lists replace),
 * deactivate/activate (tokens stop at once), set or generate a password (shown once; tokens
 * issued before stop), assign roles (the anonymous user too); validation paths into the body,
 * 404, 403, 412, nothing changed on any refusal, one audit entry per change. Access, search,
 * show and create: admin_users.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors, versionOf } from '#tests/helpers/admin'
import {
  ALICE,
  auditCount,
  create,
  lastElements,
  roleCodes,
  tokenOf,
  userInfo,
  userRow,
  verifies,
} from './admin_users_fixtures.js'

test.group('admin API: users, changes', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('change: fields left out stay, role lists replace; 404, 422, 412', async ({ assert }) => {
    await create()
    await admin('admin', 'POST', 'row-level-roles', { code: 'nothing' })
    const v = versionOf(await admin('admin', 'GET', 'users/alice'))
    const before = await adminState()
    const refused: [string, unknown, number, string?, Record<string, string>?][] = [
      ['users/nobody', { firstName: 'X' }, 404],
      ['users/alice', { username: 'alicia' }, 422, '$.username'],
      ['users/alice', { locale: 'not a locale' }, 422, '$.locale'],
      ['users/alice', { resourceRoles: ['ghost'] }, 422, '$.resourceRoles[0]'],
      ['users/alice', { generatePassword: true }, 422, '$.generatePassword'],
      ['users/alice', { active: 'no' }, 422, '$.active'],
      ['users/anonymous', { firstName: 'Anon' }, 422, '$.firstName'],
      ['users/alice', { firstName: 'Late' }, 412, undefined, { 'If-Match': `"${v - 1}"` }],
    ]
    for (const [path, body, status, problem, headers] of refused) {
      const reply = await admin('admin', 'PATCH', path, body, headers)
      assert.equal(reply.status, status, `${path} ${reply.text}`)
      if (problem)
        assert.include(
          reply.body.problems.map((p: any) => p.path),
          problem
        )
    }
    assert.equal(await adminState(), before)

    const audits = await auditCount()
    const patched = await admin(
      'admin',
      'PATCH',
      'users/alice',
      { lastName: null, locale: 'de', rowLevelRoles: ['nothing'] },
      { 'If-Match': `"${v}"` }
    )
    assert.equal(patched.status, 200, patched.text)
    assert.deepInclude(patched.body.user, {
      firstName: 'Alice',
      lastName: null,
      locale: 'de',
      email: ALICE.email,
      resourceRoles: ['rest-minimal'],
      rowLevelRoles: ['nothing'],
    })
    const row = await userRow('alice')
    assert.isNull(row.last_name)
    assert.equal(row.locale, 'de')
    assert.isTrue(await verifies('alice', ALICE.password))
    assert.deepEqual(await roleCodes('mg_user_row_level_roles', 'alice'), ['nothing'])
    assert.equal(await auditCount(), audits + 1)
    assert.deepEqual((await lastElements()).elements, ['users:alice'])
  })

  test('deactivate stops tokens at once, activate does not revive them; 404, 403 anonymous', async ({
    assert,
  }) => {
    await create()
    const token = await tokenOf('alice')
    assert.equal((await userInfo(token)).status, 200)
    const before = await adminState()
    for (const action of ['deactivate', 'activate']) {
      assert.equal((await admin('admin', 'POST', `users/nobody/${action}`)).status, 404)
      const anonymous = await admin('admin', 'POST', `users/anonymous/${action}`)
      assert.equal(anonymous.status, 403)
      assert.equal(anonymous.body.error, 'Forbidden')
    }
    const v = versionOf(await admin('admin', 'GET', 'users'))
    const stale = await admin('admin', 'POST', 'users/alice/deactivate', undefined, {
      'If-Match': `"${v - 1}"`,
    })
    assert.equal(stale.status, 412)
    assert.equal(await adminState(), before)

    const audits = await auditCount()
    const off = await admin('admin', 'POST', 'users/alice/deactivate')
    assert.equal(off.status, 200, off.text)
    assert.isFalse(off.body.user.active)
    assert.isFalse(Boolean((await userRow('alice')).active))
    assert.equal((await userInfo(token)).status, 401)
    assert.equal(await auditCount(), audits + 1)
    const again = await admin('admin', 'POST', 'users/alice/deactivate')
    assert.equal(again.body.status, 'unchanged')
    assert.equal(await auditCount(), audits + 1)

    const on = await admin('admin', 'POST', 'users/alice/activate')
    assert.equal(on.status, 200, on.text)
    assert.isTrue(on.body.user.active)
    assert.isTrue(Boolean((await userRow('alice')).active))
    assert.equal((await userInfo(token)).status, 401)
    assert.equal((await userInfo(await tokenOf('alice'))).status, 200)
    assert.equal(await auditCount(), audits + 2)
  })

  test('password: set or generated (shown once); tokens issued before stop; 404, 403, 422', async ({
    assert,
  }) => {
    await create()
    const before = await adminState()
    const refused: [string, unknown, number, string?][] = [
      ['users/nobody/password', {}, 404],
      ['users/anonymous/password', {}, 403],
      ['users/alice/password', { password: 'short' }, 422, '$.password'],
      ['users/alice/password', { password: 12345678 }, 422, '$.password'],
      ['users/alice/password', { password: 'Long-enough1', extra: 1 }, 422, '$.extra'],
    ]
    for (const [path, body, status, problem] of refused) {
      const reply = await admin('admin', 'POST', path, body)
      assert.equal(reply.status, status, `${path} ${reply.text}`)
      if (problem) assert.equal(reply.body.problems[0].path, problem)
    }
    assert.equal(await adminState(), before)

    let token = await tokenOf('alice')
    const audits = await auditCount()
    const set = await admin('admin', 'POST', 'users/alice/password', { password: 'New-passw0rd' })
    assert.equal(set.status, 200, set.text)
    assert.notProperty(set.body, 'password')
    assert.isTrue(await verifies('alice', 'New-passw0rd'))
    assert.equal((await userInfo(token)).status, 401)
    assert.equal(await auditCount(), audits + 1)
    assert.deepEqual((await lastElements()).elements, ['users:alice'])

    // The same password again still stops the tokens issued since.
    token = await tokenOf('alice')
    const same = await admin('admin', 'POST', 'users/alice/password', { password: 'New-passw0rd' })
    assert.equal(same.body.status, 'applied')
    assert.equal((await userInfo(token)).status, 401)

    token = await tokenOf('alice')
    const generated = await admin('admin', 'POST', 'users/alice/password', {})
    assert.equal(generated.status, 200, generated.text)
    assert.match(generated.body.password, /^[\w-]{24}$/)
    assert.isTrue(await verifies('alice', generated.body.password))
    assert.isFalse(await verifies('alice', 'New-passw0rd'))
    assert.equal((await userInfo(token)).status, 401)
    assert.notInclude(JSON.stringify(await db.from('mg_audit')), generated.body.password)
    assert.equal((await userInfo(await tokenOf('alice'))).status, 200)
  })

  test('roles: replaced as given, the anonymous user too; 404, 422 with path, 412', async ({
    assert,
  }) => {
    await create()
    await admin('admin', 'POST', 'resource-roles', { code: 'clerk' })
    await admin('admin', 'POST', 'row-level-roles', { code: 'own' })
    const v = versionOf(await admin('admin', 'GET', 'users'))
    const before = await adminState()
    const refused: [string, unknown, number, string?, Record<string, string>?][] = [
      ['users/nobody/roles', { resourceRoles: [] }, 404],
      ['users/alice/roles', { resourceRoles: ['clerk', 'ghost'] }, 422, '$.resourceRoles[1]'],
      ['users/alice/roles', { rowLevelRoles: ['clerk'] }, 422, '$.rowLevelRoles[0]'],
      ['users/alice/roles', { resourceRoles: 'clerk' }, 422, '$.resourceRoles'],
      ['users/alice/roles', { firstName: 'X' }, 422, '$.firstName'],
      ['users/alice/roles', { resourceRoles: [] }, 412, undefined, { 'If-Match': `"${v - 1}"` }],
    ]
    for (const [path, body, status, problem, headers] of refused) {
      const reply = await admin('admin', 'PUT', path, body, headers)
      assert.equal(reply.status, status, `${path} ${reply.text}`)
      if (problem)
        assert.include(
          reply.body.problems.map((p: any) => p.path),
          problem
        )
    }
    assert.equal(await adminState(), before)

    const audits = await auditCount()
    const put = await admin('admin', 'PUT', 'users/alice/roles', {
      resourceRoles: ['clerk', 'system-admin'],
      rowLevelRoles: ['own'],
    })
    assert.equal(put.status, 200, put.text)
    assert.deepEqual(put.body.user.resourceRoles, ['clerk', 'system-admin'])
    assert.deepEqual(await roleCodes('mg_user_resource_roles', 'alice'), ['clerk', 'system-admin'])
    assert.deepEqual(await roleCodes('mg_user_row_level_roles', 'alice'), ['own'])
    assert.equal(await auditCount(), audits + 1)
    const only = await admin('admin', 'PUT', 'users/alice/roles', { rowLevelRoles: [] })
    assert.equal(only.status, 200)
    assert.deepEqual(await roleCodes('mg_user_resource_roles', 'alice'), ['clerk', 'system-admin'])
    assert.deepEqual(await roleCodes('mg_user_row_level_roles', 'alice'), [])

    const anonymous = await admin('admin', 'PUT', 'users/anonymous/roles', {
      resourceRoles: ['rest-minimal'],
    })
    assert.equal(anonymous.status, 200, anonymous.text)
    assert.deepEqual(await roleCodes('mg_user_resource_roles', 'anonymous'), ['rest-minimal'])
    assert.isTrue(anonymous.body.user.builtIn)
  })
})
