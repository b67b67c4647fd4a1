/**
 * Security test catalogue, authorization endpoint: OA1-OA9 and OA40 (PKCE rows OA10-OA16 are in
 * oauth_catalogue_pkce.spec.ts). Errors before the client and its exact redirect URI are
 * validated are a 400 page without Location; later errors redirect with `error` and `state`.
 * Every negative case also proves with oauthState() that no code or token was stored.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { Browser, createClient, oauthState } from '#tests/helpers/oauth'
import {
  NATIVE_REDIRECT,
  WEB_REDIRECT,
  authorizePath,
  basic,
  expectErrorPage,
  expectErrorRedirect,
  fixture,
  issueCode,
  pkcePair,
  redeem,
  signedIn,
  tokenRequest,
  assertOAuthError,
  type Fixture,
} from '#tests/helpers/oauth_catalogue'

let fx: Fixture
/** A valid authorization request of `web`; each test changes one thing. */
let web: Record<string, string | undefined>

test.group('catalogue OA1-OA9, OA40: authorization endpoint', (group) => {
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

  test('OA1 unregistered redirect_uri: 400 page, no redirect (signed in or not)', async ({
    assert,
  }) => {
    const evil = { ...web, redirect_uri: 'https://evil.example/cb' }
    await expectErrorPage(assert, new Browser(), evil)
    await expectErrorPage(assert, await signedIn(), evil)
  })

  test('OA2 suffix, extra segment, trailing slash, other case: 400 page', async ({ assert }) => {
    const browser = await signedIn()
    for (const uri of [
      'https://good.example/cbx',
      'https://good.example/cb/extra',
      'https://good.example/cb/',
      'https://good.example/CB',
      'https://GOOD.example/cb',
    ])
      await expectErrorPage(assert, browser, { ...web, redirect_uri: uri })
  })

  test('OA3 extra query parameter or #fragment: 400 page', async ({ assert }) => {
    const browser = await signedIn()
    for (const uri of [`${WEB_REDIRECT}?x=1`, `${WEB_REDIRECT}#frag`, `${WEB_REDIRECT}?`])
      await expectErrorPage(assert, browser, { ...web, redirect_uri: uri })
  })

  test('OA4 look-alike redirect URIs: 400 page', async ({ assert }) => {
    const browser = await signedIn()
    for (const uri of [
      'https://good.example@evil.example/cb',
      'https://good.example.evil.example/cb',
      'http://good.example/cb',
      'https://good.example%2Fcb',
      'https://good.example/%63b',
      'https://good.example/cb/../other',
      'https://good.example/x/../cb',
      'https://good.example:443/cb',
      ' https://good.example/cb',
    ])
      await expectErrorPage(assert, browser, { ...web, redirect_uri: uri })
  })

  test('OA5 loopback: another port allowed for 127.0.0.1 only', async ({ assert }) => {
    const browser = await signedIn()
    const otherPort = 'http://127.0.0.1:51234/cb'
    const { code, verifier, location } = await issueCode(browser, 'native', otherPort)
    assert.equal(`${location.origin}${location.pathname}`, otherPort)
    const tokens = await redeem(fx.native, code, otherPort, { code_verifier: verifier })
    assert.equal(tokens.status, 200, tokens.text)
    // Not for non-loopback hosts, `localhost`, another path or a userinfo trick.
    for (const uri of [
      'https://good.example:8443/cb',
      'http://localhost:8400/cb',
      'http://127.0.0.1:51234/cb/x',
      'http://127.0.0.1:51234@evil.example/cb',
      'https://127.0.0.1:8400/cb',
    ]) {
      const client = uri.startsWith('https://good') ? 'web' : 'native'
      await expectErrorPage(assert, browser, { ...web, client_id: client, redirect_uri: uri })
    }
    assert.notEqual(NATIVE_REDIRECT, otherPort)
  })

  test('OA6 unknown, missing, repeated or inactive client_id: 400 page', async ({ assert }) => {
    const browser = await signedIn()
    await expectErrorPage(assert, browser, { ...web, client_id: 'nobody' }, 'invalid_client')
    // A missing client_id is a malformed request (RFC 6749 4.1.2.1), an unknown one invalid.
    await expectErrorPage(assert, browser, { ...web, client_id: undefined }, 'invalid_request')
    await expectErrorPage(assert, browser, { ...web, client_id: '' }, 'invalid_request')
    const repeated = await browser.fetch(`${authorizePath(web)}&client_id=spa`)
    assert.equal(repeated.status, 400, await repeated.text())
    assert.isNull(repeated.headers.get('location'))
    await createClient({
      clientId: 'inactive',
      grantTypes: ['authorization_code'],
      redirectUris: [WEB_REDIRECT],
      active: false,
    })
    await expectErrorPage(assert, browser, { ...web, client_id: 'inactive' }, 'invalid_client')
  })

  test('OA7 no redirect_uri while several are registered: 400 page', async ({ assert }) => {
    await createClient({
      clientId: 'multi',
      grantTypes: ['authorization_code'],
      redirectUris: [WEB_REDIRECT, 'https://good.example/cb2'],
    })
    const browser = await signedIn()
    await expectErrorPage(assert, browser, { ...web, client_id: 'multi', redirect_uri: undefined })
    // With exactly one registered URI it may be omitted.
    const single = await browser.fetch(authorizePath({ ...web, redirect_uri: undefined }))
    assert.equal(single.status, 302)
    assert.match(single.headers.get('location')!, /^https:\/\/good\.example\/cb\?code=/)
  })

  test('OA8 response_type token / code token: unsupported_response_type; password grant refused', async ({
    assert,
  }) => {
    for (const browser of [new Browser(), await signedIn()]) {
      for (const type of ['token', 'code token', 'id_token'])
        await expectErrorRedirect(
          assert,
          browser,
          { ...web, response_type: type },
          WEB_REDIRECT,
          'unsupported_response_type'
        )
      const missing = { ...web, response_type: undefined }
      await expectErrorRedirect(assert, browser, missing, WEB_REDIRECT, 'invalid_request')
    }
    const before = await oauthState()
    const password = await tokenRequest(
      { grant_type: 'password', username: 'alice', password: 'S3cret-passw0rd' },
      basic('web', fx.web.secret!)
    )
    assertOAuthError(assert, password, 400, 'unsupported_grant_type')
    assert.deepEqual(await oauthState(), before)
  })

  test('OA9 an unknown extra parameter is ignored, the flow succeeds', async ({ assert }) => {
    const browser = await signedIn()
    const { code, verifier, location } = await issueCode(browser, 'web', WEB_REDIRECT, {
      extra: 'foobar',
    })
    assert.equal(location.searchParams.get('state'), 'st-1')
    assert.isNull(location.searchParams.get('extra'))
    const tokens = await redeem(fx.web, code, WEB_REDIRECT, { code_verifier: verifier })
    assert.equal(tokens.status, 200, tokens.text)
  })

  // OA40: there is no consent page (like upstream without require-authorization-consent), so
  // "deny consent" does not apply; cancelling the login form is the user's refusal.
  test('OA40 cancel on the login form: access_denied with the original state', async ({
    assert,
  }) => {
    const browser = new Browser()
    const before = await oauthState()
    const first = await browser.fetch(authorizePath(web))
    assert.equal(first.status, 302)
    assert.equal(first.headers.get('location'), '/as-login')
    const html = await (await browser.fetch('/as-login')).text()
    assert.include(html, "name='cancel'")
    const csrf = /name=["']_csrf["']\s+value=["']([^"']+)["']/.exec(html)![1]
    const cancel = await browser.fetch('/as-login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: '', password: '', cancel: '1', _csrf: csrf }),
    })
    assert.equal(cancel.status, 302)
    const location = new URL(cancel.headers.get('location')!)
    assert.equal(`${location.origin}${location.pathname}`, WEB_REDIRECT)
    assert.equal(location.searchParams.get('error'), 'access_denied')
    assert.equal(location.searchParams.get('state'), 'st-123')
    assert.isNull(location.searchParams.get('code'))
    assert.deepEqual(await oauthState(), before, 'no code, no token, no user change')
    // Still not signed in: a new authorization request goes to the login form again.
    const again = await browser.fetch(authorizePath(web))
    assert.equal(again.headers.get('location'), '/as-login')
  })
})
