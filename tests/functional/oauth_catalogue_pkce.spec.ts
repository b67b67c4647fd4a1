/**
 * Security test catalogue, PKCE: OA10-OA16. Missing, `plain` or malformed challenges are
 * redirected `invalid_request` errors before any code exists; at the token endpoint every
 * verifier problem is `invalid_grant`. A failed verification consumes the code (the library
 * revokes it before checking, against online guessing), so those rows assert "no token, the code
 * is used" rather than "nothing changed".
 */
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { Browser, createClient, oauthState } from '#tests/helpers/oauth'
import { digest } from '#oauth/secrets'
import {
  SPA_REDIRECT,
  WEB_REDIRECT,
  assertOAuthError,
  expectErrorRedirect,
  fixture,
  issueCode,
  pkcePair,
  redeem,
  signedIn,
  type Fixture,
  type Reply,
} from '#tests/helpers/oauth_catalogue'

let fx: Fixture
let web: Record<string, string | undefined>

/** A token request that must fail with invalid_grant: no token issued, only the code used up. */
async function expectBurntCode(assert: Assert, code: string, send: () => Promise<Reply>) {
  const row = () => db.from('oauth_codes').where('code_hash', digest(code)).first()
  assert.isNull((await row()).used_at, 'the code was fresh')
  const before = await oauthState()
  assertOAuthError(assert, await send(), 400, 'invalid_grant')
  const after = await oauthState()
  assert.deepEqual(after.oauth_tokens, before.oauth_tokens, 'no token issued')
  assert.deepEqual(after.users, before.users)
  assert.deepEqual(after.oauth_clients, before.oauth_clients)
  assert.lengthOf(after.oauth_codes, before.oauth_codes.length)
  assert.isNotNull((await row()).used_at, 'the code is used up')
}

test.group('catalogue OA10-OA16: PKCE', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    fx = await fixture()
    const { challenge } = await pkcePair()
    web = {
      response_type: 'code',
      client_id: 'web',
      redirect_uri: WEB_REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st-123',
    }
  })

  test('OA10 public client without code_challenge: invalid_request redirect', async ({
    assert,
  }) => {
    const spa = { ...web, client_id: 'spa', redirect_uri: SPA_REDIRECT }
    for (const browser of [new Browser(), await signedIn()]) {
      for (const without of [
        { code_challenge: undefined, code_challenge_method: undefined },
        { code_challenge: undefined },
        { code_challenge: '' },
      ])
        await expectErrorRedirect(
          assert,
          browser,
          { ...spa, ...without },
          SPA_REDIRECT,
          'invalid_request'
        )
    }
  })

  test('OA11 confidential client without code_challenge: invalid_request redirect', async ({
    assert,
  }) => {
    // requireProofKey is the registration default (true): PKCE for every client, OAuth 2.1.
    assert.isTrue(fx.web.client.requireProofKey)
    const without = { ...web, code_challenge: undefined, code_challenge_method: undefined }
    for (const browser of [new Browser(), await signedIn()])
      await expectErrorRedirect(assert, browser, without, WEB_REDIRECT, 'invalid_request')
  })

  test('OA12 code_challenge_method plain, omitted or not S256: invalid_request', async ({
    assert,
  }) => {
    const browser = await signedIn()
    for (const method of ['plain', undefined, '', 's256', 'S512'])
      await expectErrorRedirect(
        assert,
        browser,
        { ...web, code_challenge_method: method },
        WEB_REDIRECT,
        'invalid_request'
      )
  })

  test('OA13 code_challenge of 42 / 129 characters or with + / =: invalid_request', async ({
    assert,
  }) => {
    const browser = await signedIn()
    const base = 'a'.repeat(42)
    for (const challenge of [
      base,
      'a'.repeat(129),
      `${base}+`,
      `${base}/`,
      `${base}=`,
      `${'a'.repeat(43)}=`,
      `${base} `,
    ])
      await expectErrorRedirect(
        assert,
        browser,
        { ...web, code_challenge: challenge },
        WEB_REDIRECT,
        'invalid_request'
      )
  })

  test('OA14 code_verifier for a code issued without challenge: invalid_grant', async ({
    assert,
  }) => {
    // Only reachable through a legacy registration without the proof-key requirement.
    const legacy = await createClient({
      clientId: 'legacy',
      grantTypes: ['authorization_code'],
      redirectUris: [WEB_REDIRECT],
      requireProofKey: false,
    })
    const browser = await signedIn()
    const noChallenge = { code_challenge: undefined, code_challenge_method: undefined }
    const { code } = await issueCode(browser, 'legacy', WEB_REDIRECT, noChallenge)
    assert.isNull((await db.from('oauth_codes').first()).code_challenge)
    const { verifier } = await pkcePair()
    await expectBurntCode(assert, code, () =>
      redeem(legacy, code, WEB_REDIRECT, { code_verifier: verifier })
    )
  })

  test('OA15 no code_verifier for a code with a challenge: invalid_grant', async ({ assert }) => {
    const browser = await signedIn()
    for (const holder of [fx.web, fx.spa]) {
      const uri = holder === fx.web ? WEB_REDIRECT : SPA_REDIRECT
      for (const verifier of [undefined, '']) {
        const { code } = await issueCode(browser, holder.client.clientId, uri)
        await expectBurntCode(assert, code, () =>
          redeem(holder, code, uri, { code_verifier: verifier })
        )
      }
    }
  })

  test('OA16 wrong verifier, 42/129 characters, other case: invalid_grant', async ({ assert }) => {
    const browser = await signedIn()
    const swapCase = (v: string) =>
      [...v].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')
    const cases: ((verifier: string) => string)[] = [
      () => 'x'.repeat(43),
      (v) => v.slice(0, 42),
      (v) => v.padEnd(129, 'a'),
      swapCase,
      (v) => `${v} `,
      (v) => `${v}\n`,
    ]
    for (const wrong of cases) {
      const { code, verifier } = await issueCode(browser, 'spa', SPA_REDIRECT)
      assert.notEqual(wrong(verifier), verifier)
      await expectBurntCode(assert, code, () =>
        redeem(fx.spa, code, SPA_REDIRECT, { code_verifier: wrong(verifier) })
      )
      // The right verifier cannot redeem the burnt code any more.
      const late = await redeem(fx.spa, code, SPA_REDIRECT, { code_verifier: verifier })
      assertOAuthError(assert, late, 400, 'invalid_grant')
    }
    assert.lengthOf(await db.from('oauth_tokens'), 0)
  })
})
