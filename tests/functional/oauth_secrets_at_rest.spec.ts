/**
 * After a full flow (client credentials, authorization code + PKCE through the login form,
 * refresh, a self-contained token), no client secret, password, token or code appears in clear
 * in any table of the database.
 */
import { test } from '@japa/runner'
import * as oauth from 'oauth4webapi'
import db from '@adonisjs/lucid/services/db'
import { listTables } from '#engine/main'
import { resetDatabase } from '#tests/helpers/database'
import {
  authorizeThroughLogin,
  createClient,
  createUser,
  discover,
  clientCredentialsTokens,
  insecure,
} from '#tests/helpers/oauth'

const REDIRECT = 'http://127.0.0.1:9/callback'

async function dumpEverything(): Promise<string> {
  const parts: string[] = []
  for (const table of [...(await listTables(db.connection()))].sort()) {
    const rows = await db.from(table).select('*')
    parts.push(JSON.stringify(rows, (_k, v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v)))
  }
  return parts.join('\n')
}

test.group('oauth: secrets at rest', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('no secret, password, token or code is stored in clear', async ({ assert }) => {
    const as = await discover()
    const secrets: string[] = []

    const machine = await createClient({ accessTokenFormat: 'self-contained' })
    secrets.push(machine.secret)
    const cc = await clientCredentialsTokens(as, machine.client.clientId, machine.secret)
    secrets.push(cc.access_token)

    const web = await createClient({
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [REDIRECT],
    })
    secrets.push(web.secret)
    const { user, password } = await createUser('carol', 'Carol-s3cret-passphrase')
    secrets.push(password)
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const flow = await authorizeThroughLogin({
      clientId: web.client.clientId,
      redirectUri: REDIRECT,
      username: user.username,
      password,
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
      state,
    })
    const webClient = { client_id: web.client.clientId }
    const auth = oauth.ClientSecretBasic(web.secret)
    const params = oauth.validateAuthResponse(as, webClient, flow.callback, state)
    secrets.push(params.get('code')!, verifier)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      webClient,
      await oauth.authorizationCodeGrantRequest(
        as,
        webClient,
        auth,
        params,
        REDIRECT,
        verifier,
        insecure
      )
    )
    secrets.push(tokens.access_token, tokens.refresh_token!)
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      webClient,
      await oauth.refreshTokenGrantRequest(as, webClient, auth, tokens.refresh_token!, insecure)
    )
    secrets.push(refreshed.access_token, refreshed.refresh_token!)

    const dump = await dumpEverything()
    assert.isAbove(dump.length, 1000)
    for (const secret of secrets) {
      assert.isAbove(secret.length, 15)
      assert.notInclude(dump, secret, 'a secret is stored in clear')
    }
    // The signing key's private part is encrypted, never a plain JWK.
    assert.include(dump, 'RS256')
    assert.notMatch(dump, /\\?"d\\?":\\?"[A-Za-z0-9_-]{40,}/)
  })
})
