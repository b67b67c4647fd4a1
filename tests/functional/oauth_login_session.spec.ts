/**
 * A login session ends with a password change or a deactivation, like the user's tokens (issue
 * 19, item 1): the old session cookie no longer completes /oauth2/authorize, on any instance
 * (the check reads the user row).
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import {
  WEB_REDIRECT,
  authorizePath,
  fixture,
  issueCode,
  pkcePair,
  signedIn,
} from '#tests/helpers/oauth_catalogue'
import { changePassword, setUserActive } from '#oauth/accounts'
import type { Browser } from '#tests/helpers/oauth'

async function authorize(browser: Browser) {
  const { challenge } = await pkcePair()
  return browser.fetch(
    authorizePath({
      response_type: 'code',
      client_id: 'web',
      redirect_uri: WEB_REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's',
    })
  )
}

test.group('login sessions', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await fixture()
  })

  test('a password change ends the session: the old cookie gets the login form', async ({
    assert,
  }) => {
    const browser = await signedIn()
    await issueCode(browser, 'web', WEB_REDIRECT)
    await new Promise((r) => setTimeout(r, 5))
    await changePassword('alice', 'An0ther-passw0rd')
    const again = await authorize(browser)
    assert.equal(again.status, 302)
    assert.equal(again.headers.get('location'), '/as-login')
    // Signing in again (with the new password) works as before.
    const fresh = await signedIn('alice', 'An0ther-passw0rd')
    const { code } = await issueCode(fresh, 'web', WEB_REDIRECT)
    assert.isString(code)
  })

  test('a deactivation ends the session', async ({ assert }) => {
    const browser = await signedIn()
    await issueCode(browser, 'web', WEB_REDIRECT)
    await setUserActive('alice', false)
    const again = await authorize(browser)
    assert.equal(again.headers.get('location'), '/as-login')
  })
})
