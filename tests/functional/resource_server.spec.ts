/**
 * Resource-server protection of /rest/** through the real server: 401 shape, every way a token
 * can be missing or dead, tokens in URLs, anonymous patterns from stored settings. Every negative
 * case also proves that the token, user and client tables did not change.
 */
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc } from '#tests/helpers/engine'
import {
  accessToken,
  authState,
  bearer,
  changedElsewhere,
  makeClient,
  makeUser,
  raw,
  rawLine,
  grantAnonymous,
} from '#tests/helpers/resource_server'
import db from '@adonisjs/lucid/services/db'
import { revokeGrant } from '#oauth/token_store'
import { clearVerificationCache } from '#oauth/token_verifier'
import { deleteUser, setUserActive } from '#oauth/accounts'
import { setClientActive } from '#oauth/clients'
import { definitions } from '#definition/main'

const MISSING = 'Full authentication is required to access this resource'
const NOT_FOUND = 'Authorization for provided access token not found'
/** RFC 6750 3.1: no error code when the request carried no credentials at all (OA34). */
const challenge = (description: string) =>
  description === MISSING
    ? 'Bearer realm="modelgate"'
    : `Bearer realm="modelgate", error="invalid_token", error_description="${description}"`

/** Sends the request and asserts the exact 401 and that nothing changed. */
async function expect401(
  assert: Assert,
  path: string,
  description: string,
  headers: Record<string, string | string[]> = {}
) {
  const before = await authState()
  const response = await raw(path, { headers })
  assert.equal(response.status, 401, `${path}: ${response.text}`)
  assert.equal(response.headers['www-authenticate'], challenge(description))
  assert.include(response.headers['content-type'], 'application/json')
  assert.deepEqual(response.body, { error: 'unauthorized', error_description: description })
  assert.equal(await authState(), before, 'the token, user and client rows are unchanged')
}

const setAnonymous = (value: string | null, name = 'svc.resource-server.anonymous-url-patterns') =>
  importDoc({ settings: { [name]: value } })

