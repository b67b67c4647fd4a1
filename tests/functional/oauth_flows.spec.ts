/**
 * The authorization server driven by an independent, strict OAuth client (oauth4webapi):
 * discovery, client credentials, authorization code + PKCE through the real login form,
 * refresh rotation, revocation and introspection.
 */
import { test } from '@japa/runner'
import * as oauth from 'oauth4webapi'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  authorizeThroughLogin,
  baseUrl,
  createClient,
  createUser,
  discover,
  insecure,
} from '#tests/helpers/oauth'

const REDIRECT = 'http://127.0.0.1:9/callback'

test.group('oauth flows (oauth4webapi)', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('discovery metadata', async ({ assert }) => {
    const as = await discover()
    assert.equal(as.token_endpoint, `${baseUrl()}/oauth2/token`)
    assert.deepEqual(as.code_challenge_methods_supported, ['S256'])
    assert.notInclude(as.grant_types_supported as string[], 'password')
  })

  test('client credentials: a reference token, no refresh token', async ({ assert }) => {
    const as = await discover()
    const { client, secret } = await createClient()
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      { client_id: client.clientId },
      oauth.ClientSecretBasic(secret),
      new URLSearchParams(),
      insecure
    )
    const token = await oauth.processClientCredentialsResponse(
      as,
      { client_id: client.clientId },
      response
    )
    assert.equal(token.token_type, 'bearer')
    assert.lengthOf(token.access_token, 128)
    assert.isUndefined(token.refresh_token)
    assert.approximately(token.expires_in!, 300, 1)
    const rows = await db.from('oauth_tokens')
    assert.lengthOf(rows, 1)
    assert.notEqual(rows[0].token_hash, token.access_token)
  })

  test('authorization code + PKCE through the login form, then refresh with rotation', async ({
    assert,
  }) => {
    const as = await discover()
    const { client, secret } = await createClient({
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [REDIRECT],
    })
    const { user, password } = await createUser('alice')
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const flow = await authorizeThroughLogin({
      clientId: client.clientId,
      redirectUri: REDIRECT,
      username: user.username,
      password,
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
      state,
    })
    assert.equal(flow.first.status, 302)
    assert.equal(flow.first.headers.get('location'), '/as-login')
    assert.equal(flow.login.status, 302)
    assert.equal(flow.back.status, 302, await flow.back.clone().text())
    const oauthClient = { client_id: client.clientId }
    const auth = oauth.ClientSecretBasic(secret)
    const params = oauth.validateAuthResponse(as, oauthClient, flow.callback, state)
    const codeResponse = await oauth.authorizationCodeGrantRequest(
      as,
      oauthClient,
      auth,
      params,
      REDIRECT,
      verifier,
      insecure
    )
    const tokens = await oauth.processAuthorizationCodeResponse(as, oauthClient, codeResponse)
    assert.isString(tokens.refresh_token)

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      oauthClient,
      await oauth.refreshTokenGrantRequest(as, oauthClient, auth, tokens.refresh_token!, insecure)
    )
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token)

    // Replaying the rotated refresh token kills the whole grant, the new tokens included.
    const replay = await oauth.refreshTokenGrantRequest(
      as,
      oauthClient,
      auth,
      tokens.refresh_token!,
      insecure
    )
    assert.equal(replay.status, 400)
    assert.equal(((await replay.json()) as { error: string }).error, 'invalid_grant')
    const live = await db.from('oauth_tokens').whereNull('revoked_at')
    assert.lengthOf(live, 0)
  })

  test('revoke and introspect', async ({ assert }) => {
    const as = await discover()
    const { client, secret } = await createClient()
    const oauthClient = { client_id: client.clientId }
    const auth = oauth.ClientSecretBasic(secret)
    const token = await oauth.processClientCredentialsResponse(
      as,
      oauthClient,
      await oauth.clientCredentialsGrantRequest(
        as,
        oauthClient,
        auth,
        new URLSearchParams(),
        insecure
      )
    )
    const active = await oauth.processIntrospectionResponse(
      as,
      oauthClient,
      await oauth.introspectionRequest(as, oauthClient, auth, token.access_token, insecure)
    )
    assert.isTrue(active.active)
    assert.equal(active.client_id, client.clientId)
    const revoked = await oauth.revocationRequest(
      as,
      oauthClient,
      auth,
      token.access_token,
      insecure
    )
    await oauth.processRevocationResponse(revoked)
    const after = await oauth.processIntrospectionResponse(
      as,
      oauthClient,
      await oauth.introspectionRequest(as, oauthClient, auth, token.access_token, insecure)
    )
    assert.isFalse(after.active)
  })
})
