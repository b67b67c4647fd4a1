/**
 * The console's own public OAuth client (issue 16 item 4): seeded at start like a configured
 * client, authorization code + PKCE with a redirect to the server's own /console/callback, and
 * the admin user can sign in with it and call the admin API.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import * as oauth from 'oauth4webapi'
import { resetDatabase } from '#tests/helpers/database'
import { engine } from '#tests/helpers/engine'
import {
  authorizeThroughLogin,
  baseUrl,
  createUser,
  discover,
  insecure,
} from '#tests/helpers/oauth'
import { CONSOLE_CLIENT_ID } from '#oauth/config_clients'
import { findClient } from '#oauth/clients'
import { syncClientsFromProperties } from '#start/bootstrap'
import { definitions } from '#definition/main'

const quiet = { warn() {}, info() {} } as any

test.group('the console client', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    const e = await engine()
    return () => e.properties.loadStatic(app.configPath('application.properties'))
  })

  test('seeded public, PKCE, callback on the base URL and on loopback; not exported', async ({
    assert,
  }) => {
    const e = await engine()
    await e.properties.loadStatic(null, { SVC_SERVER_BASE_URL: 'https://admin.example.com/' })
    const result = await syncClientsFromProperties(e, quiet, 8080)
    assert.include(result.created, CONSOLE_CLIENT_ID)
    const client = (await findClient(CONSOLE_CLIENT_ID))!
    assert.deepEqual(client.authenticationMethods, ['none'])
    assert.deepEqual(client.grantTypes, ['authorization_code', 'refresh_token'])
    assert.isTrue(client.requireProofKey)
    assert.isNull(client.secretHash)
    assert.equal(client.managedBy, 'config')
    assert.deepEqual(client.redirectUris, [
      'https://admin.example.com/console/callback',
      'http://localhost:8080/console/callback',
      'http://127.0.0.1/console/callback',
    ])
    const exported = await definitions(e).exportDocument()
    assert.notProperty(exported, 'clients')
    // A second start changes nothing.
    const again = await syncClientsFromProperties(e, quiet, 8080)
    assert.deepEqual([...again.created, ...again.updated], [])
  })

  test('the admin signs in through it (code + PKCE) and calls the admin API', async ({
    assert,
  }) => {
    const e = await engine()
    await syncClientsFromProperties(e, quiet, 8080)
    const { user, password } = await createUser('console-admin', 'S3cret-passw0rd', {
      resourceRoles: ['system-admin'],
    })
    const as = await discover()
    const redirect = `http://127.0.0.1:${process.env.PORT}/console/callback`
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const flow = await authorizeThroughLogin({
      clientId: CONSOLE_CLIENT_ID,
      redirectUri: redirect,
      username: user.username,
      password,
      codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
      state,
    })
    assert.equal(flow.callback.pathname, '/console/callback')
    const client = { client_id: CONSOLE_CLIENT_ID }
    const params = oauth.validateAuthResponse(as, client, flow.callback, state)
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirect,
      verifier,
      insecure
    )
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response)
    assert.isString(tokens.refresh_token)
    const definition = await fetch(`${baseUrl()}/admin/api/definition`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    })
    assert.equal(definition.status, 200)
  })
})
