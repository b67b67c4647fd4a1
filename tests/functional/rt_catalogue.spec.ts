/**
 * Catalogue rows RT2-RT14 and RT16 (reference/security-test-catalogue.md): URL-pattern tricks
 * that must never widen an anonymous pattern nor escape an authenticated one. `/rest/userInfo`
 * is opened to anonymous callers; every other `/rest` URL needs a token.
 * (RT1: no context/base path is configurable here; RT15, RT17, RT18: http_hardening.spec.ts.)
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc } from '#tests/helpers/engine'
import { baseUrl } from '#tests/helpers/oauth'
import { grantAnonymous, raw, rawLine } from '#tests/helpers/resource_server'
import { definitions } from '#definition/main'

const OPEN = '/rest/userInfo'

/** Not served to anonymous callers: 400 (refused path) or 401 (needs a token), never 200. */
async function notAnonymous(assert: any, path: string, headers: Record<string, string> = {}) {
  const response = await raw(path, { headers })
  assert.oneOf(response.status, [400, 401, 404, 414], `${path} -> ${response.status}`)
  assert.notEqual(response.body?.username, 'anonymous', path)
  return response.status
}

test.group('catalogue RT rows: URL protection', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await importDoc({ settings: { 'svc.resource-server.anonymous-url-patterns': OPEN } })
    // The anonymous user's roles (it needs no rest.enabled on an anonymous URL, spec 5.6).
    return grantAnonymous()
  })

  test('the anonymous pattern works for the exact path', async ({ assert }) => {
    const response = await raw(OPEN)
    assert.equal(response.status, 200)
    assert.equal(response.body.username, 'anonymous')
  })

  test('RT2 dot segments, raw and encoded, are refused', async ({ assert }) => {
    for (const path of [
      '/rest/userInfo/../capabilities',
      '/rest/x/%2e%2e/userInfo',
      '/rest/x/%2E%2E/capabilities',
    ]) {
      assert.equal(await notAnonymous(assert, path), 400, path)
    }
  })

  test('RT3 double slashes are refused', async ({ assert }) => {
    for (const path of ['//rest/userInfo', '/rest//userInfo'])
      assert.equal(await notAnonymous(assert, path), 400)
  })

  test('RT4 encoded slashes are refused', async ({ assert }) => {
    assert.equal(await notAnonymous(assert, '/rest/userInfo%2F..%2Fcapabilities'), 400)
  })

  test('RT5 matrix parameters are refused', async ({ assert }) => {
    for (const path of ['/rest/userInfo;jsessionid=x/../capabilities', '/rest/userInfo;x']) {
      assert.equal(await notAnonymous(assert, path), 400)
    }
  })

  test('RT6 case variants are never anonymous', async ({ assert }) => {
    for (const path of ['/REST/userInfo', '/rest/USERINFO', '/rest/userinfo']) {
      assert.oneOf(await notAnonymous(assert, path), [401, 404])
    }
  })

  test('RT7 a pattern stops at the segment boundary', async ({ assert }) => {
    assert.equal(await notAnonymous(assert, '/rest/userInfoX'), 401)
  })

  test('RT8 a trailing slash behaves as in the router', async ({ assert }) => {
    assert.equal((await raw(`${OPEN}/`)).status, 200)
  })

  test('RT9 pattern text in the query never matches', async ({ assert }) => {
    assert.equal(await notAnonymous(assert, `/rest/capabilities?x=${OPEN}`), 401)
  })

  test('RT10 patterns are validated when stored; /** is never anonymous', async ({ assert }) => {
    const e = await engine()
    for (const value of ['/rest/docs/*, rest/x', '/rest/a b', '/**', '**', '/rest/x;y']) {
      const result = await definitions(e).importDocument({
        formatVersion: 1,
        settings: { 'svc.resource-server.anonymous-url-patterns': value },
      })
      assert.equal(result.status, 'invalid', value)
    }
    assert.deepEqual(e.properties.get('svc.resource-server.anonymous-url-patterns'), [OPEN])
  })

  test('RT11 rewrite and forwarding headers are ignored', async ({ assert }) => {
    for (const name of ['X-Original-URL', 'X-Rewrite-URL', 'X-Forwarded-Prefix']) {
      assert.equal(await notAnonymous(assert, '/rest/capabilities', { [name]: OPEN }), 401)
    }
  })

  test('RT12 a route outside the anonymous patterns never runs as anonymous', async ({
    assert,
  }) => {
    assert.equal(await notAnonymous(assert, '/rest/capabilities'), 401)
    assert.equal(await notAnonymous(assert, '/rest/entities/bookstore_Order'), 401)
  })

  test('RT13 absolute URLs use the configured base URL, not Host', async ({ assert }) => {
    await importDoc({ settings: { 'svc.server.base-url': 'https://api.example.com' } })
    const response = await raw('/.well-known/oauth-authorization-server', {
      headers: { Host: 'evil.example' },
    })
    assert.equal(response.body.issuer, 'https://api.example.com')
    assert.notInclude(response.text, 'evil.example')
    await importDoc({ settings: { 'svc.server.base-url': null } })
  })

  test('RT14 NUL and control characters, huge paths, TRACE, lower-case methods', async ({
    assert,
  }) => {
    assert.equal(await notAnonymous(assert, '/rest/userInfo%00'), 400)
    assert.equal(await notAnonymous(assert, `/rest/${'a'.repeat(10000)}`), 414)
    assert.oneOf(await rawLine('GET /rest/user\u0001Info HTTP/1.1'), [0, 400])
    assert.oneOf((await raw(OPEN, { method: 'TRACE' })).status, [400, 405])
    assert.oneOf(await rawLine(`get ${OPEN} HTTP/1.1`), [0, 400, 405])
  })

  test('RT16 Origin: null is never allowed', async ({ assert }) => {
    await importDoc({ settings: { 'svc.cors.allowed-origins': '*' } })
    const response = await fetch(`${baseUrl()}/health`, { headers: { Origin: 'null' } })
    assert.isNull(response.headers.get('access-control-allow-origin'))
    await importDoc({ settings: { 'svc.cors.allowed-origins': null } })
  })
})
