/**
 * The resource server's decisions, independent of the HTTP framework: which kind of URL a request
 * targets, how the Authorization header is read, and the shape of a 401 (spec section 7):
 *
 *   WWW-Authenticate: Bearer realm="modelgate", error="invalid_token", error_description="..."
 *   {"error":"unauthorized","error_description":"..."}
 */
import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { anonymousMatcher, matcherFor } from './url_patterns.js'

export const REALM = 'modelgate'

export const MISSING_TOKEN = 'Full authentication is required to access this resource'
export const MALFORMED_TOKEN = 'Bearer token is malformed'
export const WRONG_SCHEME = 'Only the Bearer authorization scheme is accepted'
export const TWO_TOKEN_METHODS =
  'The access token was sent in more than one way; use only the Authorization header'
export const TOKEN_IN_URL =
  'Access tokens are accepted only in the Authorization header, not in the query string or form body'

export type UrlKind = 'authenticated' | 'anonymous' | 'open'

/**
 * `anonymous`: an anonymous pattern matches (case-sensitively, canonical request only);
 * `authenticated`: an authenticated pattern matches and no anonymous one does; `open`: neither.
 */
export function classifyPath(path: string, raw: string, canonical: boolean): UrlKind {
  const properties = engine.properties
  if (canonical) {
    const anonymous = anonymousMatcher(
      properties.get<string[]>('svc.resource-server.anonymous-url-patterns'),
      properties.get<string[]>('svc.rest.anonymous-url-patterns')
    )
    if (anonymous.test(path)) return 'anonymous'
  }
  const authenticated = matcherFor(
    properties.get<string[]>('svc.resource-server.authenticated-url-patterns'),
    false
  )
  return authenticated.test(path) || authenticated.test(raw) ? 'authenticated' : 'open'
}

/** RFC 6750 b64token after `Bearer` (scheme case-insensitive). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i

export type Credentials = { token: string } | { error: string } | null

/** Reads the Authorization header(s): null when absent; a refusal when present but unusable. */
export function readAuthorization(ctx: HttpContext): Credentials {
  const values = ctx.request.request.headersDistinct.authorization
  if (!values || values.length === 0) return null
  if (values.length > 1) return { error: MALFORMED_TOKEN }
  const value = values[0]
  const match = BEARER.exec(value)
  if (match) return { token: match[1] }
  return /^Bearer(\s|$)/i.test(value) ? { error: MALFORMED_TOKEN } : { error: WRONG_SCHEME }
}

/** Whether `access_token` was sent in the query string (refused: tokens travel in headers). */
export function tokenInQuery(ctx: HttpContext): boolean {
  return Object.hasOwn(ctx.request.qs(), 'access_token')
}

/** Whether a urlencoded form body carries `access_token` (after the body parser ran). */
export function tokenInForm(ctx: HttpContext): boolean {
  const type = ctx.request.header('content-type') ?? ''
  if (!/^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) return false
  const body = ctx.request.body()
  return body !== null && typeof body === 'object' && Object.hasOwn(body, 'access_token')
}

/** Characters allowed in a quoted error_description (RFC 6750 section 3). */
const quotable = (text: string) => text.replace(/[^\x20\x21\x23-\x5B\x5D-\x7E]/g, ' ')

export function bearerChallenge(description: string): string {
  // RFC 6750 3.1: a request without any credentials gets no error code, only the realm.
  if (description === MISSING_TOKEN) return `Bearer realm="${REALM}"`
  return `Bearer realm="${REALM}", error="invalid_token", error_description="${quotable(description)}"`
}

/** Ends the request with 401 in the spec's shape. */
export function unauthorized(ctx: HttpContext, description: string) {
  ctx.response
    .status(401)
    .header('WWW-Authenticate', bearerChallenge(description))
    .header('Cache-Control', 'no-store')
    .json({ error: 'unauthorized', error_description: description })
}

/**
 * RFC 6750 3.1 `invalid_request`: the token was sent in more than one way (header and query or
 * form body at once, catalogue OA31).
 */
export function invalidTokenRequest(ctx: HttpContext, description: string) {
  ctx.response
    .status(400)
    .header(
      'WWW-Authenticate',
      `Bearer realm="${REALM}", error="invalid_request", error_description="${quotable(description)}"`
    )
    .header('Cache-Control', 'no-store')
    .json({ error: 'invalid_request', error_description: description })
}

/** Ends the request with 400/414 in the project's error shape (path firewall). */
export function badRequestPath(ctx: HttpContext, status: 400 | 414, reason: string) {
  ctx.response
    .status(status)
    .json({ error: status === 414 ? 'URI too long' : 'Bad request', details: reason })
}
