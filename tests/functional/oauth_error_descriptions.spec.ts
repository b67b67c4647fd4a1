/**
 * OAuth errors that say what is wrong (issue 19 item 8): a grant the client may not use is
 * named in `error_description` (the library said only `` `grant_type` is invalid ``), and an
 * authorization request without `client_id` is `invalid_request` on the 400 page, not
 * `invalid_client`. Nothing is stored either way.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { Browser, oauthState } from '#tests/helpers/oauth'
import {
  assertOAuthError,
  basic,
  expectErrorPage,
  fixture,
  tokenRequest,
  type Fixture,
} from '#tests/helpers/oauth_catalogue'

let fx: Fixture

test.group('OAuth: error descriptions', (group) => {
  group.setup(async () => {
    await resetDatabase()
    fx = await fixture()
  })

  test('a grant the client may not use: unauthorized_client naming it', async ({ assert }) => {
    const before = await oauthState()
    const svc = basic('svc', fx.svc.secret!)
    const web = basic('web', fx.web.secret!)
    const cases: [string, Record<string, string>, string][] = [
      [svc, { grant_type: 'refresh_token', refresh_token: 'x' }, 'refresh_token'],
      [svc, { grant_type: 'authorization_code', code: 'x' }, 'authorization_code'],
      [web, { grant_type: 'client_credentials' }, 'client_credentials'],
    ]
    for (const [auth, params, grant] of cases) {
      const response = await tokenRequest(params, auth)
      assertOAuthError(assert, response, 400, 'unauthorized_client')
      assert.equal(
        response.body.error_description,
        `Unauthorized client: the client may not use the ${grant} grant`
      )
    }
    // The password grant stays unsupported to clients without the opt-in (catalogue OA8).
    const password = await tokenRequest(
      { grant_type: 'password', username: 'alice', password: 'x' },
      svc
    )
    assertOAuthError(assert, password, 400, 'unsupported_grant_type')
    assert.equal(password.body.error_description, 'Unsupported grant type: password')
    assert.deepEqual(await oauthState(), before, 'nothing stored')
  })

  test('/oauth2/authorize without parameters: invalid_request page, no redirect', async ({
    assert,
  }) => {
    await expectErrorPage(assert, new Browser(), {}, 'invalid_request')
    const page = await new Browser().fetch('/oauth2/authorize')
    assert.include(await page.text(), 'Missing parameter: client_id')
    // An unknown client stays invalid_client.
    await expectErrorPage(assert, new Browser(), { client_id: 'nobody' }, 'invalid_client')
  })
})
