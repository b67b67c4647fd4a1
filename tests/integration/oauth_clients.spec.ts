/**
 * OAuth clients in the database: registration rules, secrets (generated, shown once, stored as
 * digests), and that deactivation, deletion and a new secret stop issued tokens at once.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import ace from '@adonisjs/core/services/ace'
import ClientCreate from '#commands/client_create'
import { resetDatabase } from '#tests/helpers/database'
import { cleartextIn, issue, rowOf, securityVersion, tick, verify } from '#tests/helpers/accounts'
import {
  ClientRegistrationError,
  createClient,
  deleteClient,
  findClient,
  rotateClientSecret,
  setClientActive,
  updateClient,
  type ClientInput,
} from '#oauth/clients'
import { digest } from '#oauth/secrets'

async function problemsOf(work: Promise<unknown>) {
  try {
    await work
  } catch (error) {
    if (error instanceof ClientRegistrationError) return error.problems
    throw error
  }
  throw new Error('expected a ClientRegistrationError')
}

const paths = (problems: { path: string }[]) => problems.map((p) => p.path)

test.group('oauth clients', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('a confidential client gets a generated secret, stored only as its digest', async ({
    assert,
  }) => {
    const { client, generatedSecret, created } = await createClient({ clientId: 'orders-sync' })
    assert.isTrue(created)
    assert.isString(generatedSecret)
    assert.isAtLeast(generatedSecret!.length, 43, '256 bits, base64url')
    const row = await rowOf('oauth_clients', 'client_id', 'orders-sync')
    assert.equal(row.secret_hash, digest(generatedSecret!))
    assert.deepEqual(await cleartextIn(['oauth_clients'], generatedSecret!), [])
    // Registration defaults.
    assert.deepEqual(client.authenticationMethods, ['client_secret_basic'])
    assert.deepEqual(client.grantTypes, ['client_credentials'])
    assert.isTrue(client.requireProofKey)
    assert.equal(client.accessTokenFormat, 'reference')
    assert.equal(Number(row.access_token_ttl), 300)
    assert.equal(Number(row.refresh_token_ttl), 86400)
    assert.equal(row.managed_by, 'database')
    assert.isNull(row.tokens_valid_after)
  })

  test('every registration property is stored; durations as seconds', async ({ assert }) => {
    const input: ClientInput = {
      clientId: 'web-app',
      clientSecret: 'a-long-enough-client-secret',
      authenticationMethods: ['client_secret_post', 'client_secret_basic'],
      grantTypes: ['authorization_code', 'refresh_token', 'password'],
      redirectUris: ['https://app.example.com/cb', 'http://127.0.0.1:8765/cb'],
      requireProofKey: false,
      accessTokenFormat: 'self-contained',
      accessTokenTimeToLive: '1h',
      refreshTokenTimeToLive: '7d',
      resourceRoles: ['rest-minimal', 'bookstore-clerk'],
      rowLevelRoles: ['own-orders'],
    }
    const { generatedSecret } = await createClient(input)
    assert.isUndefined(generatedSecret)
    const client = (await findClient('web-app'))!
    assert.deepEqual(client.grantTypes, input.grantTypes)
    assert.deepEqual(client.redirectUris, input.redirectUris)
    assert.deepEqual(client.resourceRoles, input.resourceRoles)
    assert.deepEqual(client.rowLevelRoles, ['own-orders'])
    assert.isFalse(client.requireProofKey)
    assert.equal(client.accessTokenFormat, 'self-contained')
    assert.equal(client.accessTokenTtl, 3600)
    assert.equal(client.refreshTokenTtl, 7 * 86400)
    assert.equal(client.secretHash, digest('a-long-enough-client-secret'))
    assert.deepEqual(await cleartextIn(['oauth_clients'], 'a-long-enough-client-secret'), [])
  })

  test('a public client has no secret and always requires PKCE', async ({ assert }) => {
    const { client, generatedSecret } = await createClient({
      clientId: 'spa',
      authenticationMethods: ['none'],
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: ['https://spa.example.com/callback'],
    })
    assert.isUndefined(generatedSecret)
    assert.isNull(client.secretHash)
    assert.isTrue(client.requireProofKey)
    assert.isTrue(client.isPublic)
  })

  test('registration problems name their field', async ({ assert }) => {
    const cases: [Partial<ClientInput>, string[]][] = [
      [{ clientId: 'bad id' }, ['clientId']],
      [{ grantTypes: ['authorization_code'] }, ['redirectUris']],
      [
        {
          grantTypes: ['authorization_code'],
          redirectUris: ['/relative', 'https://a.example/cb#frag', 'javascript:alert(1)'],
        },
        ['redirectUris[0]', 'redirectUris[1]', 'redirectUris[2]'],
      ],
      [{ grantTypes: ['implicit'] }, ['grantTypes[0]']],
      [{ grantTypes: ['refresh_token'] }, ['grantTypes[0]']],
      [{ grantTypes: [] }, ['grantTypes']],
      [
        { authenticationMethods: ['none', 'client_secret_basic'] },
        ['authenticationMethods', 'grantTypes[0]'],
      ],
      [{ authenticationMethods: ['none'] }, ['grantTypes[0]']],
      [
        { authenticationMethods: ['none'], grantTypes: ['password'], clientSecret: 'x'.repeat(20) },
        ['grantTypes[0]', 'clientSecret'],
      ],
      [
        {
          authenticationMethods: ['none'],
          grantTypes: ['authorization_code'],
          redirectUris: ['https://a.example/cb'],
          requireProofKey: false,
        },
        ['requireProofKey'],
      ],
      [
        { accessTokenTimeToLive: '5 minutes', refreshTokenTimeToLive: '0s' },
        ['accessTokenTimeToLive', 'refreshTokenTimeToLive'],
      ],
      [{ accessTokenFormat: 'jwt' }, ['accessTokenFormat']],
      [{ clientSecret: 'short' }, ['clientSecret']],
      [{ clientSecretHash: 'abc' }, ['clientSecretHash']],
      [{ grantTypes: ['client_credentials', 'client_credentials'] }, ['grantTypes[1]']],
    ]
    for (const [input, expected] of cases) {
      const problems = await problemsOf(createClient({ clientId: 'c1', ...input }))
      assert.deepEqual(paths(problems), expected, JSON.stringify(input))
    }
    assert.lengthOf(await db.from('oauth_clients'), 0, 'nothing was written')
  })

  test('the password grant is opt-in only; a client id is registered once', async ({ assert }) => {
    await createClient({ clientId: 'legacy', grantTypes: ['password', 'refresh_token'] })
    assert.deepEqual((await findClient('legacy'))!.grantTypes, ['password', 'refresh_token'])
    assert.notInclude((await createClient({ clientId: 'plain' })).client.grantTypes, 'password')
    assert.deepEqual(paths(await problemsOf(createClient({ clientId: 'legacy' }))), ['clientId'])
  })

  test('deactivation stops tokens at once; reactivation does not revive them', async ({
    assert,
  }) => {
    const { client } = await createClient({ clientId: 'batch' })
    const token = await issue(client)
    assert.property(await verify(token), 'subject')
    const version = await securityVersion()
    await tick()
    assert.isTrue(await setClientActive('batch', false))
    assert.equal(await securityVersion(), version + 1)
    const row = await rowOf('oauth_clients', 'client_id', 'batch')
    assert.isNotNull(row.tokens_valid_after)
    assert.deepEqual(await verify(token), {
      error: 'The client of the access token is no longer valid',
    })
    assert.isTrue(await setClientActive('batch', true))
    assert.property(await verify(token), 'error', 'a token of before the deactivation stays dead')
    assert.property(await verify(await issue(client)), 'subject', 'new tokens work')
    assert.isFalse(await setClientActive('batch', true), 'already active: no change')
  })

  test('a new secret stops tokens issued with the old one', async ({ assert }) => {
    const { client, generatedSecret } = await createClient({ clientId: 'rotating' })
    const token = await issue(client)
    assert.property(await verify(token), 'subject')
    const version = await securityVersion()
    await tick()
    const secret = await rotateClientSecret('rotating')
    assert.notEqual(secret, generatedSecret)
    const row = await rowOf('oauth_clients', 'client_id', 'rotating')
    assert.equal(row.secret_hash, digest(secret))
    assert.isNotNull(row.tokens_valid_after)
    assert.equal(await securityVersion(), version + 1)
    assert.property(await verify(token), 'error')
    assert.deepEqual(await cleartextIn(['oauth_clients'], secret), [])

    // The same through updateClient with a given secret.
    const token2 = await issue(client)
    await tick()
    const outcome = await updateClient('rotating', { clientSecret: 'another-secret-of-length' })
    assert.deepEqual(outcome.changed, ['secret'])
    assert.property(await verify(token2), 'error')
  })

  test('an update changes only what it names and bumps the security version', async ({
    assert,
  }) => {
    const { client } = await createClient({ clientId: 'roles', resourceRoles: ['a'] })
    const token = await issue(client)
    const version = await securityVersion()
    const outcome = await updateClient('roles', { resourceRoles: ['a', 'b'] })
    assert.deepEqual(outcome.changed, ['resourceRoles'])
    assert.equal(await securityVersion(), version + 1, 'cached verifications carry old roles')
    const verified = await verify(token)
    assert.deepEqual((verified as any).subject.resourceRoles, ['a', 'b'])
    const same = await updateClient('roles', { resourceRoles: ['a', 'b'] })
    assert.deepEqual(same.changed, [])
    assert.equal(await securityVersion(), version + 1)
    assert.deepEqual(
      paths(await problemsOf(updateClient('roles', { grantTypes: ['authorization_code'] }))),
      ['redirectUris']
    )
  })

  test('deleting a client deletes its tokens', async ({ assert }) => {
    const { client } = await createClient({ clientId: 'gone' })
    const token = await issue(client)
    await issue(client)
    const version = await securityVersion()
    await deleteClient('gone')
    assert.isNull(await findClient('gone'))
    assert.lengthOf(await db.from('oauth_tokens').where('client_pk', client.id), 0)
    assert.equal(await securityVersion(), version + 1)
    assert.property(await verify(token), 'error')
    assert.deepEqual(paths(await problemsOf(deleteClient('gone'))), ['clientId'])
  })

  test('a configuration-managed client cannot be changed by these functions', async ({
    assert,
  }) => {
    const { client } = await createClient({ clientId: 'from-config' })
    await db.from('oauth_clients').where('id', client.id).update({
      managed_by: 'config',
      config_name: 'orders',
    })
    for (const attempt of [
      () => updateClient('from-config', { resourceRoles: ['x'] }),
      () => rotateClientSecret('from-config'),
      () => setClientActive('from-config', false),
      () => deleteClient('from-config'),
    ]) {
      const problems = await problemsOf(attempt())
      assert.match(
        problems[0].message,
        /managed by configuration \(svc\.authserver\.client\.orders/
      )
    }
  })
})

test.group('oauth clients: node ace client:create', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('flags for every property; the generated secret is printed once', async ({ assert }) => {
    ace.ui.switchMode('raw')
    try {
      const command = await ace.create(ClientCreate, [
        'portal',
        '--grant-types=authorization_code,refresh_token',
        '--redirect-uris=https://portal.example.com/cb',
        '--authentication-methods=client_secret_post',
        '--access-token-format=self-contained',
        '--access-token-time-to-live=10m',
        '--refresh-token-time-to-live=12h',
        '--resource-roles=rest-minimal,clerk',
        '--no-require-proof-key',
      ])
      await command.exec()
      command.assertSucceeded()
      const client = (await findClient('portal'))!
      assert.deepEqual(client.authenticationMethods, ['client_secret_post'])
      assert.deepEqual(client.resourceRoles, ['rest-minimal', 'clerk'])
      assert.equal(client.accessTokenTtl, 600)
      assert.equal(client.refreshTokenTtl, 43200)
      assert.isFalse(client.requireProofKey)
      const printed = command.logger.getLogs().map((l) => l.message.trim())
      const secret = printed.find((m) => /^[\w-]{43}$/.test(m))!
      assert.equal(client.secretHash, digest(secret))

      const invalid = await ace.create(ClientCreate, ['spa', '--authentication-methods=none'])
      await invalid.exec()
      invalid.assertFailed()
      invalid.assertLogMatches(/--grant-types: a public client/)
      assert.isNull(await findClient('spa'))
    } finally {
      ace.ui.switchMode('normal')
    }
  })
})
