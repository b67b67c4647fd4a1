/**
 * The `users` section of the definition document: users created with hashed passwords (never in
 * clear), password hashes imported as is, role assignments, the anonymous user's roles,
 * idempotence, export round trip, invalid documents that change nothing, no prune of users.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'
import { cleartextIn, issue, securityVersion, tick, verify } from '#tests/helpers/accounts'
import { createClient } from '#oauth/clients'
import { findUser } from '#oauth/accounts'
import { definitions } from '#definition/main'

const PASSWORD = 'alice-secret-password'
const alice = {
  username: 'alice',
  password: PASSWORD,
  firstName: 'Alice',
  lastName: 'Smith',
  email: 'alice@example.com',
  locale: 'en',
  timeZone: 'Europe/Berlin',
  active: true,
  resourceRoles: ['shop-clerk', 'rest-minimal'],
  rowLevelRoles: ['own'],
}
const roles = { resourceRoles: [{ code: 'shop-clerk' }], rowLevelRoles: [{ code: 'own' }] }

async function applied(doc: Record<string, unknown>) {
  const result = await importDoc(doc)
  if (result.status !== 'applied') throw new Error(`expected applied: ${JSON.stringify(result)}`)
  return result
}

const assigned = async (table: string) =>
  (await db.from(table).orderBy('role_code')).map((r) => r.role_code as string)

test.group('definition: users', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('a user is created with a scrypt hash, its profile and its roles', async ({ assert }) => {
    const result = await applied({ ...roles, users: [alice] })
    assert.include(result.changes, 'user alice: created')
    const user = (await findUser('alice'))!
    assert.match(user.password!, /^\$scrypt\$/)
    assert.isTrue(await hash.use('scrypt').verify(user.password!, PASSWORD))
    assert.deepEqual(
      [user.firstName, user.email, user.timeZone, user.active],
      ['Alice', 'alice@example.com', 'Europe/Berlin', true]
    )
    assert.deepEqual(await assigned('mg_user_resource_roles'), ['rest-minimal', 'shop-clerk'])
    assert.deepEqual(await assigned('mg_user_row_level_roles'), ['own'])
    assert.deepEqual(
      await cleartextIn(['users', 'mg_settings', 'mg_schema_changelog'], PASSWORD),
      []
    )
  })

  test('re-import with the same password changes nothing', async ({ assert }) => {
    await applied({ ...roles, users: [alice] })
    const before = await snapshotState()
    const again = await importDoc({ ...roles, users: [alice] })
    assert.equal(again.status, 'unchanged', JSON.stringify(again.changes))
    assert.equal(await snapshotState(), before)
  })

  test('export has password hashes, never passwords; the round trip is a no-op', async ({
    assert,
  }) => {
    await applied({
      ...roles,
      users: [alice, { username: 'anonymous', resourceRoles: ['shop-clerk'] }],
    })
    const e = await engine()
    const exported = await definitions(e).exportDocument()
    const users = exported.users as any[]
    assert.deepEqual(
      users.map((u) => u.username),
      ['alice', 'anonymous']
    )
    assert.notProperty(users[0], 'password')
    assert.match(users[0].passwordHash, /^\$scrypt\$/)
    assert.notInclude(JSON.stringify(exported), PASSWORD)
    assert.deepEqual(users[1], {
      username: 'anonymous',
      resourceRoles: ['shop-clerk'],
      rowLevelRoles: [],
    })
    const before = await snapshotState()
    const result = await definitions(e).importDocument(JSON.parse(JSON.stringify(exported)))
    assert.equal(result.status, 'unchanged', JSON.stringify(result.changes))
    assert.equal(await snapshotState(), before)

    // Into an empty database: the same hash, so the same password signs in.
    await resetDatabase()
    assert.equal((await importDoc(exported)).status, 'applied')
    const user = (await findUser('alice'))!
    assert.equal(user.password, users[0].passwordHash)
    assert.isTrue(await hash.use('scrypt').verify(user.password!, PASSWORD))
    assert.isNull((await findUser('anonymous'))!.password)
  })

  test('an existing user keeps its password when the entry has none; omitted fields stay', async ({
    assert,
  }) => {
    await applied({ ...roles, users: [alice] })
    const hashBefore = (await findUser('alice'))!.password
    const result = await applied({
      users: [{ username: 'alice', lastName: 'Jones', rowLevelRoles: [] }],
    })
    assert.deepEqual(result.changes, ['user alice: changed lastName, rowLevelRoles'])
    const user = (await findUser('alice'))!
    assert.equal(user.password, hashBefore)
    assert.deepEqual([user.firstName, user.lastName], ['Alice', 'Jones'])
    assert.deepEqual(await assigned('mg_user_resource_roles'), ['rest-minimal', 'shop-clerk'])
    assert.deepEqual(await assigned('mg_user_row_level_roles'), [])
  })

  test('a new password or a deactivation stops the tokens issued before', async ({ assert }) => {
    await applied({ users: [{ username: 'bob', password: 'bob-password-1' }] })
    const { client } = await createClient({ clientId: 'app' })
    const token = await issue(client, (await findUser('bob'))!)
    const version = await securityVersion()
    await tick()
    const result = await applied({ users: [{ username: 'bob', password: 'bob-password-2' }] })
    assert.deepEqual(result.changes, ['user bob: changed password'])
    assert.property(await verify(token), 'error')
    assert.isAbove(await securityVersion(), version)
    const second = await issue(client, (await findUser('bob'))!)
    await tick()
    await applied({ users: [{ username: 'bob', active: false }] })
    assert.property(await verify(second), 'error')
  })

  test('invalid users are reported with their JSON paths and change nothing', async ({
    assert,
  }) => {
    await applied({ ...roles, users: [alice] })
    const before = await snapshotState()
    const result = await importDoc({
      users: [
        { username: 'carol' },
        { username: 'dave', password: 'short' },
        { username: 'erin', password: 'erin-password-1', passwordHash: 'x' },
        { username: 'alice', email: 'not-mail', resourceRoles: ['nope'], rowLevelRoles: ['gone'] },
        { username: 'alice' },
        { username: 'anonymous', password: 'anonymous-pass' },
        { username: 'frank', passwordHash: 'plain' },
        { username: 'bad name!', password: 'long-enough-1' },
        { username: 'gina', password: 'gina-password-1', role: 'x' },
      ],
    })
    assert.equal(result.status, 'invalid')
    const expected: [string, RegExp][] = [
      ['$.users[0]', /needs a password or a passwordHash/],
      ['$.users[1].password', /at least 8/],
      ['$.users[2].password', /not both/],
      ['$.users[3].email', /not an e-mail/],
      ['$.users[3].resourceRoles[0]', /unknown role 'nope'/],
      ['$.users[3].rowLevelRoles[0]', /unknown role 'gone'/],
      ['$.users[4].username', /duplicate user 'alice'/],
      ['$.users[5].password', /only takes resourceRoles/],
      ['$.users[6].passwordHash', /scrypt hash/],
      ['$.users[7].username', /letters, digits/],
      ['$.users[8].role', /unknown property/],
    ]
    for (const [path, message] of expected)
      assert.isTrue(
        result.problems.some((p) => p.path === path && message.test(p.message)),
        `no problem ${path} ${message}: ${JSON.stringify(result.problems)}`
      )
    assert.equal(await snapshotState(), before)
  })

  test('prune leaves users not named alone (users are not pruned)', async ({ assert }) => {
    await applied({ ...roles, users: [alice, { username: 'bob', password: 'bob-password-1' }] })
    await applied({ prune: true, ...roles, users: [{ username: 'bob', firstName: 'Bob' }] })
    assert.isNotNull(await findUser('alice'))
    assert.deepEqual(await assigned('mg_user_resource_roles'), ['rest-minimal', 'shop-clerk'])
  })
})
