/**
 * Accounts: the built-in users made on first start, `user:create`, password hashing, and that
 * deactivation, deletion and a password change stop the user's tokens at once.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import ace from '@adonisjs/core/services/ace'
import env from '#start/env'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { resetDatabase } from '#tests/helpers/database'
import { engine } from '#tests/helpers/engine'
import { cleartextIn, issue, rowOf, securityVersion, tick, verify } from '#tests/helpers/accounts'
import {
  AccountError,
  changePassword,
  createUser,
  deleteUser,
  ensureBuiltInUsers,
  setUserActive,
} from '#oauth/accounts'
import { createClient } from '#oauth/clients'
import { bootstrapServer } from '#start/bootstrap'
import UserCreate from '#commands/user_create'

const PASSWORD = 'correct-horse-battery'

async function signsIn(username: string, password: string) {
  try {
    await User.verifyCredentials(username, password)
    return true
  } catch (error) {
    if ((error as any).code !== 'E_INVALID_CREDENTIALS') throw error
    return false
  }
}

async function problemPaths(work: () => Promise<unknown>) {
  try {
    await work()
  } catch (error) {
    if (error instanceof AccountError) return error.problems.map((p) => p.path)
    throw error
  }
  throw new Error('expected an AccountError')
}

/** A user with a live token of a client. */
async function userWithToken() {
  const user = await createUser({ username: 'alice', password: PASSWORD })
  const { client } = await createClient({ clientId: 'app' })
  const token = await issue(client, user)
  return { user, token }
}

