/**
 * Fixture and raw HTTP helpers of the OA rows of the security test catalogue: the clients `svc`
 * (confidential, client credentials), `web` (confidential, authorization code), `spa` (public,
 * authorization code + PKCE) and `native` (public, loopback redirect), the user `alice`, and
 * token / authorize / login requests whose status, headers and body the tests assert exactly.
 */
import * as oauth from 'oauth4webapi'
import type OAuthClient from '#models/oauth_client'
import type { Assert } from '@japa/assert'
import { engine } from '#tests/helpers/engine'
import { Browser, baseUrl, createClient, createUser, oauthState } from '#tests/helpers/oauth'
import { definitions } from '#definition/main'

export const WEB_REDIRECT = 'https://good.example/cb'
export const SPA_REDIRECT = 'https://spa.example/cb'
export const NATIVE_REDIRECT = 'http://127.0.0.1:8400/cb'
export const PASSWORD = 'S3cret-passw0rd'

const CODE_GRANTS = ['authorization_code', 'refresh_token'] as const

/** A client and its secret (none for public clients: they send `client_id` only). */
export interface Holder {
  client: OAuthClient
  secret?: string
}

export async function fixture() {
  const svc = await createClient({ clientId: 'svc' })
  const web = await createClient({
    clientId: 'web',
    grantTypes: [...CODE_GRANTS],
    redirectUris: [WEB_REDIRECT],
  })
  const publicClient = { secretHash: null, authenticationMethods: ['none' as const] }
  const spa: Holder = {
    client: (
      await createClient({
        clientId: 'spa',
        ...publicClient,
        grantTypes: [...CODE_GRANTS],
        redirectUris: [SPA_REDIRECT],
      })
    ).client,
  }
  const native: Holder = {
    client: (
      await createClient({
        clientId: 'native',
        ...publicClient,
        grantTypes: [...CODE_GRANTS],
        redirectUris: [NATIVE_REDIRECT],
      })
    ).client,
  }
  const alice = await createUser('alice', PASSWORD)
  return { svc, web, spa, native, alice }
}

export type Fixture = Awaited<ReturnType<typeof fixture>>

/** Stored settings (take effect without a restart). */
export async function setSettings(settings: Record<string, unknown>) {
  const result = await definitions(await engine()).importDocument({ formatVersion: 1, settings })
  if (result.status !== 'applied') throw new Error(`settings not applied: ${result.status}`)
}

export interface Reply {
  status: number
  headers: Headers
  text: string
  body: any
}

async function reply(response: Response): Promise<Reply> {
  const text = await response.text()
  let body: any = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {}
  return { status: response.status, headers: response.headers, text, body }
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`

/** A form POST to an endpoint; array values are sent as repeated parameters. */
export async function post(
  path: string,
  params: Record<string, string | string[]>,
  headers: Record<string, string> = {}
): Promise<Reply> {
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(params))
    for (const v of [value].flat()) body.append(name, v)
  return reply(
    await fetch(`${baseUrl()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
      redirect: 'manual',
    })
  )
}

export const tokenRequest = (params: Record<string, string | string[]>, auth?: string) =>
  post('/oauth2/token', params, auth ? { authorization: auth } : {})

/** Status of GET /rest/userInfo with the token: 200 while it is usable, 401 once it is dead. */
export async function bearerStatus(token: string) {
  const response = await fetch(`${baseUrl()}/rest/userInfo`, {
    headers: { authorization: `Bearer ${token}` },
  })
  await response.arrayBuffer()
  return response.status
}

export async function pkcePair() {
  const verifier = oauth.generateRandomCodeVerifier()
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) }
}

/** /oauth2/authorize with exactly these query parameters (undefined ones left out). */
export function authorizePath(params: Record<string, string | undefined>) {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) query.append(name, value)
  return `/oauth2/authorize?${query}`
}

