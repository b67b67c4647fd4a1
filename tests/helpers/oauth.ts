/**
 * OAuth test helpers: clients and users in the database, a cookie-keeping browser-like fetch,
 * and the full authorization-code + PKCE flow through the real login form.
 */
import * as oauth from 'oauth4webapi'
import db from '@adonisjs/lucid/services/db'
import OAuthClient from '#models/oauth_client'
import User from '#models/user'
import { digest, randomToken } from '#oauth/secrets'

export const baseUrl = () => `http://${process.env.HOST}:${process.env.PORT}`
export const insecure = { [oauth.allowInsecureRequests]: true }

export async function createClient(overrides: Partial<OAuthClient> = {}) {
  const secret = randomToken(32)
  const client = await OAuthClient.create({
    clientId: `client-${randomToken(6)}`,
    secretHash: digest(secret),
    authenticationMethods: ['client_secret_basic', 'client_secret_post'],
    grantTypes: ['client_credentials'],
    redirectUris: [],
    requireProofKey: true,
    accessTokenFormat: 'reference',
    accessTokenTtl: 300,
    refreshTokenTtl: 86400,
    // Tests of other subsystems act with full access; security tests pass their own roles.
    resourceRoles: ['system-full-access'],
    rowLevelRoles: [],
    managedBy: 'database',
    active: true,
    ...overrides,
  })
  return { client, secret }
}

export async function createUser(
  username = `user-${randomToken(4)}`,
  password = 'S3cret-passw0rd',
  roles: { resourceRoles?: string[]; rowLevelRoles?: string[] } = {}
) {
  const user = await User.create({ username, password, active: true, locale: 'en' })
  const resourceRoles = roles.resourceRoles ?? ['system-full-access']
  const rowLevelRoles = roles.rowLevelRoles ?? []
  for (const code of resourceRoles)
    await db.table('mg_user_resource_roles').insert({ user_id: user.id, role_code: code })
  for (const code of rowLevelRoles)
    await db.table('mg_user_row_level_roles').insert({ user_id: user.id, role_code: code })
  return { user, password }
}

export async function discover() {
  const issuer = new URL(baseUrl())
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure })
  return oauth.processDiscoveryResponse(issuer, response)
}

/** fetch that keeps cookies like a browser and never follows redirects by itself. */
/** The token response of a client-credentials grant (client_secret_basic) at `as`. */
export async function clientCredentialsTokens(
  as: oauth.AuthorizationServer,
  clientId: string,
  secret: string
) {
  const client = { client_id: clientId }
  return oauth.processClientCredentialsResponse(
    as,
    client,
    await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(secret),
      new URLSearchParams(),
      insecure
    )
  )
}

export class Browser {
  cookies = new Map<string, string>()

  async fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers)
    if (this.cookies.size)
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    const response = await fetch(new URL(url, baseUrl()), { ...init, headers, redirect: 'manual' })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const eq = pair.indexOf('=')
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
    }
    return response
  }

  /** Posts the login form found at /as-login (with its CSRF token). */
  async signIn(username: string, password: string) {
    const page = await this.fetch('/as-login')
    const html = await page.text()
    const csrf = /name=["']_csrf["']\s+value=["']([^"']+)["']/.exec(html)?.[1] ?? ''
    return this.fetch('/as-login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username, password, _csrf: csrf }),
    })
  }
}

/** Runs /oauth2/authorize -> login form -> redirect with code; returns the callback URL. */
export async function authorizeThroughLogin(options: {
  clientId: string
  redirectUri: string
  username: string
  password: string
  codeChallenge: string
  state: string
}) {
  const browser = new Browser()
  const authorize = new URL('/oauth2/authorize', baseUrl())
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    code_challenge: options.codeChallenge,
    code_challenge_method: 'S256',
    state: options.state,
  }).toString()
  const first = await browser.fetch(authorize.toString())
  const login = await browser.signIn(options.username, options.password)
  const back = await browser.fetch(login.headers.get('location') ?? '/')
  return {
    browser,
    first,
    login,
    callback: new URL(back.headers.get('location') ?? '', baseUrl()),
    back,
  }
}

/** The tables an OAuth request may change; `oauthState()` fingerprints them. */
export const OAUTH_TABLES = ['users', 'oauth_clients', 'oauth_tokens', 'oauth_codes'] as const

/**
 * Oracle "nothing happened" (catalogue 2.1) for the authorization server: every row of the user,
 * client, token and code tables ordered by id, revoked/rotated/used/replayed timestamps included,
 * with dates as ISO strings so that SQLite and PostgreSQL rows compare alike.
 */
export async function oauthState(): Promise<Record<(typeof OAUTH_TABLES)[number], unknown[]>> {
  const state: Record<string, unknown[]> = {}
  for (const table of OAUTH_TABLES) state[table] = await db.from(table).select('*').orderBy('id')
  return JSON.parse(JSON.stringify(state))
}
