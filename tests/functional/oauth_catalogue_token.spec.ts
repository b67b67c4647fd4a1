/**
 * Security test catalogue, token endpoint with codes and refresh tokens: OA17-OA24. Codes are
 * single-use (a replay revokes every token of the grant), short-lived and bound to their client
 * and redirect URI; refresh tokens rotate (a replay revokes the grant), cannot widen the scope
 * and are bound to their client. Tokens are checked against GET /rest/userInfo.
 */
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { createClient, oauthState, type Browser } from '#tests/helpers/oauth'
import { digest } from '#oauth/secrets'
import {
  SPA_REDIRECT,
  WEB_REDIRECT,
  assertOAuthError,
  basic,
  bearerStatus,
  fixture,
  issueCode,
  redeem,
  refresh,
  setSettings,
  signedIn,
  tokenRequest,
  type Fixture,
  type Holder,
} from '#tests/helpers/oauth_catalogue'

let fx: Fixture
let browser: Browser
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Tokens of `holder` (web by default) through the authorization code flow. */
async function codeTokens(holder: Holder = fx.web, extra: Record<string, string> = {}) {
  const uri = holder === fx.spa ? SPA_REDIRECT : WEB_REDIRECT
  const { code, verifier } = await issueCode(browser, holder.client.clientId, uri, extra)
  const response = await redeem(holder, code, uri, { code_verifier: verifier })
  if (response.status !== 200) throw new Error(`redeem failed: ${response.text}`)
  return { ...response.body, code, verifier } as {
    access_token: string
    refresh_token: string
    scope?: string
    code: string
    verifier: string
  }
}

/** The code is replayed: invalid_grant, and every token issued from it is dead at once. */
async function expectReplayKillsGrant(
  assert: Assert,
  first: Awaited<ReturnType<typeof codeTokens>>
) {
  assert.equal(await bearerStatus(first.access_token), 200)
  const replay = await redeem(fx.web, first.code, WEB_REDIRECT, { code_verifier: first.verifier })
  assertOAuthError(assert, replay, 400, 'invalid_grant')
  assert.equal(await bearerStatus(first.access_token), 401)
  assertOAuthError(assert, await refresh(fx.web, first.refresh_token), 400, 'invalid_grant')
  assert.lengthOf(await db.from('oauth_tokens').whereNull('revoked_at'), 0)
  const code = await db.from('oauth_codes').where('code_hash', digest(first.code)).first()
  assert.isNotNull(code.replayed_at)
}

/** A refused refresh request that changes nothing. */
async function expectRefused(
  assert: Assert,
  send: () => Promise<any>,
  status: number,
  error: string
) {
  const before = await oauthState()
  assertOAuthError(assert, await send(), status, error)
  assert.deepEqual(await oauthState(), before, 'nothing changed')
}

