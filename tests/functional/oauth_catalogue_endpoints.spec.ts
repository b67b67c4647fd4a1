/**
 * Security test catalogue, token storage, revocation, introspection and metadata: OA36-OA39 and
 * OA41. Reference tokens are long random strings of which only a SHA-256 digest is stored;
 * revocation and introspection require client authentication and never act on another client's
 * tokens; the metadata's issuer comes from svc.server.base-url, never from the request.
 */
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { baseUrl, createClient, oauthState } from '#tests/helpers/oauth'
import { digest } from '#oauth/secrets'
import {
  PASSWORD,
  WEB_REDIRECT,
  assertOAuthError,
  basic,
  bearerStatus,
  fixture,
  issueCode,
  post,
  redeem,
  refresh,
  setSettings,
  signedIn,
  tokenRequest,
  type Fixture,
  type Reply,
} from '#tests/helpers/oauth_catalogue'

let fx: Fixture
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function clientToken(clientId = 'svc', secret = fx.svc.secret!, scope?: string) {
  const response = await tokenRequest(
    { grant_type: 'client_credentials', ...(scope ? { scope } : {}) },
    basic(clientId, secret)
  )
  if (response.status !== 200) throw new Error(response.text)
  return response.body.access_token as string
}

async function expectRefused(
  assert: Assert,
  send: () => Promise<Reply>,
  status: number,
  error: string
) {
  const before = await oauthState()
  assertOAuthError(assert, await send(), status, error)
  assert.deepEqual(await oauthState(), before, 'nothing changed')
}

const introspect = (token: string, auth = basic('svc', fx.svc.secret!)) =>
  post('/oauth2/introspect', { token }, { authorization: auth })

