/**
 * Admin API, OAuth clients' credentials: rotate the secret (shown once; the old secret and the
 * tokens issued with it stop) and revoke every token of a client (the registration and the
 * definition version stay); dry runs, the audit trail, and for every refused request (404, 409
 * public client, 412 stale If-Match) that nothing changed. The rest: admin_clients.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { admin, setupAdminActors, versionOf } from '#tests/helpers/admin'
import { cleartextIn } from '#tests/helpers/accounts'
import { digest } from '#oauth/secrets'
import {
  create,
  elementsOf,
  lastAudit,
  state,
  token,
  tokenStatus,
  userInfo,
} from './admin_clients_fixtures.js'

test.group('admin API: clients, secret rotation and token revocation', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
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
})
