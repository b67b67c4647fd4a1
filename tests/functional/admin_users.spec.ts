/**
 * Admin API, users: who may call (401/403), search (by username, names and e-mail, paged) and
 * show, create (password given or generated and shown once) and create refused (409, 422 with
 * paths into the body) with nothing changed; one audit entry per change, never a password or its
 * hash in an answer. Change, deactivate/activate, password and roles: admin_users_changes.spec.ts.
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
})
