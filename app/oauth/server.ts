/**
 * The authorization server's protocol entry points, on @node-oauth/oauth2-server: the token
 * endpoint (client_credentials, authorization_code + PKCE S256, refresh_token with rotation,
 * password as an opt-in) and the authorization endpoint. Errors are RFC 6749 section 5.2 JSON.
 */
import { createRequire } from 'node:module'
import OAuth2Server, {
  InvalidGrantError,
  OAuthError,
  Request,
  Response,
  UnauthorizedClientError,
  UnsupportedGrantTypeError,
} from '@node-oauth/oauth2-server'
import type { HttpContext } from '@adonisjs/core/http'
import type { AuthenticationMethod } from '#models/oauth_client'
import limiter from '@adonisjs/limiter/services/main'
import engine from '#engine/services/engine'
import { createModel, type GrantUser } from './model.js'
import { parseDuration } from './secrets.js'
import {
  databaseFailure,
  databaseFailureBody,
  type DatabaseFailure,
} from '#exceptions/database_errors'

/** RFC 6749 `temporarily_unavailable` (503, retry in a second) for a store that failed. */
function sendUnavailable(ctx: HttpContext, failure: DatabaseFailure) {
  ctx.response.header('Retry-After', '1')
  return sendOAuthError(ctx, 503, 'temporarily_unavailable', databaseFailureBody(failure).details)
}

/** Failed client authentications count per client id; too many -> 429 for a minute. */
function clientAttempts() {
  const requests = engine.properties.get<number>('svc.authserver.client-authentication-attempts')
  return limiter.use({ requests, duration: '1 min', blockDuration: '1 min' })
}

/** A repeated (`a=1&a=2`) or structured (`a[b]=1`, parsed into an object) parameter. */
function duplicateParameter(ctx: HttpContext): string | undefined {
  const body = ctx.request.body()
  // Catalogue OA28/OA29: `client_id[x]=y` used to reach the model as an object (500).
  return Object.keys(body).find((key) => body[key] !== null && typeof body[key] === 'object')
}

// The library's grant types are not exported; these subclasses fix two of their behaviours.
const requireCjs = createRequire(import.meta.url)
const AuthorizationCodeGrantType = requireCjs(
  '@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js'
)
const RefreshTokenGrantType = requireCjs(
  '@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js'
)

/**
 * RFC 6749 5.2 / RFC 7636 4.6: a verifier that does not fit the code (malformed included) and a
 * redirect_uri other than the authorization request's are `invalid_grant`; the library answers
 * `invalid_request` for a 42/129-character verifier and a different redirect_uri (OA16, OA21).
 * The code is consumed either way (the library revokes it before these checks).
 */
class CodeGrant extends AuthorizationCodeGrantType {
  verifyPKCE(request: Request, code: unknown) {
    try {
      return super.verifyPKCE(request, code)
    } catch (error) {
      if (error instanceof OAuthError && error.name === 'invalid_request')
        throw new InvalidGrantError('Invalid grant: code verifier is invalid')
      throw error
    }
  }

  validateRedirectUri(request: Request, code: { redirectUri?: string }) {
    const given = request.body.redirect_uri
    if (given && code.redirectUri && given !== code.redirectUri)
      throw new InvalidGrantError(
        'Invalid grant: redirect_uri differs from the authorization request'
      )
    return super.validateRedirectUri(request, code)
  }
}

/**
 * The library rotates (revokes) the presented refresh token before it checks the requested
 * scope, so a refresh asking for a wider scope (OA23) burnt the refresh token, and the client's
 * retry with it was then taken for a replay that revoked the whole grant. Scope first.
 */
class RefreshGrant extends RefreshTokenGrantType {
  async handle(request: Request, client: unknown) {
    const token = await this.getRefreshToken(request, client)
    const scope = this.getScope(request, token)
    await this.revokeToken(token)
    return this.saveToken(token.user, client, scope)
  }
}

/** The configured public base URL (svc.server.base-url), else the request's own origin. */
export function issuerOf(ctx: HttpContext): string {
  const configured = engine.properties.get<string>('svc.server.base-url')
  return configured
    ? configured.replace(/\/+$/, '')
    : `${ctx.request.protocol()}://${ctx.request.host()}`
}

