/**
 * Helpers of tests/browser/roles.spec.ts: the admin API with an admin client's token, a user's
 * own token through the real login form (authorization code + PKCE with the console's client),
 * and the public REST API as that user.
 */
import * as oauth from 'oauth4webapi'
import { authorizeThroughLogin, baseUrl, discover, insecure } from '#tests/helpers/oauth'
import { accessToken, makeClient } from '#tests/helpers/resource_server'

let adminToken = ''

/** An admin client (system-admin) for the checks and the setup done through the admin API. */
export async function setupAdminApi() {
  const client = await makeClient({ resourceRoles: ['system-admin'] })
  adminToken = (await accessToken(client)).token
}

export async function adminApi(method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl()}/admin/api/${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${adminToken}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    body: text ? JSON.parse(text) : null,
    etag: response.headers.get('etag'),
  }
}

/** The user's access token, signed in through the login form of the console's OAuth client. */
export async function userToken(username: string, password: string) {
  const as = await discover()
  const clientId = 'modelgate-console'
  const redirectUri = `${baseUrl()}/console/callback`
  const verifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const flow = await authorizeThroughLogin({
    clientId,
    redirectUri,
    username,
    password,
    codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
    state,
  })
  const client = { client_id: clientId }
  const params = oauth.validateAuthResponse(as, client, flow.callback, state)
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    redirectUri,
    verifier,
    insecure
  )
  return (await oauth.processAuthorizationCodeResponse(as, client, response)).access_token
}

/** A GET of the public REST API with a bearer token. */
export async function restGet(token: string, path: string) {
  const response = await fetch(`${baseUrl()}/rest/${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

/** Retries `check` until it passes (role changes reach live tokens within a second). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > until) throw error
      await new Promise((resolve) => setTimeout(resolve, 150))
    }
  }
}
