/**
 * The `clients` section of the definition document: written in the import's transaction,
 * idempotent, secrets generated once and stored as digests, prune of database-managed clients,
 * export with digests only, and invalid documents that change nothing.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'
import { cleartextIn, issue, rowOf, securityVersion, tick, verify } from '#tests/helpers/accounts'
import { createClient, findClient } from '#oauth/clients'
import { createUser } from '#oauth/accounts'
import { digest } from '#oauth/secrets'
import { definitions } from '#definition/main'

const SECRET = 'orders-sync-secret-0123456789'
const ordersSync = {
  clientId: 'orders-sync',
  clientSecret: SECRET,
  authenticationMethods: ['client_secret_basic'],
  grantTypes: ['client_credentials'],
  redirectUris: [],
  requireProofKey: true,
  accessTokenFormat: 'reference',
  accessTokenTimeToLive: '5m',
  refreshTokenTimeToLive: '24h',
  resourceRoles: ['rest-minimal', 'bookstore-clerk'],
  rowLevelRoles: [],
}
const portal = {
  clientId: 'portal',
  grantTypes: ['authorization_code', 'refresh_token'],
  redirectUris: ['https://portal.example.com/cb'],
  accessTokenTimeToLive: '1h',
}
const item = { name: 'shop_Item', attributes: [{ name: 'code', type: 'string', length: 20 }] }
const clientIds = async () =>
  (await db.from('oauth_clients').orderBy('client_id')).map((c) => c.client_id)

async function applied(doc: Record<string, unknown>) {
  const result = await importDoc(doc)
  if (result.status !== 'applied') throw new Error(`expected applied: ${JSON.stringify(result)}`)
  return result
}

test.group('definition: clients', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    // Client role assignments name existing roles (app/definition/sections/clients.ts).
    await applied({
      resourceRoles: [{ code: 'bookstore-clerk' }],
      rowLevelRoles: [{ code: 'own' }],
    })
  })

  test('clients are created; a generated secret is reported once, none stored in clear', async ({
    assert,
  }) => {
    const result = await applied({ entities: [item], clients: [ordersSync, portal] })
    assert.includeMembers(result.changes, [
      'client orders-sync: created',
      'client portal: created (a secret is generated)',
    ])
    assert.lengthOf(result.secrets!, 1)
    const [generated] = result.secrets!
    assert.deepEqual([generated.path, generated.clientId], ['$.clients[1]', 'portal'])
    assert.equal((await findClient('portal'))!.secretHash, digest(generated.secret))
    assert.equal((await findClient('orders-sync'))!.secretHash, digest(SECRET))
    assert.equal((await findClient('portal'))!.accessTokenTtl, 3600)
    for (const secret of [SECRET, generated.secret])
      assert.deepEqual(
        await cleartextIn(['oauth_clients', 'mg_settings', 'mg_schema_changelog'], secret),
        []
      )
  })

  test('re-importing the same document changes nothing and rotates no secret', async ({
    assert,
  }) => {
    await applied({ clients: [ordersSync, portal] })
    const before = await snapshotState()
    const version = await securityVersion()
    const again = await importDoc({ clients: [ordersSync, portal] })
    assert.equal(again.status, 'unchanged', JSON.stringify(again.changes))
    assert.isUndefined(again.secrets)
    assert.equal(await snapshotState(), before)
    assert.equal(await securityVersion(), version)
  })

  test('a changed secret or setting is applied; a new secret stops old tokens', async ({
    assert,
  }) => {
    await applied({ clients: [ordersSync] })
    const token = await issue((await findClient('orders-sync'))!)
    await tick()
    const result = await applied({
      clients: [
        {
          ...ordersSync,
          clientSecret: 'a-brand-new-secret-0123',
          grantTypes: ['client_credentials'],
          rowLevelRoles: ['own'],
        },
      ],
    })
    assert.deepEqual(result.changes, ['client orders-sync: changed rowLevelRoles, secret'])
    assert.deepEqual(result.steps, [])
    assert.property(await verify(token), 'error')
    const exported = (await definitions(await engine()).exportDocument()).clients as any[]
    assert.equal(exported[0].clientSecretHash, digest('a-brand-new-secret-0123'))
  })

  test('export: digests, durations as text, no config-managed client; the round trip is a no-op', async ({
    assert,
  }) => {
    await applied({ entities: [item], clients: [ordersSync, portal] })
    const config = await createClient({ clientId: 'from-config' })
    await db
      .from('oauth_clients')
      .where('id', config.client.id)
      .update({ managed_by: 'config', config_name: 'x' })
    const e = await engine()
    const exported = await definitions(e).exportDocument()
    const clients = exported.clients as any[]
    assert.deepEqual(
      clients.map((c) => c.clientId),
      ['orders-sync', 'portal']
    )
    assert.notProperty(clients[0], 'clientSecret')
    assert.equal(clients[0].clientSecretHash, digest(SECRET))
    assert.equal(clients[0].accessTokenTimeToLive, '5m')
    assert.equal(clients[1].accessTokenTimeToLive, '1h')
    assert.equal(clients[1].refreshTokenTimeToLive, '24h')
    assert.notInclude(JSON.stringify(exported), SECRET)

    const before = await snapshotState()
    const result = await definitions(e).importDocument(JSON.parse(JSON.stringify(exported)))
    assert.equal(result.status, 'unchanged', JSON.stringify(result.changes))
    assert.equal(await snapshotState(), before)

    // Into an empty database: the same clients, the same digests (no secret generated).
    await resetDatabase()
    const fresh = await importDoc(exported)
    assert.equal(fresh.status, 'applied')
    assert.isUndefined(fresh.secrets)
    assert.equal((await findClient('orders-sync'))!.secretHash, digest(SECRET))
  })

  test('prune deletes unnamed database clients with their tokens and codes, never config ones', async ({
    assert,
  }) => {
    await applied({ clients: [ordersSync, portal] })
    const config = await createClient({ clientId: 'from-config' })
    await db
      .from('oauth_clients')
      .where('id', config.client.id)
      .update({ managed_by: 'config', config_name: 'x' })
    const gone = (await findClient('portal'))!
    const user = await createUser({ username: 'alice', password: 'alice-password' })
    const token = await issue(gone, user)
    await db.table('oauth_codes').insert({
      id: randomUUID(),
      code_hash: digest('code'),
      client_pk: gone.id,
      user_id: user.id,
      grant_id: randomUUID(),
      redirect_uri: portal.redirectUris[0],
      expires_at: new Date(Date.now() + 60000),
      created_at: new Date(),
    })

    const withoutSection = await importDoc({ prune: true, entities: [item] })
    assert.notInclude(
      withoutSection.changes.join(),
      'client',
      'no clients section: clients untouched'
    )
    assert.deepEqual(await clientIds(), ['from-config', 'orders-sync', 'portal'])

    const result = await applied({ prune: true, entities: [item], clients: [ordersSync] })
    assert.include(result.changes, 'client portal: deleted (prune)')
    assert.deepEqual(await clientIds(), ['from-config', 'orders-sync'])
    assert.lengthOf(await db.from('oauth_tokens').where('client_pk', gone.id), 0)
    assert.lengthOf(await db.from('oauth_codes').where('client_pk', gone.id), 0)
    assert.property(await verify(token), 'error')
  })

  test('a dry run lists client changes and writes nothing', async ({ assert }) => {
    const before = await snapshotState()
    const result = await importDoc({ clients: [ordersSync, portal] }, { dryRun: true })
    assert.equal(result.status, 'dry-run')
    assert.deepEqual(result.changes, [
      'client orders-sync: created',
      'client portal: created (a secret is generated)',
    ])
    assert.isUndefined(result.secrets)
    assert.equal(await snapshotState(), before)
  })

  test('clients commit or roll back with the model: a refused model change writes no client', async ({
    assert,
  }) => {
    await applied({
      entities: [{ ...item, attributes: [...item.attributes, { name: 'note', type: 'text' }] }],
    })
    await db.table('shop_item').insert({ id: randomUUID(), code: 'A', note: 'data' })
    const before = await snapshotState()
    const result = await importDoc({ prune: true, entities: [item], clients: [ordersSync] })
    assert.equal(result.status, 'refused')
    assert.equal(await snapshotState(), before)
    assert.isNull(await findClient('orders-sync'))
  })

  test('invalid clients: every problem with its path, nothing changed', async ({ assert }) => {
    await applied({ clients: [ordersSync] })
    const config = await createClient({ clientId: 'from-config' })
    await db
      .from('oauth_clients')
      .where('id', config.client.id)
      .update({ managed_by: 'config', config_name: 'cfg' })
    const before = await snapshotState()
    const result = await importDoc({
      entities: [item],
      clients: [
        { ...ordersSync, resourceRoles: ['changed'] },
        { clientId: 'orders-sync' },
        { clientId: 'spa', authenticationMethods: ['none'], grantTypes: ['client_credentials'] },
        {
          clientId: 'web',
          grantTypes: ['authorization_code'],
          redirectUris: ['/cb', 'https://x.example/cb#f'],
        },
        { clientId: 'ttl', accessTokenTimeToLive: 'forever', refreshTokenTimeToLive: '-1h' },
        { clientId: 'both', clientSecret: 'x'.repeat(20), clientSecretHash: digest('x') },
        { clientId: 'from-config' },
        { clientId: 'typo', grantType: ['client_credentials'] },
      ],
    })
    assert.equal(result.status, 'invalid')
    assert.sameMembers(
      result.problems.map((p) => p.path),
      [
        '$.clients[1].clientId',
        '$.clients[2].grantTypes[0]',
        '$.clients[3].redirectUris[0]',
        '$.clients[3].redirectUris[1]',
        '$.clients[4].accessTokenTimeToLive',
        '$.clients[4].refreshTokenTimeToLive',
        '$.clients[5].clientSecretHash',
        '$.clients[6].clientId',
        '$.clients[7].grantType',
        // A client's roles must exist (the 'changed' role does not).
        '$.clients[0].resourceRoles[0]',
      ]
    )
    const configProblem = result.problems.find((p) => p.path === '$.clients[6].clientId')!
    assert.match(configProblem.message, /managed by configuration \(svc\.authserver\.client\.cfg/)
    assert.equal(await snapshotState(), before)
  })

  test('a clear client secret is refused in the settings section', async ({ assert }) => {
    const before = await snapshotState()
    const result = await importDoc({
      settings: { 'svc.authserver.client.orders.client-secret': '{noop}abc' },
    })
    assert.equal(result.status, 'invalid')
    assert.deepEqual(
      result.problems.map((p) => p.path),
      ["$.settings['svc.authserver.client.orders.client-secret']"]
    )
    assert.equal(await snapshotState(), before)
    const hashed = await importDoc({
      settings: { 'svc.authserver.client.orders.client-secret': `{sha256}${digest('abc')}` },
    })
    assert.equal(hashed.status, 'applied')
  })

  test('a wrong type in the section is a structural problem with its path', async ({ assert }) => {
    const result = await importDoc({
      clients: [{ clientId: 'x', grantTypes: 'client_credentials', requireProofKey: 'yes' }],
    })
    assert.equal(result.status, 'invalid')
    assert.sameMembers(
      result.problems.map((p) => p.path),
      ['$.clients[0].grantTypes', '$.clients[0].requireProofKey']
    )
    assert.isNull(await rowOf('oauth_clients', 'client_id', 'x'))
  })
})

test.group('definition: clients and roles', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('a client names existing roles; a role a kept client holds cannot be pruned', async ({
    assert,
  }) => {
    const unknown = await importDoc({ clients: [{ ...ordersSync, resourceRoles: ['ghost'] }] })
    assert.equal(unknown.status, 'invalid')
    assert.deepEqual(unknown.problems, [
      { path: '$.clients[0].resourceRoles[0]', message: "unknown role 'ghost'" },
    ])
    await applied({
      resourceRoles: [{ code: 'bookstore-clerk' }, { code: 'other' }],
      rowLevelRoles: [{ code: 'own' }],
      clients: [{ ...ordersSync, rowLevelRoles: ['own'] }],
    })
    const before = await snapshotState()
    const pruned = await importDoc({ prune: true, resourceRoles: [{ code: 'other' }] })
    assert.equal(pruned.status, 'invalid')
    assert.deepEqual(pruned.problems, [
      {
        path: '(client orders-sync).resourceRoles[1]',
        message:
          "role 'bookstore-clerk' is still assigned to client 'orders-sync'; remove it from the client first",
      },
    ])
    assert.deepEqual(await snapshotState(), before)
    // Taking the role away from the client in the same document is fine.
    const both = await importDoc({
      prune: true,
      entities: [],
      resourceRoles: [{ code: 'other' }],
      clients: [{ ...ordersSync, resourceRoles: ['rest-minimal'], rowLevelRoles: ['own'] }],
    })
    assert.equal(both.status, 'applied', JSON.stringify(both.problems))
  })
})