/** `Authorization: Basic` credentials, form-urldecoded as RFC 6749 2.3.1 requires. */
export function basicCredentials(header: string): { id: string; secret: string } | null {
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (!match) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  // RFC 6749 2.3.1: both parts are form-urlencoded before Base64.
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    }
  } catch {
    return null
  }
}

function libraryRequest(ctx: HttpContext) {
  const headers = { ...ctx.request.headers() } as Record<string, string>
  const basic = basicCredentials(headers.authorization ?? '')
  if (basic) {
    // The library's Basic parser does not form-urldecode (strict clients encode `-`, `_`, ...).
    headers.authorization = `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}`
  }
  return new Request({
    method: ctx.request.method(),
    headers,
    query: ctx.request.qs(),
    body: ctx.request.method() === 'POST' ? ctx.request.body() : {},
  })
}

function send(ctx: HttpContext, response: Response, body: unknown) {
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (name.toLowerCase() !== 'content-type') ctx.response.header(name, value as string)
  }
  ctx.response.header('Cache-Control', 'no-store')
  ctx.response.header('Pragma', 'no-cache')
  ctx.response.status(response.status ?? 200).json(body)
}

/** RFC 6749 5.2: `{error, error_description}`; 401 + WWW-Authenticate for client failures. */
export function sendOAuthError(
  ctx: HttpContext,
  status: number,
  error: string,
  description?: string
) {
  if (status === 401) ctx.response.header('WWW-Authenticate', 'Basic realm="modelgate"')
  ctx.response.header('Cache-Control', 'no-store')
  // RFC 6749 5.2: error_description only in %x20-21 / %x23-5B / %x5D-7E (catalogue OA29); a
  // parameter name or a library message could bring `"`, `\\`, CR/LF or non-ASCII.
  const safe = description?.replace(/"/g, "'").replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, '')
  ctx.response.status(status).json(safe ? { error, error_description: safe } : { error })
}

/** Which client authentication the request uses; `invalid` when it mixes several. */
export function clientAuthMethod(ctx: HttpContext): AuthenticationMethod | null | 'invalid' {
  const basic = /^basic\s/i.test(ctx.request.header('authorization') ?? '')
  const form = formField(ctx, 'client_secret')
  const post = form !== undefined && form !== null
  if (basic && post) return 'invalid'
  if (basic) return 'client_secret_basic'
  if (post) return 'client_secret_post'
  return formField(ctx, 'client_id') ? 'none' : null
}

/**
 * A parameter of the form body only: client credentials and tokens never come from the URL
 * (RFC 6749 2.3.1; RFC 7009/7662 send them in the body), where logs and proxies keep them.
 */
export function formField(ctx: HttpContext, name: string): unknown {
  const body = ctx.request.body()
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined
}

/**
 * A grant the client may not use: the library says only `` `grant_type` is invalid ``; the
 * answer names the grant (a known one: the library refuses others as unsupported first).
 * The password grant is an opt-in of a few legacy clients, not advertised in the metadata
 * (OAuth 2.1 removed it): to every other client it is unsupported (catalogue OA8).
 */
function clarified(thrown: OAuthError, grant: string): OAuthError {
  if (thrown.name !== 'unauthorized_client') return thrown
  if (grant === 'password') return new UnsupportedGrantTypeError('Unsupported grant type: password')
  return new UnauthorizedClientError(
    `Unauthorized client: the client may not use the ${grant} grant`
  )
}

export async function handleTokenRequest(ctx: HttpContext) {
  const method = clientAuthMethod(ctx)
  if (method === 'invalid') {
    return sendOAuthError(
      ctx,
      400,
      'invalid_request',
      'Use exactly one client authentication method'
    )
  }
  if (method === null) {
    // Deliberate improvement over the upstream redirect: RFC 6749 says 401 invalid_client.
    return sendOAuthError(ctx, 401, 'invalid_client', 'Client authentication is required')
  }
  if (method === 'client_secret_basic') {
    // A Basic header with an empty id or secret is a failed authentication (401, catalogue
    // OA27); the library would answer 400 `Missing parameter: client_secret`.
    const credentials = basicCredentials(ctx.request.header('authorization') ?? '')
    if (credentials && (!credentials.id || !credentials.secret))
      return sendOAuthError(ctx, 401, 'invalid_client', 'Invalid client: client is invalid')
  }
  const duplicate = duplicateParameter(ctx)
  if (duplicate) {
    const name = duplicate.slice(0, 40)
    return sendOAuthError(ctx, 400, 'invalid_request', `Repeated or malformed parameter: ${name}`)
  }
  const clientKey = `oauth_client_${String(basicCredentials(ctx.request.header('authorization') ?? '')?.id ?? formField(ctx, 'client_id'))}`
  const attempts = clientAttempts()
  let state
  try {
    state = await attempts.get(clientKey)
  } catch (error) {
    // The rate-limit store (the database, or Redis with REDIS_URL) is down: nothing is issued.
    const failure = databaseFailure(error)
    if (!failure) throw error
    return sendUnavailable(ctx, failure)
  }
  if (state && state.remaining <= 0) {
    ctx.response.header('Retry-After', String(state.availableIn))
    return sendOAuthError(
      ctx,
      429,
      'invalid_client',
      'Too many failed client authentications; retry later'
    )
  }
  const server = new OAuth2Server({
    model: createModel({ authMethod: method, issuer: issuerOf(ctx), endpoint: 'token' }) as any,
    // Public clients (authentication method `none`) may refresh and redeem codes without a
    // secret; getClient() still refuses confidential clients that do not authenticate.
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    alwaysIssueNewRefreshToken: true,
    // Replace the built-in grant types of these names (see CodeGrant and RefreshGrant).
    extendedGrantTypes: { authorization_code: CodeGrant, refresh_token: RefreshGrant } as any,
  })
  const response = new Response()
  try {
    const token = await server.token(libraryRequest(ctx), response)
    const body: Record<string, unknown> = {
      access_token: token.accessToken,
      token_type: 'Bearer',
      expires_in: Math.max(
        0,
        Math.floor(((token.accessTokenExpiresAt?.getTime() ?? 0) - Date.now()) / 1000)
      ),
    }
    if (token.refreshToken) body.refresh_token = token.refreshToken
    if (token.scope) body.scope = Array.isArray(token.scope) ? token.scope.join(' ') : token.scope
    send(ctx, response, body)
  } catch (thrown) {
    if (!(thrown instanceof OAuthError)) throw thrown
    // The database failed under the grant (down, too slow, an SQLite file locked by another
    // process): nothing was issued and a retry may succeed (RFC 6749 temporarily_unavailable).
    const failure = databaseFailure((thrown as { inner?: unknown }).inner)
    if (failure) return sendUnavailable(ctx, failure)
    const error = clarified(thrown, String(formField(ctx, 'grant_type')))
    const status =
      error.code === 401 || error.name === 'invalid_client' ? 401 : error.code >= 500 ? 500 : 400
    if (error.name === 'invalid_client') {
      const { consumed, limit } = await attempts.increment(clientKey)
      if (consumed >= limit) await attempts.block(clientKey, '1 min')
    }
    sendOAuthError(ctx, status, error.name, status === 500 ? 'Server error' : error.message)
  }
}

/**
 * Runs the authorization endpoint for a signed-in user. Returns the redirect target, or an error
 * to show on a page (client or redirect URI invalid: never redirect anywhere then).
 */
export async function handleAuthorizeRequest(
  ctx: HttpContext,
  user: GrantUser
): Promise<{ redirect: string } | { error: string; description: string }> {
  const server = new OAuth2Server({
    model: createModel({ authMethod: null, issuer: issuerOf(ctx), endpoint: 'authorize' }) as any,
    allowEmptyState: true,
    authorizationCodeLifetime: parseDuration(
      engine.properties.get<string>('svc.authserver.authorization-code-time-to-live')
    ),
  })
  const response = new Response()
  try {
    await server.authorize(libraryRequest(ctx), response, {
      authenticateHandler: { handle: () => user },
    })
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error
    const location = response.get('location')
    if (response.status === 302 && location) return { redirect: location }
    return { error: error.name, description: error.message }
  }
  return { redirect: response.get('location') as string }
}
