/**
 * Admin API, OAuth clients: list and read (database- and configuration-managed, never a secret),
 * create with a secret shown once, replace, delete; the effect of each at /oauth2/token and
 * /rest/userInfo, the audit trail, and for every refused request (401/403, 404, 409, 412, 422
 * with paths) that nothing changed. Rotating the secret and revoking every token:
 * admin_clients_secrets.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { admin, assertOutsidersRefused, setupAdminActors, versionOf } from '#tests/helpers/admin'
import { cleartextIn } from '#tests/helpers/accounts'
import { digest } from '#oauth/secrets'
import {
  CONSOLE,
  KEEPER,
  SYNC,
  create,
  elementsOf,
  lastAudit,
  seedConsoleClient,
  state,
  token,
  tokenStatus,
  userInfo,
} from './admin_clients_fixtures.js'

test.group('admin API: clients', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('401 anonymous, 403 plain user and full-access client on every endpoint', async ({
    assert,
  }) => {
    await create()
    const before = await state()
    const calls: [string, string, unknown?][] = [
      ['GET', 'clients'],
      ['GET', 'clients/orders-sync'],
      ['POST', 'clients', { clientId: 'other' }],
      ['PUT', 'clients/orders-sync', { resourceRoles: [] }],
      ['DELETE', 'clients/orders-sync'],
      ['POST', 'clients/orders-sync/secret'],
      ['POST', 'clients/orders-sync/revoke-tokens'],
    ]
    await assertOutsidersRefused(assert, calls)
    assert.equal(await state(), before)
    for (const actor of ['admin', 'adminClient'] as const)
      assert.equal((await admin(actor, 'GET', 'clients')).status, 200, actor)
  })

  test('create: 201 with the generated secret once, only its digest stored, audited; the secret gets a token', async ({
    assert,
  }) => {
    const v0 = versionOf(await admin('admin', 'GET', 'clients'))
    const reply = await create()
    const secret: string = reply.body.secret
    assert.isString(secret)
    assert.isAtLeast(secret.length, 32)
    assert.notProperty(reply.body, 'secrets')
    assert.equal(reply.body.status, 'applied')
    assert.equal(reply.body.definitionVersion, v0 + 1)
    assert.equal(versionOf(reply), v0 + 1)
    assert.deepInclude(reply.body.client, {
      clientId: 'orders-sync',
      grantTypes: ['client_credentials'],
      resourceRoles: ['rest-minimal'],
      accessTokenTimeToLive: '1h',
      managedBy: 'database',
      readOnly: false,
      active: true,
    })
    assert.notProperty(reply.body.client, 'clientSecretHash')

    const row = await db.from('oauth_clients').where('client_id', 'orders-sync').first()
    assert.equal(row.secret_hash, digest(secret))
    assert.equal(row.managed_by, 'database')
    const tables = ['oauth_clients', 'mg_audit', 'mg_audit_elements', 'mg_settings', 'mg_versions']
    assert.deepEqual(await cleartextIn(tables, secret), [])
    const audit = await lastAudit()
    assert.equal(audit.author, 'root')
    assert.deepEqual(await elementsOf(audit.id), ['clients:orders-sync'])
    assert.notInclude(audit.diff, row.secret_hash)

    const info = await userInfo(await token('orders-sync', secret))
    assert.equal(info.status, 200)
    assert.equal(info.body.username, 'orders-sync')

    const shown = await admin('admin', 'GET', 'clients/orders-sync')
    assert.equal(shown.status, 200)
    assert.deepEqual(shown.body, reply.body.client)
    assert.equal(versionOf(shown), v0 + 1)
    const list = await admin('admin', 'GET', 'clients')
    assert.deepInclude(list.body, reply.body.client)
    assert.notMatch(list.text, /clientSecret|secretHash|secret_hash/)
    assert.notInclude(list.text, row.secret_hash)
  })

  test('create: dry run plans and changes nothing; a given secret is not echoed', async ({
    assert,
  }) => {
    const before = await state()
    const dry = await admin('admin', 'POST', 'clients?dryRun=true', SYNC)
    assert.equal(dry.status, 200, dry.text)
    assert.equal(dry.body.status, 'dry-run')
    assert.deepEqual(dry.body.changes, ['client orders-sync: created (a secret is generated)'])
    assert.notProperty(dry.body, 'secret')
    assert.equal(await state(), before)

    const given = 'a-given-secret-0123456789'
    const reply = await create({ ...SYNC, clientSecret: given })
    assert.notProperty(reply.body, 'secret')
    assert.notInclude(reply.text, given)
    assert.equal((await userInfo(await token('orders-sync', given))).status, 200)
  })

  test('create: 409 for an existing id, 422 with paths in the body; nothing changed', async ({
    assert,
  }) => {
    await create()
    await seedConsoleClient()
    const before = await state()
    for (const clientId of ['orders-sync', CONSOLE]) {
      const taken = await admin('admin', 'POST', 'clients', { clientId })
      assert.equal(taken.status, 409, clientId)
      assert.equal(taken.body.error, 'Conflict')
      assert.include(taken.body.details, clientId)
    }
    const cases: [unknown, string[]][] = [
      [{ clientId: 'x', grantTypes: ['bogus'] }, ['$.grantTypes[0]']],
      [{ clientId: 'x', colour: 'red' }, ['$.colour']],
      [{ grantTypes: ['client_credentials'] }, ['$.clientId']],
      [{ clientId: 'x', redirectUris: ['https://a.example/cb#frag'] }, ['$.redirectUris[0]']],
      [{ clientId: 'x', clientSecret: 'short' }, ['$.clientSecret']],
      [['not', 'an', 'object'], ['$']],
    ]
    for (const [body, paths] of cases) {
      const reply = await admin('admin', 'POST', 'clients', body)
      assert.equal(reply.status, 422, JSON.stringify(body))
      assert.equal(reply.body.error, 'Invalid definition')
      assert.includeMembers(
        reply.body.problems.map((p: any) => p.path),
        paths,
        JSON.stringify(reply.body.problems)
      )
    }
    assert.equal(await state(), before)
  })

  test('replace: omitted fields take the defaults, the secret is kept unless given', async ({
    assert,
  }) => {
    const { secret } = (await create()).body
    const v1 = versionOf(await admin('admin', 'GET', 'clients'))
    const put = await admin('admin', 'PUT', 'clients/orders-sync', { resourceRoles: [] })
    assert.equal(put.status, 200, put.text)
    assert.equal(put.body.status, 'applied')
    assert.equal(versionOf(put), v1 + 1)
    assert.deepInclude(put.body.client, { resourceRoles: [], accessTokenTimeToLive: '5m' })
    assert.notProperty(put.body, 'secret')
    assert.equal(await tokenStatus('orders-sync', secret), 200, 'secret kept')

    const again = await admin('admin', 'PUT', 'clients/orders-sync', { resourceRoles: [] })
    assert.equal(again.body.status, 'unchanged')

    const given = 'a-new-given-secret-0123456789'
    const set = await admin('admin', 'PUT', 'clients/orders-sync', { clientSecret: given })
    assert.equal(set.status, 200, set.text)
    assert.include(set.body.changes.join(), 'secret')
    assert.equal(await tokenStatus('orders-sync', secret), 401)
    assert.equal(await tokenStatus('orders-sync', given), 200)
  })

  test('replace: 404, 422 with paths, 412 stale If-Match; nothing changed', async ({ assert }) => {
    await create()
    const v = versionOf(await admin('admin', 'GET', 'clients'))
    const before = await state()
    const unknown = await admin('admin', 'PUT', 'clients/nobody', {})
    assert.equal(unknown.status, 404)
    const other = await admin('admin', 'PUT', 'clients/orders-sync', { clientId: 'renamed' })
    assert.equal(other.status, 422)
    assert.equal(other.body.problems[0].path, '$.clientId')
    const bad = await admin('admin', 'PUT', 'clients/orders-sync', {
      authenticationMethods: ['none'],
      grantTypes: ['client_credentials'],
    })
    assert.equal(bad.status, 422)
    assert.isTrue(
      bad.body.problems.every((p: any) => p.path.startsWith('$.')),
      bad.text
    )
    assert.include(bad.body.problems.map((p: any) => p.path).join(), '$.grantTypes')
    const stale = await admin(
      'admin',
      'PUT',
      'clients/orders-sync',
      {},
      { 'If-Match': `"${v - 1}"` }
    )
    assert.equal(stale.status, 412)
    assert.equal(versionOf(stale), v)
    assert.equal(await state(), before)
    const fresh = await admin('admin', 'PUT', 'clients/orders-sync', {}, { 'If-Match': `"${v}"` })
    assert.equal(fresh.status, 200, fresh.text)
  })

  test('delete: the client and its tokens go, the others stay; 404 and 412 change nothing', async ({
    assert,
  }) => {
    const { secret } = (await create()).body
    await create({ clientId: KEEPER })
    const accessToken = await token('orders-sync', secret)
    const v = versionOf(await admin('admin', 'GET', 'clients'))
    const before = await state()
    assert.equal((await admin('admin', 'DELETE', 'clients/nobody')).status, 404)
    const stale = await admin('admin', 'DELETE', 'clients/orders-sync', undefined, {
      'If-Match': `"${v - 1}"`,
    })
    assert.equal(stale.status, 412)
    const dry = await admin('admin', 'DELETE', 'clients/orders-sync?dryRun=true')
    assert.deepEqual(dry.body.changes, ['client orders-sync: deleted (prune)'])
    assert.equal(await state(), before)

    const clientsBefore = await db.from('oauth_clients').count('* as n')
    const reply = await admin('admin', 'DELETE', 'clients/orders-sync', undefined, {
      'If-Match': `"${v}"`,
    })
    assert.equal(reply.status, 200, reply.text)
    assert.deepEqual(reply.body.changes, ['client orders-sync: deleted (prune)'])
    assert.equal(versionOf(reply), v + 1)
    assert.notProperty(reply.body, 'client')
    assert.isNull(await db.from('oauth_clients').where('client_id', 'orders-sync').first())
    const left = await db.from('oauth_clients').count('* as n')
    assert.equal(Number(left[0].n), Number(clientsBefore[0].n) - 1)
    assert.equal((await userInfo(accessToken)).status, 401)
    assert.equal((await admin('admin', 'GET', 'clients/orders-sync')).status, 404)
    for (const path of [KEEPER, encodeURIComponent(KEEPER)])
      assert.equal((await admin('adminClient', 'GET', `clients/${path}`)).body.clientId, KEEPER)
    const audit = await lastAudit()
    assert.deepEqual(await elementsOf(audit.id), ['clients:orders-sync'])
    assert.equal(JSON.parse(audit.diff)[0].change, 'deleted')
  })

  test('configuration clients (the console client) are listed read-only and refused', async ({
    assert,
  }) => {
    await seedConsoleClient()
    const list = await admin('admin', 'GET', 'clients')
    const seeded = list.body.find((c: any) => c.clientId === CONSOLE)
    assert.deepInclude(seeded, {
      managedBy: 'config',
      configName: 'console',
      readOnly: true,
      public: true,
      active: true,
      grantTypes: ['authorization_code', 'refresh_token'],
    })
    assert.equal((await admin('admin', 'GET', `clients/${CONSOLE}`)).body.clientId, CONSOLE)
    const before = await state()
    for (const [method, path, body] of [
      ['PUT', `clients/${CONSOLE}`, { resourceRoles: [] }],
      ['DELETE', `clients/${CONSOLE}`],
      ['POST', `clients/${CONSOLE}/secret`],
    ] as const) {
      const reply = await admin('admin', method, path, body)
      assert.equal(reply.status, 409, `${method} ${path}`)
      assert.equal(reply.body.error, 'Managed by configuration')
      assert.include(reply.body.details, 'svc.authserver.client.console.')
    }
    assert.equal(await state(), before)
    // Revoking tokens changes no property: allowed for configuration clients too.
    const revoke = await admin('admin', 'POST', `clients/${CONSOLE}/revoke-tokens`)
    assert.equal(revoke.status, 200, revoke.text)
    assert.equal(revoke.body.revoked, 0)
  })
})
