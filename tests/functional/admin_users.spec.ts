/**
 * Admin API, users one at a time: search, show, create (password given or generated and shown
 * once), change, deactivate/activate, set or generate a password (tokens stop), assign roles;
 * validation paths into the body, 404, 409, 412, who may call, nothing changed on any refusal,
 * one audit entry per change, never a password or its hash in an answer.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
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

const ALICE = {
  username: 'alice',
  password: 'Alice-passw0rd',
  firstName: 'Alice',
  lastName: 'Liddell',
  email: 'alice@wonder.land',
  locale: 'en',
  timeZone: 'Europe/London',
  resourceRoles: ['rest-minimal'],
}

const auditCount = async () => Number((await db.from('mg_audit').count('* as n'))[0].n)
const lastElements = async () => {
  const entry = await db.from('mg_audit').orderBy('id', 'desc').first()
  const rows = await db.from('mg_audit_elements').where('audit_id', entry.id)
  return { entry, elements: rows.map((e) => `${e.section}:${e.element}`) }
}
const userRow = (username: string) => db.from('users').where('username', username).first()
const roleCodes = async (table: string, username: string) =>
  (
    await db
      .from(table)
      .join('users', 'users.id', `${table}.user_id`)
      .where('users.username', username)
      .orderBy('role_code')
  ).map((r) => r.role_code)
const verifies = async (username: string, password: string) =>
  hash.use('scrypt').verify((await userRow(username)).password, password)
async function tokenOf(username: string) {
  const user = await User.findByOrFail('username', username)
  return (await accessToken(await makeClient({ resourceRoles: [] }), user)).token
}
const userInfo = (token: string) => sendJson(token, 'GET', '/rest/userInfo')
const create = (body: Record<string, unknown> = ALICE) => admin('admin', 'POST', 'users', body)

test.group('admin API: users', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('401 anonymous, 403 plain user and full-access client on every endpoint', async ({
    assert,
  }) => {
    await create()
    const before = await adminState()
    const calls: [string, string, unknown?][] = [
      ['GET', 'users'],
      ['GET', 'users/alice'],
      ['POST', 'users', { ...ALICE, username: 'bob' }],
      ['PATCH', 'users/alice', { firstName: 'A' }],
      ['POST', 'users/alice/deactivate'],
      ['POST', 'users/alice/activate'],
      ['POST', 'users/alice/password', {}],
      ['PUT', 'users/alice/roles', { resourceRoles: [] }],
    ]
    await assertOutsidersRefused(assert, calls)
    assert.equal(await adminState(), before)
    assert.equal((await admin('adminClient', 'GET', 'users/alice')).status, 200)
  })

  test('search by username, names and e-mail, paged, never a password hash', async ({ assert }) => {
    await create()
    await create({ username: 'bob', password: 'Bob-passw0rd', lastName: 'Alison' })
    await create({ username: 'carol', password: 'Carol-passw0rd', email: 'c@al.example' })
    await create({ username: 'dave', password: 'Dave-passw0rd', firstName: '100%_' })
    const all = await admin('admin', 'GET', 'users')
    assert.equal(all.status, 200)
    assert.equal(all.body.total, 7)
    assert.deepEqual(
      all.body.users.map((u: any) => u.username),
      ['alice', 'anonymous', 'bob', 'carol', 'dave', 'plain', 'root']
    )
    assert.notMatch(all.text, /scrypt|passw0rd|"password/i)
    const alice = all.body.users[0]
    assert.deepInclude(alice, {
      firstName: 'Alice',
      email: 'alice@wonder.land',
      locale: 'en',
      timeZone: 'Europe/London',
      active: true,
      resourceRoles: ['rest-minimal'],
      rowLevelRoles: [],
      builtIn: false,
    })
    const anonymous = all.body.users[1]
    assert.isTrue(anonymous.builtIn)
    assert.match(anonymous.explanation, /anonymous URL pattern/)

    const search = async (qs: string) =>
      (await admin('admin', 'GET', `users?${qs}`)).body.users.map((u: any) => u.username)
    assert.deepEqual(await search('q=ALI'), ['alice', 'bob'])
    assert.deepEqual(await search('q=al'), ['alice', 'bob', 'carol'])
    assert.deepEqual(await search('q=' + encodeURIComponent('%_')), ['dave'])
    assert.deepEqual(await search('q=wonder'), ['alice'])
    // alice, anonymous, bob (Alison), carol, dave, plain
    const page = await admin('admin', 'GET', 'users?q=a&offset=2&limit=2')
    assert.equal(page.body.total, 6)
    assert.deepEqual(
      page.body.users.map((u: any) => u.username),
      ['bob', 'carol']
    )
    for (const qs of ['limit=0', 'limit=501', 'offset=-1', 'offset=x'])
      assert.equal((await admin('admin', 'GET', `users?${qs}`)).status, 400, qs)

    const one = await admin('admin', 'GET', 'users/alice')
    assert.deepEqual(one.body, alice)
    const missing = await admin('admin', 'GET', 'users/nobody')
    assert.equal(missing.status, 404)
    assert.equal(missing.body.error, 'Not found')
  })

  test('create with a password: 201, a scrypt hash, roles rows, one audit entry', async ({
    assert,
  }) => {
    const before = await adminState()
    const dry = await admin('admin', 'POST', 'users?dryRun=true', ALICE)
    assert.equal(dry.status, 200, dry.text)
    assert.equal(dry.body.status, 'dry-run')
    assert.equal(await adminState(), before)

    const audits = await auditCount()
    const v = versionOf(dry)
    const created = await admin('admin', 'POST', 'users', ALICE, { 'If-Match': `"${v}"` })
    assert.equal(created.status, 201, created.text)
    assert.equal(created.headers.get('location'), '/admin/api/users/alice')
    assert.equal(created.body.user.username, 'alice')
    assert.notProperty(created.body, 'password')
    assert.notMatch(created.text, /scrypt|Alice-passw0rd/)
    const row = await userRow('alice')
    assert.match(row.password, /^\$scrypt\$/)
    assert.isTrue(await verifies('alice', ALICE.password))
    assert.equal(row.email, ALICE.email)
    assert.deepEqual(await roleCodes('mg_user_resource_roles', 'alice'), ['rest-minimal'])
    assert.equal(await auditCount(), audits + 1)
    const audit = await lastElements()
    assert.deepEqual(audit.elements, ['users:alice'])
    assert.notInclude(audit.entry.diff, row.password)
    assert.equal((await userInfo(await tokenOf('alice'))).status, 200)
  })

  test('create with generatePassword: shown once in the 201 body, stored as a hash only', async ({
    assert,
  }) => {
    const bob: Record<string, unknown> = { ...ALICE, username: 'bob' }
    delete bob.password
    const dry = await admin('admin', 'POST', 'users?dryRun=true', {
      ...bob,
      generatePassword: true,
    })
    assert.notProperty(dry.body, 'password')
    const created = await admin('admin', 'POST', 'users', { ...bob, generatePassword: true })
    assert.equal(created.status, 201, created.text)
    const password = created.body.password
    assert.match(password, /^[\w-]{24}$/)
    assert.isTrue(await verifies('bob', password))
    assert.notInclude(JSON.stringify(await db.from('users')), password)
    assert.notInclude(JSON.stringify(await db.from('mg_audit')), password)
    assert.notProperty((await admin('admin', 'GET', 'users/bob')).body, 'password')
  })

  test('create refused: 409 for an existing user, 422 with paths into the body', async ({
    assert,
  }) => {
    await create()
    const before = await adminState()
    for (const username of ['alice', 'anonymous', 'root']) {
      const reply = await create({ ...ALICE, username })
      assert.equal(reply.status, 409, username)
      assert.equal(reply.body.error, 'Conflict')
    }
    const cases: [unknown, string[]][] = [
      [{ username: 'bob' }, ['$']],
      [{ username: 'bob', password: 'short' }, ['$.password']],
      [
        { username: 'bob', generatePassword: true, password: 'Bob-passw0rd' },
        ['$.generatePassword'],
      ],
      [{ username: 'bob', generatePassword: 'yes' }, ['$.generatePassword']],
      [{ password: 'Bob-passw0rd' }, ['$.username']],
      [{ username: 'b b', password: 'Bob-passw0rd' }, ['$.username']],
      [
        {
          username: 'bob',
          password: 'Bob-passw0rd',
          email: 'nope',
          locale: '1',
          timeZone: 'Mars/Base',
          colour: 'red',
          resourceRoles: ['rest-minimal', 'ghost'],
          rowLevelRoles: ['ghost'],
        },
        [
          '$.email',
          '$.locale',
          '$.timeZone',
          '$.colour',
          '$.resourceRoles[1]',
          '$.rowLevelRoles[0]',
        ],
      ],
      [['bob'], ['$']],
    ]
    for (const [body, paths] of cases) {
      const reply = await admin('admin', 'POST', 'users', body)
      assert.equal(reply.status, 422, JSON.stringify(body) + reply.text)
      assert.includeMembers(
        reply.body.problems.map((p: any) => p.path),
        paths
      )
    }
    assert.equal(await adminState(), before)
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
