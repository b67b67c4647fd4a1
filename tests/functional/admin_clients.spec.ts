/**
 * Admin API, OAuth clients: list and read (database- and configuration-managed, never a secret),
 * create with a secret shown once, replace, delete, rotate the secret, revoke every token; the
 * effect of each at /oauth2/token and /rest/userInfo, the audit trail, and for every refused
 * request (401/403, 404, 409, 412, 422 with paths) that nothing changed.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { engine } from '#tests/helpers/engine'
import { admin, adminState, setupAdminActors, versionOf } from '#tests/helpers/admin'
import { baseUrl, clientCredentialsTokens, discover, oauthState } from '#tests/helpers/oauth'
import { cleartextIn } from '#tests/helpers/accounts'
import { syncConfigClients } from '#oauth/config_clients'
import { digest } from '#oauth/secrets'

const SYNC = {
  clientId: 'orders-sync',
  resourceRoles: ['rest-minimal'],
  accessTokenTimeToLive: '1h',
}
const CONSOLE = 'modelgate-console'
/** Client ids may hold `. _ ~ @ -`: they must reach the controller whole, encoded or not. */
const KEEPER = 'keeper.v2~ops@example'

/** Every refused request must leave this identical: definition, schema, audit, tokens. */
const state = async () => JSON.stringify([await adminState(), await oauthState()])

async function token(clientId: string, secret: string) {
  return (await clientCredentialsTokens(await discover(), clientId, secret)).access_token
}