test.group('accounts', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('first start with MODELGATE_ADMIN_PASSWORD: admin and anonymous', async ({ assert }) => {
    const logs: string[] = []
    const log = (m: string) => logs.push(m)
    const result = await ensureBuiltInUsers({ adminPassword: PASSWORD, log, info: log })
    assert.deepEqual(result, { adminCreated: true, anonymousCreated: true })
    assert.deepEqual(logs, ["created user 'admin' with the password from MODELGATE_ADMIN_PASSWORD"])
    assert.isTrue(await signsIn('admin', PASSWORD))
    assert.notInclude(logs.join('\n'), PASSWORD)
    assert.deepEqual(await cleartextIn(['users'], PASSWORD), [])
    const anonymous = await rowOf('users', 'username', 'anonymous')
    assert.isNull(anonymous.password)

    const again = await ensureBuiltInUsers({ adminPassword: 'other-password', log, info: log })
    assert.deepEqual(again, { adminCreated: false, anonymousCreated: false })
    assert.lengthOf(logs, 1, 'nothing happens on later starts')
    assert.isTrue(await signsIn('admin', PASSWORD), 'an existing admin keeps its password')
  })

  test('first start without it: a generated password, logged once', async ({ assert }) => {
    const logs: string[] = []
    const result = await ensureBuiltInUsers({ log: (m) => logs.push(m) })
    const password = result.generatedAdminPassword!
    assert.isAtLeast(password.length, 24)
    assert.lengthOf(logs, 1)
    assert.include(logs[0], password)
    assert.include(logs[0], 'shown this once')
    assert.isTrue(await signsIn('admin', password))
    assert.deepEqual(await cleartextIn(['users'], password), [])
    await ensureBuiltInUsers({ log: (m) => logs.push(m) })
    assert.lengthOf(logs, 1, 'never printed again')
  })

  test('bootstrapServer creates the built-in users before the demo import', async ({ assert }) => {
    const previous = env.get('MODELGATE_ADMIN_PASSWORD')
    env.set('MODELGATE_ADMIN_PASSWORD', PASSWORD)
    try {
      await bootstrapServer(app, await engine(), { migrate: true, demo: false })
    } finally {
      env.set('MODELGATE_ADMIN_PASSWORD', previous ?? '')
    }
    assert.isTrue(await signsIn('admin', PASSWORD))
    assert.isNotNull(await rowOf('users', 'username', 'anonymous'))
  })

  test('instances starting together create each built-in user once', async ({ assert }) => {
    const start = () => ensureBuiltInUsers({ adminPassword: PASSWORD, log: () => {} })
    const results = await Promise.all([start(), start(), start()])
    assert.equal(results.filter((r) => r.adminCreated).length, 1)
    assert.equal(results.filter((r) => r.anonymousCreated).length, 1)
    assert.lengthOf(await db.from('users'), 2)
  })

  test('a weak MODELGATE_ADMIN_PASSWORD stops the first start', async ({ assert }) => {
    await assert.rejects(
      () => ensureBuiltInUsers({ adminPassword: 'short', log: () => {} }),
      /MODELGATE_ADMIN_PASSWORD must be at least 8 characters/
    )
    assert.isNull(await rowOf('users', 'username', 'admin'))
  })

  test('anonymous can never sign in, whatever its row holds', async ({ assert }) => {
    await ensureBuiltInUsers({ adminPassword: PASSWORD, log: () => {} })
    assert.isFalse(await signsIn('anonymous', 'anything'))
    assert.isFalse(await signsIn('anonymous', ''))
    // Even with a password hash written into its row by hand.
    const admin = await rowOf('users', 'username', 'admin')
    await db.from('users').where('username', 'anonymous').update({ password: admin.password })
    assert.isFalse(await signsIn('anonymous', PASSWORD))
    assert.deepEqual(await problemPaths(() => changePassword('anonymous', PASSWORD)), ['username'])
    assert.deepEqual(await problemPaths(() => deleteUser('anonymous')), ['username'])
    assert.deepEqual(
      await problemPaths(() => createUser({ username: 'anonymous', password: PASSWORD })),
      ['username']
    )
  })

  test('createUser stores every field and a scrypt hash; problems name their field', async ({
    assert,
  }) => {
    const user = await createUser({
      username: 'bob',
      password: PASSWORD,
      firstName: 'Bob',
      lastName: 'Builder',
      email: 'bob@example.com',
      locale: 'de-CH',
      timeZone: 'Europe/Berlin',
      active: false,
    })
    const row = await rowOf('users', 'id', user.id)
    assert.match(row.password, /^\$scrypt\$/)
    assert.deepEqual(
      [row.first_name, row.last_name, row.email, row.locale, row.time_zone],
      ['Bob', 'Builder', 'bob@example.com', 'de-CH', 'Europe/Berlin']
    )
    assert.oneOf(row.active, [false, 0])
    assert.deepEqual(await cleartextIn(['users'], PASSWORD), [])
    assert.deepEqual(
      await problemPaths(() =>
        createUser({
          username: 'bad name',
          password: 'short',
          email: 'nope',
          locale: 'english!',
          timeZone: 'Mars/Base',
          resourceRoles: ['x'],
        })
      ),
      ['username', 'password', 'email', 'locale', 'timeZone', 'resourceRoles']
    )
    assert.deepEqual(
      await problemPaths(() => createUser({ username: 'bob', password: PASSWORD })),
      ['username']
    )
  })

  test('a password change stops tokens at once; the new password works', async ({ assert }) => {
    const { token } = await userWithToken()
    assert.property(await verify(token), 'subject')
    const version = await securityVersion()
    await tick()
    await changePassword('alice', 'a-new-password-123')
    assert.equal(await securityVersion(), version + 1)
    assert.isNotNull((await rowOf('users', 'username', 'alice')).tokens_valid_after)
    assert.deepEqual(await verify(token), {
      error: 'The user of the access token is no longer valid',
    })
    assert.isTrue(await signsIn('alice', 'a-new-password-123'))
    assert.isFalse(await signsIn('alice', PASSWORD))
    assert.deepEqual(await problemPaths(() => changePassword('alice', 'short')), ['password'])
  })

  test('deactivation stops tokens at once; reactivation does not revive them', async ({
    assert,
  }) => {
    const { user, token } = await userWithToken()
    assert.property(await verify(token), 'subject')
    const version = await securityVersion()
    await tick()
    assert.isTrue(await setUserActive('alice', false))
    assert.equal(await securityVersion(), version + 1)
    assert.isNotNull((await rowOf('users', 'username', 'alice')).tokens_valid_after)
    assert.property(await verify(token), 'error')
    assert.isTrue(await setUserActive('alice', true))
    assert.property(await verify(token), 'error')
    const { client } = await createClient({ clientId: 'app2' })
    assert.property(await verify(await issue(client, user)), 'subject')
  })

  test('deleting a user deletes its tokens', async ({ assert }) => {
    const { user, token } = await userWithToken()
    await deleteUser('alice')
    assert.lengthOf(await db.from('oauth_tokens').where('user_id', user.id), 0)
    assert.property(await verify(token), 'error')
    assert.deepEqual(await problemPaths(() => deleteUser('alice')), ['username'])
  })

  test('node ace user:create with flags; a generated password is printed once', async ({
    assert,
  }) => {
    ace.ui.switchMode('raw')
    try {
      const command = await ace.create(UserCreate, [
        'carol',
        `--password=${PASSWORD}`,
        '--first-name=Carol',
        '--email=carol@example.com',
        '--time-zone=UTC',
        '--inactive',
      ])
      await command.exec()
      command.assertSucceeded()
      const carol = await rowOf('users', 'username', 'carol')
      assert.equal(carol.first_name, 'Carol')
      assert.oneOf(carol.active, [false, 0])

      const generated = await ace.create(UserCreate, ['dave'])
      await generated.exec()
      generated.assertSucceeded()
      const printed = generated.logger
        .getLogs()
        .map((l) => l.message.trim())
        .find((m) => /^[\w-]{24}$/.test(m))!
      assert.isTrue(await signsIn('dave', printed))

      const invalid = await ace.create(UserCreate, ['eve', '--password=short', '--time-zone=X/Y'])
      await invalid.exec()
      invalid.assertFailed()
      assert.isNull(await rowOf('users', 'username', 'eve'))

      const withRoles = await ace.create(UserCreate, [
        'frank',
        `--password=${PASSWORD}`,
        '--resource-roles=rest-minimal, system-full-access',
      ])
      await withRoles.exec()
      withRoles.assertSucceeded()
      const frank = await rowOf('users', 'username', 'frank')
      const codes = await db
        .from('mg_user_resource_roles')
        .where('user_id', frank.id)
        .orderBy('role_code')
      assert.deepEqual(
        codes.map((r) => r.role_code),
        ['rest-minimal', 'system-full-access']
      )
      const unknownRole = await ace.create(UserCreate, [
        'gina',
        `--password=${PASSWORD}`,
        '--row-level-roles=no-such-role',
      ])
      await unknownRole.exec()
      unknownRole.assertFailed()
      assert.isNull(await rowOf('users', 'username', 'gina'))
    } finally {
      ace.ui.switchMode('normal')
    }
  })
})
