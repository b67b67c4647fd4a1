/**
 * Clients declared with svc.authserver.client.<name>.* properties: synced into oauth_clients at
 * start (managed by configuration), hashed secrets, deactivated when their properties go away.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { engine } from '#tests/helpers/engine'
import { cleartextIn, issue, rowOf, securityVersion, tick, verify } from '#tests/helpers/accounts'
import { syncConfigClients } from '#oauth/config_clients'
import { createClient, findClient } from '#oauth/clients'
import { digest } from '#oauth/secrets'
import { syncClientsFromProperties } from '#start/bootstrap'

const ORDERS = {
  SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_ID: 'orders',
  SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_SECRET: '{noop}orders-secret-0123456789',
  SVC_AUTHSERVER_CLIENT_ORDERS_RESOURCE_ROLES: 'rest-minimal, bookstore-clerk',
  SVC_AUTHSERVER_CLIENT_ORDERS_ACCESS_TOKEN_TIME_TO_LIVE: '1h',
}

const quiet = { warn() {}, info() {} } as any

async function sync(env: Record<string, string>) {
  const e = await engine()
  await e.properties.loadStatic(null, env)
  return syncConfigClients(e.properties)
}

test.group('oauth clients from properties', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    const e = await engine()
    return () => e.properties.loadStatic(app.configPath('application.properties'))
  })

  test('a configured client is created, managed by configuration, its secret hashed', async ({
    assert,
  }) => {
    const result = await sync(ORDERS)
    assert.deepEqual(result.problems, [])
    assert.deepEqual(result.created, ['orders'])
    const row = await rowOf('oauth_clients', 'client_id', 'orders')
    assert.equal(row.managed_by, 'config')
    assert.equal(row.config_name, 'orders')
    assert.equal(row.secret_hash, digest('orders-secret-0123456789'), '{noop} is stripped')
    assert.deepEqual(await cleartextIn(['oauth_clients'], 'orders-secret-0123456789'), [])
    const client = (await findClient('orders'))!
    assert.deepEqual(client.resourceRoles, ['rest-minimal', 'bookstore-clerk'])
    assert.deepEqual(client.grantTypes, ['client_credentials'])
    assert.deepEqual(client.authenticationMethods, ['client_secret_basic'])
    assert.equal(client.accessTokenTtl, 3600)
    assert.equal(client.refreshTokenTtl, 86400)
    assert.isTrue(client.active)
  })

  test('syncing again changes nothing; a changed property updates the row', async ({ assert }) => {
    await sync(ORDERS)
    const version = await securityVersion()
    const again = await sync(ORDERS)
    assert.deepEqual([again.created, again.updated, again.deactivated], [[], [], []])
    assert.equal(await securityVersion(), version)

    const changed = await sync({ ...ORDERS, SVC_AUTHSERVER_CLIENT_ORDERS_ROW_LEVEL_ROLES: 'own' })
    assert.deepEqual(changed.updated, ['orders'])
    assert.deepEqual((await findClient('orders'))!.rowLevelRoles, ['own'])
    assert.equal(await securityVersion(), version + 1)
  })

  test('a changed secret stops the old tokens', async ({ assert }) => {
    await sync(ORDERS)
    const token = await issue((await findClient('orders'))!)
    assert.property(await verify(token), 'subject')
    await tick()
    await sync({ ...ORDERS, SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_SECRET: 'new-secret-0123456789' })
    const row = await rowOf('oauth_clients', 'client_id', 'orders')
    assert.equal(row.secret_hash, digest('new-secret-0123456789'))
    assert.isNotNull(row.tokens_valid_after)
    assert.property(await verify(token), 'error')
  })

  test('properties gone: deactivated, tokens stop; back: active again', async ({ assert }) => {
    await sync(ORDERS)
    const token = await issue((await findClient('orders'))!)
    await tick()
    const gone = await sync({})
    assert.deepEqual(gone.deactivated, ['orders'])
    const row = await rowOf('oauth_clients', 'client_id', 'orders')
    assert.isNotNull(row.tokens_valid_after)
    assert.isFalse((await findClient('orders'))!.active)
    assert.property(await verify(token), 'error')
    const back = await sync(ORDERS)
    assert.deepEqual(back.reactivated, ['orders'])
    assert.isTrue((await findClient('orders'))!.active)
    assert.property(await verify(token), 'error', 'old tokens stay dead')
  })

  test('a public client, other grant types and redirect URIs from properties', async ({
    assert,
  }) => {
    const result = await sync({
      SVC_AUTHSERVER_CLIENT_SPA_CLIENT_ID: 'spa',
      SVC_AUTHSERVER_CLIENT_SPA_AUTHENTICATION_METHODS: 'none',
      SVC_AUTHSERVER_CLIENT_SPA_GRANT_TYPES: 'authorization_code,refresh_token',
      SVC_AUTHSERVER_CLIENT_SPA_REDIRECT_URIS: 'https://spa.example.com/cb',
      SVC_AUTHSERVER_CLIENT_SPA_REFRESH_TOKEN_TIME_TO_LIVE: '8h',
    })
    assert.deepEqual(result.problems, [])
    const client = (await findClient('spa'))!
    assert.isNull(client.secretHash)
    assert.isTrue(client.requireProofKey)
    assert.deepEqual(client.redirectUris, ['https://spa.example.com/cb'])
    assert.equal(client.refreshTokenTtl, 8 * 3600)
  })

  test('invalid configuration: every problem names its property, nothing is written', async ({
    assert,
  }) => {
    await sync(ORDERS)
    const before = await db.from('oauth_clients').orderBy('id')
    const result = await sync({
      ...ORDERS,
      SVC_AUTHSERVER_CLIENT_ORDERS_GRANT_TYPES: 'client_credentials,implicit',
      SVC_AUTHSERVER_CLIENT_BAD_CLIENT_SECRET: '{bcrypt}$2a$10$abc',
      SVC_AUTHSERVER_CLIENT_BAD_CLIENT_ID: 'bad',
      SVC_AUTHSERVER_CLIENT_NOID_RESOURCE_ROLES: 'x',
      SVC_AUTHSERVER_CLIENT_NOSECRET_CLIENT_ID: 'nosecret',
      SVC_AUTHSERVER_CLIENT_TTL_CLIENT_ID: 'ttl',
      SVC_AUTHSERVER_CLIENT_TTL_CLIENT_SECRET: 'ttl-secret-0123456789',
      SVC_AUTHSERVER_CLIENT_TTL_ACCESS_TOKEN_TIME_TO_LIVE: 'soon',
    })
    assert.sameMembers(
      result.problems.map((p) => p.path),
      [
        'svc.authserver.client.orders.grant-types',
        'svc.authserver.client.bad.client-secret',
        'svc.authserver.client.noid.client-id',
        'svc.authserver.client.nosecret.client-secret',
        'svc.authserver.client.ttl.access-token-time-to-live',
      ]
    )
    assert.deepEqual(await db.from('oauth_clients').orderBy('id'), before)
    await assert.rejects(
      async () => syncClientsFromProperties(await engine(), quiet),
      /invalid OAuth client configuration/
    )
  })

  test('a client id already registered in the database or used twice is a problem', async ({
    assert,
  }) => {
    await createClient({ clientId: 'orders' })
    const taken = await sync(ORDERS)
    assert.deepEqual(
      taken.problems.map((p) => p.path),
      ['svc.authserver.client.orders.client-id']
    )
    assert.equal((await rowOf('oauth_clients', 'client_id', 'orders')).managed_by, 'database')
    const twice = await sync({
      SVC_AUTHSERVER_CLIENT_A_CLIENT_ID: 'same',
      SVC_AUTHSERVER_CLIENT_A_CLIENT_SECRET: 'a-secret-0123456789',
      SVC_AUTHSERVER_CLIENT_B_CLIENT_ID: 'same',
      SVC_AUTHSERVER_CLIENT_B_CLIENT_SECRET: 'b-secret-0123456789',
    })
    assert.deepEqual(
      twice.problems.map((p) => p.path),
      ['svc.authserver.client.b.client-id']
    )
  })

  test('a short configured secret is accepted with a warning', async ({ assert }) => {
    const result = await sync({
      SVC_AUTHSERVER_CLIENT_MYCLIENT_CLIENT_ID: 'abcdefghij',
      SVC_AUTHSERVER_CLIENT_MYCLIENT_CLIENT_SECRET: '{noop}0123456789',
    })
    assert.deepEqual(result.created, ['abcdefghij'])
    assert.match(result.warnings[0], /client-secret is shorter than 16/)
  })
})
