/**
 * Catalogue rows AZ1-AZ26 (reference/security-test-catalogue.md, "Authorisation"), on the
 * security fixture (tests/helpers/security.ts). ∅ = no row of the fixture changed.
 * AZ17/AZ18 (__securityToken) are in security_token.spec.ts. AZ22 (services API) and AZ23
 * (reports API) concern capabilities this server does not have yet.
 */
import { test } from '@japa/runner'
import * as oauth from 'oauth4webapi'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import {
  authorizeThroughLogin,
  clientCredentialsTokens,
  createClient,
  discover,
  insecure,
} from '#tests/helpers/oauth'
import {
  CUSTOMER,
  E,
  ORDER,
  ROWS,
  call,
  dataState,
  seed,
  setupSecurityFixture,
  tokens,
} from '#tests/helpers/security'

const C = `${E}/${CUSTOMER}`
const O = `${E}/${ORDER}`
const json = (v: unknown) => encodeURIComponent(JSON.stringify(v))

test.group('catalogue AZ rows: row-level writes and bulk', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
  })
  group.each.setup(() => seed())

  test('AZ2 alice PUT/DELETE a hidden customer: 404, nothing changed', async ({ assert }) => {
    const before = await dataState()
    const put = await call('alice', 'PUT', `${C}/${ROWS.us1}`, { name: 'Hacked' })
    assert.equal(put.status, 404)
    assert.equal(put.body.error, 'Entity not found')
    const del = await call('alice', 'DELETE', `${C}/${ROWS.us1}`)
    assert.equal(del.status, 404)
    assert.equal(await dataState(), before)
  })

  test('AZ3 alice creates a customer outside her region: 403, nothing created', async ({
    assert,
  }) => {
    const before = await dataState()
    const response = await call('alice', 'POST', C, { name: 'Ulla', region: 'US' })
    assert.equal(response.status, 403)
    assert.equal(response.body.error, 'Forbidden')
    assert.match(response.body.details, /type: entity, action: create$/)
    assert.equal(await dataState(), before)
  })

  test('AZ4 alice moves her customer to another region: 403, nothing changed', async ({
    assert,
  }) => {
    const before = await dataState()
    const response = await call('alice', 'PUT', `${C}/${ROWS.eu1}`, { region: 'US' })
    assert.equal(response.status, 403)
    assert.equal(response.body.error, 'Forbidden')
    assert.equal(await dataState(), before)
  })

  test('AZ5 bulk update of 9 visible rows and 1 hidden: whole batch refused', async ({
    assert,
  }) => {
    const extra = Array.from({ length: 7 }, (_, i) => ({
      id: `00000000-0000-4000-8000-0000000e00${10 + i}`,
      name: `E${i}`,
      region: 'EU',
      version: 1,
    }))
    await db.table('sec_customer').multiInsert(extra)
    const before = await dataState()
    const body = [ROWS.eu1, ROWS.eu2, ...extra.map((e) => e.id), ROWS.us1].map((id) => ({
      id,
      email: 'bulk@example.com',
    }))
    assert.lengthOf(body, 10)
    const response = await call('alice', 'PUT', C, body)
    assert.equal(response.status, 404)
    assert.equal(await dataState(), before, '0 rows changed')
  })

  test('AZ6 bulk update naming the same row twice: 400, nothing changed', async ({ assert }) => {
    const before = await dataState()
    const response = await call('alice', 'PUT', C, [
      { id: ROWS.eu1, name: 'A' },
      { id: ROWS.eu1, name: 'B' },
    ])
    assert.equal(response.status, 400)
    assert.match(response.body.details, /listed twice/)
    assert.equal(await dataState(), before)
  })

  test('AZ7 bulk update where one post-image leaves the rules: whole batch refused', async ({
    assert,
  }) => {
    const before = await dataState()
    const response = await call('alice', 'PUT', C, [
      { id: ROWS.eu1, name: 'Fine' },
      { id: ROWS.eu2, region: 'US' },
    ])
    assert.equal(response.status, 403)
    assert.equal(await dataState(), before)
  })

  test('AZ8 bulk delete mixing visible and hidden rows: whole batch refused', async ({
    assert,
  }) => {
    const before = await dataState()
    const response = await call('alice', 'DELETE', C, [ROWS.eu1, ROWS.us1])
    assert.equal(response.status, 404)
    assert.equal(await dataState(), before, 'the visible row is not deleted either')
  })

  test('AZ9 a bulk request above svc.rest.max-bulk-size: 413, nothing changed', async ({
    assert,
  }) => {
    const before = await dataState()
    const many = Array.from({ length: 10_001 }, (_, i) => ({ name: `N${i}`, region: 'EU' }))
    const created = await call('admin', 'POST', C, many)
    assert.equal(created.status, 413)
    assert.equal(created.body.error, 'Too many entities')
    const deleted = await call('admin', 'DELETE', C, Array(10_001).fill(ROWS.eu1))
    assert.equal(deleted.status, 413)
    assert.equal(await dataState(), before)
  })

  test('AZ14 alice changes a view-only attribute: 403 for the whole request', async ({
    assert,
  }) => {
    const before = await dataState()
    const response = await call('alice', 'PUT', `${C}/${ROWS.eu1}`, {
      name: 'Renamed',
      creditLimit: 99999,
    })
    assert.equal(response.status, 403)
    assert.deepEqual(response.body, {
      error: 'Forbidden',
      details: `resource: ${CUSTOMER}.creditLimit, type: entityAttribute, action: modify`,
    })
    assert.equal(await dataState(), before, 'not a partial save')
    // Sending back the value she was shown changes nothing and is accepted.
    const same = await call('alice', 'PUT', `${C}/${ROWS.eu1}`, { name: 'R', creditLimit: 1000 })
    assert.equal(same.status, 200)
  })

  test('AZ15 erin writes an attribute she cannot see: 403, on single and bulk paths', async ({
    assert,
  }) => {
    const before = await dataState()
    const single = await call('erin', 'PUT', `${C}/${ROWS.eu1}`, { notes: 'x' })
    assert.equal(single.status, 403)
    const bulk = await call('erin', 'PUT', C, [{ id: ROWS.eu1, notes: 'x' }])
    assert.equal(bulk.status, 403)
    const same = await call('erin', 'PUT', `${C}/${ROWS.eu1}`, { notes: 'notes of Erika' })
    assert.equal(same.status, 403, 'a hidden attribute is refused even with the stored value')
    assert.equal(await dataState(), before)
    const allowed = await call('erin', 'PUT', `${C}/${ROWS.eu1}`, { name: 'Erika E.' })
    assert.equal(allowed.status, 200)
  })

  test('AZ16 an order with lines when line creation is not granted: 403, no rows', async ({
    assert,
  }) => {
    const before = await dataState()
    const response = await call('erin', 'POST', O, {
      number: 'O-NEW',
      customer: { id: ROWS.eu1 },
      lines: [{ product: 'x', qty: 1, price: 1 }],
    })
    assert.equal(response.status, 403)
    assert.equal(await dataState(), before, 'no order row, no line rows')
    const plain = await call('erin', 'POST', O, { number: 'O-NEW', customer: { id: ROWS.eu1 } })
    assert.equal(plain.status, 201)
  })

  test('AZ19 update without the hidden collection members keeps them', async ({ assert }) => {
    const shown = await call(
      'alice',
      'GET',
      `${O}/${ROWS.orderEu}?fetchPlan=${json({ properties: ['number', 'version', { name: 'lines', fetchPlan: { properties: ['product', 'qty'] } }] })}`
    )
    assert.equal(shown.status, 200)
    assert.deepEqual(
      shown.body.lines.map((l: any) => l.id),
      [ROWS.lineSmall],
      'the big line is hidden from alice'
    )
    const response = await call('alice', 'PUT', `${O}/${ROWS.orderEu}`, {
      version: 1,
      lines: [{ id: ROWS.lineSmall, product: 'pencil', qty: 3 }],
    })
    assert.equal(response.status, 200)
    const lines = await db.from('sec_order_line').where('order_id', ROWS.orderEu).orderBy('id')
    assert.deepEqual(
      lines.map((l) => [l.id, l.product, Number(l.qty)]),
      [
        [ROWS.lineSmall, 'pencil', 3],
        [ROWS.lineBig, 'paper', 500],
      ]
    )
  })
})