/** The raw token endpoint answer (to see a refused secret). */
async function tokenStatus(clientId: string, secret: string) {
  const response = await fetch(`${baseUrl()}/oauth2/token`, {
    method: 'POST',
    headers: {
      'Authorization': `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  return response.status
}

async function userInfo(accessToken: string) {
  const response = await fetch(`${baseUrl()}/rest/userInfo`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  })
  return { status: response.status, body: (await response.json().catch(() => null)) as any }
}

async function create(entry: Record<string, unknown> = SYNC) {
  const reply = await admin('admin', 'POST', 'clients', entry)
  if (reply.status !== 201) throw new Error(`create: ${reply.status} ${reply.text}`)
  return reply
}

const lastAudit = () => db.from('mg_audit').orderBy('id', 'desc').first()
const elementsOf = async (auditId: number) =>
  (await db.from('mg_audit_elements').where('audit_id', auditId)).map(
    (e) => `${e.section}:${e.element}`
  )

/** The console's own public client, as the server seeds it at start (managed by config). */
async function seedConsoleClient() {
  const result = await syncConfigClients((await engine()).properties, Number(process.env.PORT))
  if (result.problems.length) throw new Error(JSON.stringify(result.problems))
}

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
    for (const [actor, status] of [
      ['anonymous', 401],
      ['plain', 403],
      ['fullAccess', 403],
    ] as const) {
      for (const [method, path, body] of calls) {
        const reply = await admin(actor, method, path, body)
        assert.equal(reply.status, status, `${actor} ${method} ${path}`)
        assert.properties(reply.body, ['error', 'details'])
      }
    }
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

  test('rotate: a new secret once; the old secret and old tokens stop, the new ones work', async ({
    assert,
  }) => {
    const { secret: old } = (await create()).body
    const oldToken = await token('orders-sync', old)
    const v = versionOf(await admin('admin', 'GET', 'clients'))
    const before = await state()
    const dry = await admin('admin', 'POST', 'clients/orders-sync/secret?dryRun=true')
    assert.equal(dry.status, 200, dry.text)
    assert.deepEqual([dry.body.status, dry.body.secret], ['dry-run', undefined])
    assert.equal(await state(), before)

    const rotated = await admin('admin', 'POST', 'clients/orders-sync/secret', undefined, {
      'If-Match': `"${v}"`,
    })
    assert.equal(rotated.status, 200, rotated.text)
    const secret: string = rotated.body.secret
    assert.isString(secret)
    assert.notEqual(secret, old)
    assert.equal(versionOf(rotated), v + 1)
    const row = await db.from('oauth_clients').where('client_id', 'orders-sync').first()
    assert.equal(row.secret_hash, digest(secret))
    assert.deepEqual(await cleartextIn(['oauth_clients', 'mg_audit'], secret), [])
    assert.deepEqual(await elementsOf((await lastAudit()).id), ['clients:orders-sync'])

    assert.equal(await tokenStatus('orders-sync', old), 401)
    assert.equal((await userInfo(oldToken)).status, 401)
    assert.equal((await userInfo(await token('orders-sync', secret))).status, 200)
  })

  test('rotate: 404, 409 for a public client, 412 stale; nothing changed', async ({ assert }) => {
    await create({
      clientId: 'spa',
      authenticationMethods: ['none'],
      grantTypes: ['authorization_code'],
      redirectUris: ['https://spa.example/cb'],
    })
    await create()
    const v = versionOf(await admin('admin', 'GET', 'clients'))
    const before = await state()
    assert.equal((await admin('admin', 'POST', 'clients/nobody/secret')).status, 404)
    const pub = await admin('admin', 'POST', 'clients/spa/secret')
    assert.equal(pub.status, 409)
    assert.include(pub.body.details, 'no secret')
    const stale = await admin('admin', 'POST', 'clients/orders-sync/secret', undefined, {
      'If-Match': `"${v - 1}"`,
    })
    assert.equal(stale.status, 412)
    assert.notProperty(stale.body, 'secret')
    assert.equal(await state(), before)
  })

  test('revoke-tokens: every token stops, the registration and the version stay, audited', async ({
    assert,
  }) => {
    const { secret } = (await create()).body
    const tokens = [await token('orders-sync', secret), await token('orders-sync', secret)]
    const shown = await admin('admin', 'GET', 'clients/orders-sync')
    const v = versionOf(shown)
    const exported = (await admin('admin', 'GET', 'definition')).body.clients
    const audits = Number((await db.from('mg_audit').count('* as n'))[0].n)

    const beforeDry = await state()
    const dry = await admin('admin', 'POST', 'clients/orders-sync/revoke-tokens?dryRun=true')
    assert.equal(dry.status, 200, dry.text)
    assert.deepEqual(dry.body, { status: 'dry-run', revoked: 2 })
    assert.equal(await state(), beforeDry)

    const reply = await admin('admin', 'POST', 'clients/orders-sync/revoke-tokens', undefined, {
      'If-Match': `"${v}"`,
    })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(reply.body.revoked, 2)
    assert.equal(versionOf(reply), v)
    for (const t of tokens) assert.equal((await userInfo(t)).status, 401)
    const open = await db
      .from('oauth_tokens as t')
      .join('oauth_clients as c', 'c.id', 't.client_pk')
      .where('c.client_id', 'orders-sync')
      .whereNull('t.revoked_at')
    assert.deepEqual(open, [])

    const after = await admin('admin', 'GET', 'clients/orders-sync')
    assert.deepEqual(after.body, shown.body)
    assert.equal(versionOf(after), v)
    assert.deepEqual((await admin('admin', 'GET', 'definition')).body.clients, exported)
    const audit = await lastAudit()
    assert.equal(Number(audit.id), reply.body.auditId)
    assert.equal(Number((await db.from('mg_audit').count('* as n'))[0].n), audits + 1)
    assert.equal(audit.author, 'root')
    assert.equal(Number(audit.definition_version), v)
    assert.deepEqual(JSON.parse(audit.changes), ['client orders-sync: 2 token(s) revoked'])
    assert.deepEqual(await elementsOf(audit.id), ['clients:orders-sync'])

    const fresh = await token('orders-sync', secret)
    assert.equal((await userInfo(fresh)).status, 200, 'the secret still works')
    const second = await admin('admin', 'POST', 'clients/orders-sync/revoke-tokens')
    assert.equal(second.body.revoked, 1, 'only the live token; the revoked ones are not counted')
    assert.equal((await userInfo(fresh)).status, 401)
  })

  test('revoke-tokens: 404 and 412 stale change nothing', async ({ assert }) => {
    const { secret } = (await create()).body
    const accessToken = await token('orders-sync', secret)
    const v = versionOf(await admin('admin', 'GET', 'clients'))
    const before = await state()
    const unknown = await admin('admin', 'POST', 'clients/nobody/revoke-tokens')
    assert.equal(unknown.status, 404)
    const stale = await admin('admin', 'POST', 'clients/orders-sync/revoke-tokens', undefined, {
      'If-Match': `"${v - 1}"`,
    })
    assert.equal(stale.status, 412)
    assert.equal(await state(), before)
    assert.equal((await userInfo(accessToken)).status, 200)
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
