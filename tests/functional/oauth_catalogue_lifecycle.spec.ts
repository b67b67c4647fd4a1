/**
 * Security test catalogue OA50: a user or client deactivated or deleted after tokens were issued
 * (through the accounts and clients services, as the console and the commands do). Access tokens
 * are refused on the very next request, refresh tokens and outstanding codes stop working.
 */
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { type Browser } from '#tests/helpers/oauth'
import { deleteUser, setUserActive } from '#oauth/accounts'
import { deleteClient, setClientActive } from '#oauth/clients'
import {
  SPA_REDIRECT,
  WEB_REDIRECT,
  assertOAuthError,
  basic,
  bearerStatus,
  fixture,
  issueCode,
  post,
  redeem,
  refresh,
  signedIn,
  type Fixture,
  type Holder,
} from '#tests/helpers/oauth_catalogue'

let fx: Fixture
let browser: Browser

/** Tokens from the code flow, plus one more unredeemed code, for `holder`. */
async function issued(holder: Holder) {
  const uri = holder === fx.spa ? SPA_REDIRECT : WEB_REDIRECT
  const first = await issueCode(browser, holder.client.clientId, uri)
  const tokens = (await redeem(holder, first.code, uri, { code_verifier: first.verifier })).body
  const pending = await issueCode(browser, holder.client.clientId, uri)
  assert200(await bearerStatus(tokens.access_token))
  return { tokens, pending, uri }
}

function assert200(status: number) {
  if (status !== 200) throw new Error(`token not usable before the change: ${status}`)
}

/** Access token 401 at once; refresh and the pending code refused with `error`. */
async function expectDead(
  assert: Assert,
  holder: Holder,
  grant: Awaited<ReturnType<typeof issued>>,
  status: number,
  error: string
) {
  assert.equal(await bearerStatus(grant.tokens.access_token), 401)
  assertOAuthError(assert, await refresh(holder, grant.tokens.refresh_token), status, error)
  const code = await redeem(holder, grant.pending.code, grant.uri, {
    code_verifier: grant.pending.verifier,
  })
  assertOAuthError(assert, code, status, error)
}

test.group('catalogue OA50: dead users and clients', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    fx = await fixture()
    browser = await signedIn()
  })

  test('OA50 user deactivated: tokens 401, refresh and codes invalid_grant, introspection inactive', async ({
    assert,
  }) => {
    const grant = await issued(fx.web)
    await setUserActive('alice', false)
    await expectDead(assert, fx.web, grant, 400, 'invalid_grant')
    const introspection = await post(
      '/oauth2/introspect',
      { token: grant.tokens.access_token },
      { authorization: basic('web', fx.web.secret!) }
    )
    assert.equal(introspection.text, '{"active":false}')
    // Reactivation does not revive them.
    await setUserActive('alice', true)
    assert.equal(await bearerStatus(grant.tokens.access_token), 401)
  })

  test('OA50 user deleted: tokens 401, refresh and codes invalid_grant', async ({ assert }) => {
    const grant = await issued(fx.spa)
    await deleteUser('alice')
    await expectDead(assert, fx.spa, grant, 400, 'invalid_grant')
    assert.lengthOf(await db.from('oauth_tokens'), 0)
    assert.lengthOf(await db.from('oauth_codes'), 0)
  })

  // For a dead client the token endpoint fails client authentication first (RFC 6749 5.2):
  // 401 invalid_client rather than the catalogue's invalid_grant, for refresh and codes alike.
  test('OA50 client deactivated: tokens 401, refresh and codes invalid_client', async ({
    assert,
  }) => {
    const web = await issued(fx.web)
    const spa = await issued(fx.spa)
    await setClientActive('web', false)
    await setClientActive('spa', false)
    await expectDead(assert, fx.web, web, 401, 'invalid_client')
    await expectDead(assert, fx.spa, spa, 401, 'invalid_client')
    await setClientActive('web', true)
    assert.equal(await bearerStatus(web.tokens.access_token), 401)
    assertOAuthError(assert, await refresh(fx.web, web.tokens.refresh_token), 400, 'invalid_grant')
  })

  test('OA50 client deleted: tokens 401, refresh and codes invalid_client', async ({ assert }) => {
    const web = await issued(fx.web)
    await deleteClient('web')
    await expectDead(assert, fx.web, web, 401, 'invalid_client')
    assert.lengthOf(await db.from('oauth_tokens'), 0)
  })
})