test.group('catalogue AZ rows: what reads reveal', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
  })

  test('AZ1 alice loads a customer of another region: 404', async ({ assert }) => {
    const response = await call('alice', 'GET', `${C}/${ROWS.us1}`)
    assert.equal(response.status, 404)
  })

  test('AZ10/AZ12 a reference to a hidden row is omitted: no id, no instance name', async ({
    assert,
  }) => {
    const plan = json({
      properties: ['number', { name: 'customer', fetchPlan: { properties: ['name', 'email'] } }],
    })
    const response = await call('carol', 'GET', `${O}?fetchPlan=${plan}`)
    assert.equal(response.status, 200)
    const byNumber = Object.fromEntries(response.body.map((o: any) => [o.number, o]))
    assert.notProperty(byNumber['O-EU'], 'customer')
    assert.notProperty(byNumber['O-US'], 'customer')
    const text = JSON.stringify(response.body)
    for (const hidden of ['Erika', 'Uma', ROWS.eu1, ROWS.us1]) assert.notInclude(text, hidden)
    assert.equal(byNumber['O-EU']._instanceName, 'O-EU')
  })

  test('AZ11 an attribute hidden in a composition is absent in every line', async ({ assert }) => {
    const plan = json({
      properties: ['number', { name: 'lines', fetchPlan: { properties: ['product', 'price'] } }],
    })
    const response = await call('bob', 'GET', `${O}/${ROWS.orderUs}?fetchPlan=${plan}`)
    assert.equal(response.status, 200, JSON.stringify(response.body))
    assert.lengthOf(response.body.lines, 1)
    for (const line of response.body.lines) {
      assert.equal(line.product, 'ink')
      assert.notProperty(line, 'price')
    }
  })

  test('AZ13 the instance name is never built from a hidden attribute', async ({ assert }) => {
    const response = await call('bob', 'GET', C)
    assert.equal(response.status, 200)
    for (const c of response.body) {
      assert.notProperty(c, 'creditLimit')
      assert.notProperty(c, 'notes')
      assert.notInclude(c._instanceName, '1000')
    }
    const alice = await call('alice', 'GET', `${C}/${ROWS.eu1}`)
    assert.equal(alice.body._instanceName, 'Erika 1000', 'alice may view creditLimit')
  })

  test('AZ20 a placeholder without a value for the caller matches nothing', async ({ assert }) => {
    const client = await makeClient({
      resourceRoles: ['api-reader'],
      rowLevelRoles: ['own-customers'],
    })
    tokens.set('svc', (await accessToken(client)).token)
    const response = await call('svc', 'GET', `${C}?returnCount=true`)
    assert.equal(response.status, 200)
    assert.deepEqual(response.body, [])
    assert.equal(response.headers.get('x-total-count'), '0')
  })

  test('AZ21 users and role assignments are not reachable through the generic API', async ({
    assert,
  }) => {
    const before = await db.from('mg_user_resource_roles').select('*').orderBy('user_id')
    for (const name of ['users', 'mg_user_resource_roles', 'User', 'sec$User']) {
      const response = await call('alice', 'POST', `${E}/${name}`, {
        username: 'alice',
        role_code: 'system-full-access',
      })
      assert.equal(response.status, 404, name)
    }
    assert.deepEqual(await db.from('mg_user_resource_roles').select('*').orderBy('user_id'), before)
  })

  test('AZ24 the same URL answers each identity with its own rows', async ({ assert }) => {
    const [alice, bob, anonymous] = await Promise.all([
      call('alice', 'GET', C),
      call('bob', 'GET', C),
      call('anonymous', 'GET', C),
    ])
    assert.deepEqual(alice.body.map((c: any) => c.name).sort(), ['Emil', 'Erika'])
    assert.deepEqual(bob.body.map((c: any) => c.name).sort(), ['Carla', 'Uma'])
    assert.equal(anonymous.status, 401)
  })

  test('AZ25 a user without rest.enabled is refused with tokens of every grant', async ({
    assert,
  }) => {
    const as = await discover()
    const cc = await createClient({ resourceRoles: [] })
    const ccTokens = await clientCredentialsTokens(as, cc.client.clientId, cc.secret)
    const redirect = 'http://127.0.0.1/cb'
    const web = await createClient({
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [redirect],
    })
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const flow = await authorizeThroughLogin({
      clientId: web.client.clientId,
      redirectUri: redirect,
      username: 'dave',
      password: 'S3cret-passw0rd',
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
      state,
    })
    const webClient = { client_id: web.client.clientId }
    const auth = oauth.ClientSecretBasic(web.secret)
    const params = oauth.validateAuthResponse(as, webClient, flow.callback, state)
    const code = await oauth.processAuthorizationCodeResponse(
      as,
      webClient,
      await oauth.authorizationCodeGrantRequest(
        as,
        webClient,
        auth,
        params,
        redirect,
        verifier,
        insecure
      )
    )
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      webClient,
      await oauth.refreshTokenGrantRequest(as, webClient, auth, code.refresh_token!, insecure)
    )
    for (const token of [ccTokens.access_token, code.access_token, refreshed.access_token]) {
      tokens.set('dave', token)
      const response = await call('dave', 'GET', C)
      assert.equal(response.status, 403)
      assert.equal(response.body.details, 'User is not allowed to use the REST API')
    }
  })

  test('AZ26 an anonymous pattern never elevates: the anonymous role applies', async ({
    assert,
  }) => {
    await importDoc({
      settings: { 'svc.resource-server.anonymous-url-patterns': '/rest/entities/**' },
    })
    try {
      const before = await dataState()
      const read = await call('anonymous', 'GET', C)
      assert.equal(read.status, 403)
      assert.equal(read.body.error, 'Reading forbidden')
      const write = await call('anonymous', 'POST', C, { name: 'Anon' })
      assert.equal(write.status, 403)
      const news = await call('anonymous', 'GET', `${E}/sec_PublicNews`)
      assert.equal(news.status, 200)
      assert.equal(await dataState(), before)
    } finally {
      await importDoc({
        settings: {
          'svc.resource-server.anonymous-url-patterns': '/rest/entities/sec_PublicNews/**',
        },
      })
    }
  })
})