export async function signedIn(username = 'alice', password = PASSWORD) {
  const browser = new Browser()
  const login = await browser.signIn(username, password)
  if (login.status !== 302 || login.headers.get('location') !== '/')
    throw new Error(`sign-in of ${username} failed: ${login.status}`)
  return browser
}

/** An authorization request answered without a redirect to the client: the 400 error page. */
export async function expectErrorPage(
  assert: Assert,
  browser: Browser,
  params: Record<string, string | undefined>,
  error = 'invalid_request'
) {
  const before = await oauthState()
  const response = await browser.fetch(authorizePath(params))
  const html = await response.text()
  assert.equal(response.status, 400, `${JSON.stringify(params)}: ${html}`)
  assert.isNull(response.headers.get('location'), 'no redirect')
  assert.include(response.headers.get('content-type') ?? '', 'text/html')
  assert.include(html, `data-testid="oauth-error">${error}<`)
  assert.equal(response.headers.get('cache-control'), 'no-store')
  assert.deepEqual(await oauthState(), before, 'nothing stored')
}

/** An authorization request redirected to the client with `error` (and the original state). */
export async function expectErrorRedirect(
  assert: Assert,
  browser: Browser,
  params: Record<string, string | undefined>,
  redirectUri: string,
  error: string
) {
  const before = await oauthState()
  const response = await browser.fetch(authorizePath({ state: 'st-123', ...params }))
  assert.equal(response.status, 302, `${JSON.stringify(params)}: ${await response.text()}`)
  const location = new URL(response.headers.get('location')!)
  assert.equal(`${location.origin}${location.pathname}`, redirectUri)
  assert.equal(location.searchParams.get('error'), error)
  assert.equal(location.searchParams.get('state'), 'st-123')
  assert.isNull(location.searchParams.get('code'))
  assert.deepEqual(await oauthState(), before, 'no code stored')
  return location
}

/** A code for `clientId` through a signed-in browser; returns it with its verifier. */
export async function issueCode(
  browser: Browser,
  clientId: string,
  redirectUri: string,
  extra: Record<string, string | undefined> = {}
) {
  const { verifier, challenge } = await pkcePair()
  const response = await browser.fetch(
    authorizePath({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st-1',
      ...extra,
    })
  )
  const location = new URL(response.headers.get('location') ?? '', baseUrl())
  const code = location.searchParams.get('code')
  if (response.status !== 302 || !code)
    throw new Error(`no code: ${response.status} ${location} ${await response.text()}`)
  return { code, verifier, location }
}

/** Basic for confidential clients; public ones send `client_id` in the form. */
export const clientAuth = ({
  client,
  secret,
}: Holder): { params: Record<string, string>; auth?: string } =>
  secret
    ? { params: {}, auth: basic(client.clientId, secret) }
    : { params: { client_id: client.clientId }, auth: undefined }

/** Redeems a code for the client: Basic for confidential clients, client_id for public ones. */
export function redeem(
  holder: Holder,
  code: string,
  redirectUri: string,
  extra: Record<string, string | undefined> = {}
) {
  const { params: id, auth } = clientAuth(holder)
  const params: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    ...id,
  }
  for (const [name, value] of Object.entries(extra))
    if (value === undefined) delete params[name]
    else params[name] = value
  return tokenRequest(params, auth)
}

/** Refreshes with the client's own authentication. */
export function refresh(holder: Holder, refreshToken: string, extra: Record<string, string> = {}) {
  const { params, auth } = clientAuth(holder)
  return tokenRequest(
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...params, ...extra },
    auth
  )
}

/** RFC 6749 5.2 JSON error with `no-store`; 401 carries `WWW-Authenticate`. */
export function assertOAuthError(assert: Assert, response: Reply, status: number, error: string) {
  assert.equal(response.status, status, response.text)
  assert.equal(response.body?.error, error, response.text)
  assert.include(response.headers.get('content-type') ?? '', 'application/json')
  assert.equal(response.headers.get('cache-control'), 'no-store')
  if (status === 401) assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm=/)
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