test.group('catalogue OA17-OA24: codes and refresh tokens', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    fx = await fixture()
    browser = await signedIn()
  })

  test('OA17 code used twice: invalid_grant, the first tokens revoked', async ({ assert }) => {
    await expectReplayKillsGrant(assert, await codeTokens())
  })

  test('OA18 code used again after 1 s and after 30 s', async ({ assert }) => {
    const first = await codeTokens()
    await sleep(1000)
    await expectReplayKillsGrant(assert, first)
    // 30 s: the first use is moved 30 s into the past instead of waiting (the code itself is
    // still within its 5 minute lifetime, as in the conformance test).
    const second = await codeTokens()
    const past = new Date(Date.now() - 30_000)
    await db
      .from('oauth_codes')
      .where('code_hash', digest(second.code))
      .update({ created_at: past, used_at: past })
    await expectReplayKillsGrant(assert, second)
  })

  test('OA19 20 concurrent redemptions of one code: at most one 200, then all revoked', async ({
    assert,
  }) => {
    const { code, verifier } = await issueCode(browser, 'web', WEB_REDIRECT)
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        redeem(fx.web, code, WEB_REDIRECT, { code_verifier: verifier })
      )
    )
    const ok = replies.filter((r) => r.status === 200)
    assert.isAtMost(ok.length, 1)
    for (const r of replies.filter((x) => x.status !== 200))
      assertOAuthError(assert, r, 400, 'invalid_grant')
    // Every attempt reached the check: whatever was issued is dead.
    assert.lengthOf(await db.from('oauth_tokens').whereNull('revoked_at'), 0)
    for (const r of ok) assert.equal(await bearerStatus(r.body.access_token), 401)
    const row = await db.from('oauth_codes').first()
    assert.isNotNull(row.used_at)
    assert.isNotNull(row.replayed_at)
  })

  test('OA20 code past its lifetime (2 s from settings): invalid_grant', async ({ assert }) => {
    await setSettings({ 'svc.authserver.authorization-code-time-to-live': '2s' })
    const { code, verifier } = await issueCode(browser, 'web', WEB_REDIRECT)
    await sleep(2100)
    await expectRefused(
      assert,
      () => redeem(fx.web, code, WEB_REDIRECT, { code_verifier: verifier }),
      400,
      'invalid_grant'
    )
    assert.lengthOf(await db.from('oauth_tokens'), 0)
  })

  test('OA21 code of another client, or another redirect_uri: invalid_grant', async ({
    assert,
  }) => {
    const web2 = await createClient({
      clientId: 'web2',
      grantTypes: ['authorization_code'],
      redirectUris: [WEB_REDIRECT],
    })
    const { code, verifier } = await issueCode(browser, 'web', WEB_REDIRECT)
    // Another client: refused before the code is touched, so the right client can still use it.
    for (const other of [web2, fx.spa])
      await expectRefused(
        assert,
        () => redeem(other, code, WEB_REDIRECT, { code_verifier: verifier }),
        400,
        'invalid_grant'
      )
    const good = await redeem(fx.web, code, WEB_REDIRECT, { code_verifier: verifier })
    assert.equal(good.status, 200, good.text)
    // Another redirect_uri: refused, and the code is used up.
    for (const uri of ['https://good.example/cb2', `${WEB_REDIRECT}/`]) {
      const second = await issueCode(browser, 'web', WEB_REDIRECT)
      const before = await oauthState()
      const response = await redeem(fx.web, second.code, uri, { code_verifier: second.verifier })
      assertOAuthError(assert, response, 400, 'invalid_grant')
      assert.deepEqual((await oauthState()).oauth_tokens, before.oauth_tokens, 'no token')
    }
  })

  test('OA22 rotated refresh token replayed: invalid_grant, the whole grant revoked', async ({
    assert,
  }) => {
    const first = await codeTokens()
    const rotated = await refresh(fx.web, first.refresh_token)
    assert.equal(rotated.status, 200, rotated.text)
    const second = rotated.body
    assert.notEqual(second.refresh_token, first.refresh_token)
    assert.equal(await bearerStatus(second.access_token), 200)
    assertOAuthError(assert, await refresh(fx.web, first.refresh_token), 400, 'invalid_grant')
    for (const token of [first.access_token, second.access_token])
      assert.equal(await bearerStatus(token), 401)
    assertOAuthError(assert, await refresh(fx.web, second.refresh_token), 400, 'invalid_grant')
    assert.lengthOf(await db.from('oauth_tokens').whereNull('revoked_at'), 0)
  })

  test('OA23 refresh with a wider scope: invalid_scope, the refresh token kept', async ({
    assert,
  }) => {
    const tokens = await codeTokens(fx.web, { scope: 'read' })
    assert.equal(tokens.scope, 'read')
    for (const scope of ['read write', 'write', 'read read2'])
      await expectRefused(
        assert,
        () => refresh(fx.web, tokens.refresh_token, { scope }),
        400,
        'invalid_scope'
      )
    // Not burnt by the refused request: the same refresh token still works (no replay alarm).
    const narrowed = await refresh(fx.web, tokens.refresh_token, { scope: 'read' })
    assert.equal(narrowed.status, 200, narrowed.text)
    assert.equal(await bearerStatus(narrowed.body.access_token), 200)
    // Without any granted scope, asking for one is widening too.
    const unscoped = await codeTokens(fx.spa)
    await expectRefused(
      assert,
      () => refresh(fx.spa, unscoped.refresh_token, { scope: 'read' }),
      400,
      'invalid_scope'
    )
  })

  test('OA24 refresh token of web presented by another client: refused, nothing changes', async ({
    assert,
  }) => {
    const tokens = await codeTokens()
    const web2 = await createClient({
      clientId: 'web2',
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [WEB_REDIRECT],
    })
    for (const other of [web2, fx.spa])
      await expectRefused(assert, () => refresh(other, tokens.refresh_token), 400, 'invalid_grant')
    // svc may not use the refresh_token grant at all: that is reported first (RFC 6749 5.2).
    await expectRefused(
      assert,
      () =>
        tokenRequest(
          { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
          basic('svc', fx.svc.secret!)
        ),
      400,
      'unauthorized_client'
    )
    const own = await refresh(fx.web, tokens.refresh_token)
    assert.equal(own.status, 200, own.text)
  })
})