test.group('catalogue OA36-OA39, OA41: storage, revocation, introspection, metadata', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    fx = await fixture()
  })

  test('credentials and tokens in the query string are never read (RFC 6749 2.3.1)', async ({
    assert,
  }) => {
    const token = await clientToken()
    const inUrl = new URLSearchParams({ client_id: 'svc', client_secret: fx.svc.secret! })
    for (const path of ['/oauth2/introspect', '/oauth2/revoke']) {
      // Secret in the URL, token in the body: no client authentication at all.
      await expectRefused(assert, () => post(`${path}?${inUrl}`, { token }), 401, 'invalid_client')
      // Authenticated, but the token only in the URL: a missing parameter.
      await expectRefused(
        assert,
        () => post(`${path}?token=${token}`, {}, { authorization: basic('svc', fx.svc.secret!) }),
        400,
        'invalid_request'
      )
    }
    assert.equal((await introspect(token)).body.active, true)
  })

  test('OA36 reference tokens: >= 128 random bits, only digests stored', async ({ assert }) => {
    const tokens = []
    for (let i = 0; i < 20; i++) tokens.push(await clientToken('svc', fx.svc.secret!, 'read'))
    const browser = await signedIn()
    const { code, verifier } = await issueCode(browser, 'web', WEB_REDIRECT)
    const flow = (await redeem(fx.web, code, WEB_REDIRECT, { code_verifier: verifier })).body
    tokens.push(flow.access_token, flow.refresh_token)
    // 96 random bytes, base64url: 768 bits; the code 32 bytes (256 bits).
    for (const token of tokens) assert.match(token, /^[A-Za-z0-9_-]{128}$/)
    assert.match(code, /^[A-Za-z0-9_-]{43}$/)
    assert.equal(new Set(tokens).size, tokens.length)
    assert.isAtLeast(new Set(tokens.join('')).size, 60, 'the whole base64url alphabet is used')
    // The stored rows are digests; the dump holds no token, code, secret or password.
    const dump = JSON.stringify(await oauthState())
    for (const value of [...tokens, code, verifier, fx.svc.secret!, fx.web.secret!, PASSWORD])
      assert.notInclude(dump, value)
    const hashes = (await db.from('oauth_tokens').select('token_hash')).map((r) => r.token_hash)
    for (const token of tokens) assert.include(hashes, digest(token))
    // A stolen digest is not a usable token.
    assert.equal(await bearerStatus(hashes[0]), 401)
    assert.equal(await bearerStatus(tokens[0]), 200)
  })

  test('OA37 revoke: bad client auth 401, foreign token refused, unknown token 200', async ({
    assert,
  }) => {
    const token = await clientToken()
    const other = await createClient({ clientId: 'svc2' })
    const revoke = (params: Record<string, string>, auth?: string) =>
      post('/oauth2/revoke', params, auth ? { authorization: auth } : {})
    for (const auth of [basic('svc', 'wrong'), basic('nobody', 'x'), undefined, `Bearer ${token}`])
      await expectRefused(assert, () => revoke({ token }, auth), 401, 'invalid_client')
    await expectRefused(
      assert,
      () => revoke({ token, client_id: 'svc', client_secret: 'wrong' }),
      401,
      'invalid_client'
    )
    // Another client's token: refused (upstream: invalid_client) and not revoked.
    await expectRefused(
      assert,
      () => revoke({ token }, basic('svc2', other.secret)),
      400,
      'invalid_client'
    )
    assert.equal(await bearerStatus(token), 200)
    // Unknown token: 200 with an empty body, nothing changes (RFC 7009 2.2).
    const before = await oauthState()
    const unknown = await revoke({ token: 'no-such-token' }, basic('svc', fx.svc.secret!))
    assert.equal(unknown.status, 200)
    assert.equal(unknown.text, '')
    assert.deepEqual(await oauthState(), before)
    // The owner revokes: dead on the very next request.
    const own = await revoke({ token }, basic('svc', fx.svc.secret!))
    assert.equal(own.status, 200)
    assert.equal(await bearerStatus(token), 401)
  })

  test('OA38 introspection without caller authentication: 401', async ({ assert }) => {
    const token = await clientToken()
    for (const auth of [undefined, `Bearer ${token}`, basic('svc', 'wrong'), basic('nobody', 'x')])
      await expectRefused(
        assert,
        () => post('/oauth2/introspect', { token }, auth ? { authorization: auth } : {}),
        401,
        'invalid_client'
      )
    const response = await introspect(token)
    assert.equal(response.status, 200)
    assert.isTrue(response.body.active)
  })

  test('OA39 introspect expired, revoked, rotated, unknown, foreign: {"active":false} only', async ({
    assert,
  }) => {
    const shortLived = await createClient({ clientId: 'short', accessTokenTtl: 1 })
    const expired = await clientToken('short', shortLived.secret)
    const revoked = await clientToken()
    await post(
      '/oauth2/revoke',
      { token: revoked },
      { authorization: basic('svc', fx.svc.secret!) }
    )
    const browser = await signedIn()
    const { code, verifier } = await issueCode(browser, 'web', WEB_REDIRECT)
    const tokens = (await redeem(fx.web, code, WEB_REDIRECT, { code_verifier: verifier })).body
    assert.equal((await refresh(fx.web, tokens.refresh_token)).status, 200)
    await sleep(1100)
    const foreign = await clientToken()
    const cases: [string, string][] = [
      [expired, basic('short', shortLived.secret)],
      [revoked, basic('svc', fx.svc.secret!)],
      [tokens.refresh_token, basic('web', fx.web.secret!)],
      ['no-such-token', basic('svc', fx.svc.secret!)],
      [foreign, basic('short', shortLived.secret)],
      [foreign, basic('web', fx.web.secret!)],
    ]
    for (const [token, auth] of cases) {
      const before = await oauthState()
      const response = await introspect(token, auth)
      assert.equal(response.status, 200)
      assert.equal(response.text, '{"active":false}')
      assert.equal(response.headers.get('cache-control'), 'no-store')
      assert.deepEqual(await oauthState(), before)
    }
    assert.isTrue((await introspect(foreign)).body.active, 'the owner still sees it active')
  })

  test('OA41 metadata: issuer from svc.server.base-url, S256, enabled grants only', async ({
    assert,
  }) => {
    for (const issuer of ['https://as.example.com', 'https://as.example.com/auth']) {
      await setSettings({ 'svc.server.base-url': issuer })
      const response = await fetch(`${baseUrl()}/.well-known/oauth-authorization-server`, {
        headers: { 'host': 'evil.example', 'x-forwarded-host': 'evil.example' },
      })
      assert.equal(response.status, 200)
      const metadata = (await response.json()) as Record<string, any>
      assert.equal(metadata.issuer, issuer)
      for (const name of ['authorization', 'token', 'revocation', 'introspection'])
        assert.isTrue(metadata[`${name}_endpoint`].startsWith(`${issuer}/oauth2/`))
      assert.deepEqual(metadata.code_challenge_methods_supported, ['S256'])
      assert.deepEqual(metadata.response_types_supported, ['code'])
      assert.sameMembers(metadata.grant_types_supported, [
        'authorization_code',
        'client_credentials',
        'refresh_token',
      ])
      assert.sameMembers(metadata.token_endpoint_auth_methods_supported, [
        'client_secret_basic',
        'client_secret_post',
        'none',
      ])
      for (const name of ['revocation', 'introspection'])
        assert.sameMembers(metadata[`${name}_endpoint_auth_methods_supported`], [
          'client_secret_basic',
          'client_secret_post',
        ])
      assert.notInclude(JSON.stringify(metadata), 'evil.example')
    }
  })
})