test.group('resource server: tokens', (group) => {
  group.setup(async () => void (await resetDatabase()))
  group.each.setup(async () => void (await setAnonymous(null)))

  test('no token: 401 with the exact header and body, routed or not', async ({ assert }) => {
    await expect401(assert, '/rest/userInfo', MISSING)
    await expect401(assert, '/rest/no/such/route', MISSING)
    await expect401(assert, '/rest', MISSING)
    await expect401(assert, '/REST/userInfo', MISSING)
    await expect401(assert, '/rest/%75serInfo', MISSING)
    await expect401(assert, '/rest/userInfo?x=/health', MISSING)
    await expect401(assert, '/rest/userInfo', MISSING, { 'X-Original-URL': '/health' })
  })

  test('malformed Authorization headers and other schemes', async ({ assert }) => {
    const malformed = 'Bearer token is malformed'
    for (const value of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer a"b', 'Bearer =abc'])
      await expect401(assert, '/rest/userInfo', malformed, { Authorization: value })
    const scheme = 'Only the Bearer authorization scheme is accepted'
    for (const value of ['Basic dXNlcjpwYXNz', 'Token abc', 'Bearerabc', ''])
      await expect401(assert, '/rest/userInfo', scheme, { Authorization: value })
    await expect401(assert, '/rest/userInfo', malformed, {
      Authorization: ['Bearer a', 'Bearer b'],
    })
  })

  test('unknown and expired tokens', async ({ assert }) => {
    await expect401(assert, '/rest/userInfo', NOT_FOUND, bearer('no-such-token'))
    const client = await makeClient()
    const { token } = await accessToken(client, null, -5)
    await expect401(assert, '/rest/userInfo', 'The access token has expired', bearer(token))
  })

  test('a cached verification answers without a database query', async ({ assert }) => {
    const client = await makeClient()
    const { token } = await accessToken(client)
    assert.equal((await raw('/rest/userInfo', { headers: bearer(token) })).status, 200)
    // Removed behind the token store's back (no revocation, no security version bump): only
    // the in-memory cache can still know the token.
    await db.from('oauth_tokens').delete()
    assert.equal((await raw('/rest/userInfo', { headers: bearer(token) })).status, 200)
    clearVerificationCache()
    await expect401(assert, '/rest/userInfo', NOT_FOUND, bearer(token))
  })

  test('a revoked token stops at once, even when cached', async ({ assert }) => {
    const client = await makeClient()
    const { token, grantId } = await accessToken(client)
    assert.equal((await raw('/rest/userInfo', { headers: bearer(token) })).status, 200)
    await revokeGrant(grantId)
    await expect401(assert, '/rest/userInfo', 'The access token has been revoked', bearer(token))
  })

  test('a deactivated user stops at once, even when cached', async ({ assert }) => {
    const client = await makeClient()
    const user = await makeUser()
    const { token } = await accessToken(client, user)
    assert.equal((await raw('/rest/userInfo', { headers: bearer(token) })).status, 200)
    await setUserActive(user.username, false)
    const description = 'The user of the access token is no longer valid'
    await expect401(assert, '/rest/userInfo', description, bearer(token))
  })

  test('a deleted user stops at once', async ({ assert }) => {
    const client = await makeClient()
    const user = await makeUser()
    const { token } = await accessToken(client, user)
    assert.equal((await raw('/rest/userInfo', { headers: bearer(token) })).status, 200)
    await deleteUser(user.username)
    await expect401(assert, '/rest/userInfo', NOT_FOUND, bearer(token))
  })

  test('tokens_valid_after set by another instance: dead at the next refresh', async ({
    assert,
  }) => {
    const client = await makeClient()
    const user = await makeUser()
    const { token } = await accessToken(client, user)
    assert.equal((await raw('/rest/userInfo', { headers: bearer(token) })).status, 200)
    await new Promise((r) => setTimeout(r, 5))
    await changedElsewhere('users', user.id, { tokens_valid_after: new Date() })
    await (await engine()).refresh()
    const description = 'The user of the access token is no longer valid'
    await expect401(assert, '/rest/userInfo', description, bearer(token))
  })

  test('a deactivated client stops at once, for its client and user tokens', async ({ assert }) => {
    const client = await makeClient()
    const user = await makeUser()
    const own = await accessToken(client)
    const users = await accessToken(client, user)
    for (const { token } of [own, users])
      assert.equal((await raw('/rest/userInfo', { headers: bearer(token) })).status, 200)
    await setClientActive(client.clientId, false)
    const description = 'The client of the access token is no longer valid'
    await expect401(assert, '/rest/userInfo', description, bearer(own.token))
    await expect401(assert, '/rest/userInfo', description, bearer(users.token))
  })

  test('access_token in the query string is refused, even valid', async ({ assert }) => {
    const client = await makeClient()
    const { token } = await accessToken(client)
    const description =
      'Access tokens are accepted only in the Authorization header, not in the query string or form body'
    await expect401(assert, `/rest/userInfo?access_token=${token}`, description)
    // Header and query at once is a malformed request (RFC 6750 3.1, catalogue OA31).
    const both = await raw(`/rest/userInfo?access_token=${token}`, { headers: bearer(token) })
    assert.equal(both.status, 400)
    assert.equal(both.body.error, 'invalid_request')
    await expect401(assert, `/rest/userInfo?access%5Ftoken=${token}`, description)
    await setAnonymous('/rest/userInfo')
    await expect401(assert, `/rest/userInfo?access_token=${token}`, description)
  })
})

test.group('resource server: anonymous patterns and open URLs', (group) => {
  group.setup(async () => void (await resetDatabase()))
  // The anonymous user's roles (it needs no rest.enabled on an anonymous URL, spec 5.6).
  group.setup(async () => grantAnonymous())
  group.each.setup(async () => void (await setAnonymous(null)))

  test('an anonymous pattern from stored settings applies without a restart', async ({
    assert,
  }) => {
    await expect401(assert, '/rest/userInfo', MISSING)
    await setAnonymous('/rest/userInfo')
    for (const path of ['/rest/userInfo', '/rest/userInfo/']) {
      const response = await raw(path)
      assert.equal(response.status, 200, path)
      assert.equal(response.body.username, 'anonymous')
    }
    // Not widened by case or needless escapes.
    await expect401(assert, '/REST/userInfo', MISSING)
    await expect401(assert, '/rest/userinfo', MISSING)
    await expect401(assert, '/rest/%75serInfo', MISSING)
    await setAnonymous(null)
    await expect401(assert, '/rest/userInfo', MISSING)
  })

  test('the legacy svc.rest.anonymous-url-patterns is honoured too', async ({ assert }) => {
    await importDoc({ settings: { 'svc.rest.anonymous-url-patterns': '/rest/user*' } })
    try {
      assert.equal((await raw('/rest/userInfo')).body.username, 'anonymous')
    } finally {
      await importDoc({ settings: { 'svc.rest.anonymous-url-patterns': null } })
    }
  })

  test('an invalid token on an anonymous URL is still 401', async ({ assert }) => {
    await setAnonymous('/rest/userInfo')
    await expect401(assert, '/rest/userInfo', NOT_FOUND, bearer('no-such-token'))
    await expect401(assert, '/rest/userInfo', 'Bearer token is malformed', {
      Authorization: 'Bearer',
    })
    const client = await makeClient()
    const { token } = await accessToken(client, null, -5)
    await expect401(assert, '/rest/userInfo', 'The access token has expired', bearer(token))
    const valid = await accessToken(client)
    const response = await raw('/rest/userInfo', { headers: bearer(valid.token) })
    assert.equal(response.body.username, client.clientId, 'a valid token names the subject')
  })

  test('path tricks are refused with 400 before any pattern', async ({ assert }) => {
    await setAnonymous('/rest/docs/**')
    const tricks = [
      '//rest/userInfo',
      '/rest//userInfo',
      '/rest/docs/..%2FuserInfo',
      '/rest/docs/%2e%2e/userInfo',
      '/rest/docs/%2E%2E/userInfo',
      '/rest/docs/../userInfo',
      '/rest/docs/./x',
      '/rest/userInfo;jsessionid=1',
      '/rest/docs/x;jsessionid=1/../../userInfo',
      '/rest/docs\\..\\userInfo',
      '/rest/docs/%5C..%5CuserInfo',
      '/rest/docs/%252e%252e/userInfo',
      'http://127.0.0.1/rest/userInfo',
    ]
    for (const path of tricks) {
      const before = await authState()
      const response = await raw(path)
      assert.equal(response.status, 400, `${path}: ${response.text}`)
      assert.equal(response.body.error, 'Bad request', path)
      assert.isUndefined(response.headers['www-authenticate'])
      assert.equal(await authState(), before)
    }
    const long = await raw(`/rest/docs/${'a'.repeat(5000)}`)
    assert.equal(long.status, 414)
    // Request lines the HTTP parser itself refuses never reach a pattern.
    for (const line of ['GET /rest/docs/x\u0000 HTTP/1.1', 'get /rest/userInfo HTTP/1.1'])
      assert.equal(await rawLine(line), 400, JSON.stringify(line))
  })

  test('open URLs: no token needed, a bad token ignored, a valid one named', async ({ assert }) => {
    assert.equal((await raw('/health')).status, 200)
    assert.equal((await raw('/health', { headers: bearer('no-such-token') })).status, 200)
    assert.equal((await raw('/health', { headers: { Authorization: 'Basic eDp5' } })).status, 200)
    const unknown = await raw('/no/such/route')
    assert.equal(unknown.status, 404)
  })

  test('a valid token on an unrouted /rest URL gets past the guard (404)', async ({ assert }) => {
    const client = await makeClient()
    const { token } = await accessToken(client)
    assert.equal((await raw('/rest/no/such/route', { headers: bearer(token) })).status, 404)
  })

  test('CORS: the preflight is not blocked and a 401 carries CORS headers', async ({ assert }) => {
    // Cross-origin access is opt-in (config/cors.ts): allow the console's dev origin.
    await definitions(await engine()).importDocument({
      formatVersion: 1,
      settings: { 'svc.cors.allowed-origins': 'http://localhost:5173' },
    })
    const preflight = await raw('/rest/userInfo', {
      method: 'OPTIONS',
      headers: {
        'Origin': 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    })
    assert.equal(preflight.status, 204)
    assert.isDefined(preflight.headers['access-control-allow-origin'])
    const denied = await raw('/rest/userInfo', { headers: { Origin: 'http://localhost:5173' } })
    assert.equal(denied.status, 401)
    assert.isDefined(denied.headers['access-control-allow-origin'])
    assert.isDefined(denied.headers['www-authenticate'])
  })
})
