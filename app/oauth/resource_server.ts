/**
 * The resource server's decisions, independent of the HTTP framework: which kind of URL a request
 * targets, how the Authorization header is read, and the shape of a 401 (spec section 7):
 *
 *   WWW-Authenticate: Bearer realm="modelgate", error="invalid_token", error_description="..."
 *   {"error":"unauthorized","error_description":"..."}
 */
import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { anonymousMatcher, compilePattern, inspectRequestPath, matcherFor } from './url_patterns.js'

export const REALM = 'modelgate'

export const MISSING_TOKEN = 'Full authentication is required to access this resource'
export const MALFORMED_TOKEN = 'Bearer token is malformed'
export const WRONG_SCHEME = 'Only the Bearer authorization scheme is accepted'
export const TWO_TOKEN_METHODS =
  'The access token was sent in more than one way; use only the Authorization header'
export const TOKEN_IN_URL =
  'Access tokens are accepted only in the Authorization header, not in the query string or form body'

export type UrlKind = 'authenticated' | 'anonymous' | 'open'

/** The properties holding the URL pattern lists (app/oauth/README.md, "Which URLs need what"). */
export const ANONYMOUS_PATTERNS = 'svc.resource-server.anonymous-url-patterns'
export const LEGACY_ANONYMOUS_PATTERNS = 'svc.rest.anonymous-url-patterns'
export const AUTHENTICATED_PATTERNS = 'svc.resource-server.authenticated-url-patterns'
export const URL_PATTERN_PROPERTIES = [
  ANONYMOUS_PATTERNS,
  LEGACY_ANONYMOUS_PATTERNS,
  AUTHENTICATED_PATTERNS,
] as const
export type UrlPatternProperty = (typeof URL_PATTERN_PROPERTIES)[number]
export type UrlPatternLists = Record<UrlPatternProperty, readonly string[]>

/** The lists in force (the resolver hands out the same arrays until the settings change). */
export function currentUrlPatterns(): UrlPatternLists {
  const properties = engine.properties
  return {
    [ANONYMOUS_PATTERNS]: properties.get<string[]>(ANONYMOUS_PATTERNS),
    [LEGACY_ANONYMOUS_PATTERNS]: properties.get<string[]>(LEGACY_ANONYMOUS_PATTERNS),
    [AUTHENTICATED_PATTERNS]: properties.get<string[]>(AUTHENTICATED_PATTERNS),
  }
}

/**
 * `anonymous`: an anonymous pattern matches (case-sensitively, canonical request only);
 * `authenticated`: an authenticated pattern matches and no anonymous one does; `open`: neither.
 * `lists` defaults to the lists in force (the admin URL tester passes candidate lists).
 */
export function classifyPath(
  path: string,
  raw: string,
  canonical: boolean,
  lists: UrlPatternLists = currentUrlPatterns()
): UrlKind {
  if (canonical) {
    const anonymous = anonymousMatcher(lists[ANONYMOUS_PATTERNS], lists[LEGACY_ANONYMOUS_PATTERNS])
    if (anonymous.test(path)) return 'anonymous'
  }
  const authenticated = matcherFor(lists[AUTHENTICATED_PATTERNS], false)
  return authenticated.test(path) || authenticated.test(raw) ? 'authenticated' : 'open'
}

export interface MatchedPattern {
  pattern: string
  property: UrlPatternProperty
}

export interface UrlDecision {
  /** The path the patterns see (decoded, without the trailing slash and query). */
  normalizedPath: string
  canonical: boolean
  kind: UrlKind
  /** The first anonymous pattern that decides (null when the URL is not anonymous). */
  anonymous: MatchedPattern | null
  /** The first authenticated pattern that matches (also when an anonymous one wins over it). */
  authenticated: MatchedPattern | null
  tokenRequired: boolean
}

function firstMatch(
  lists: UrlPatternLists,
  properties: UrlPatternProperty[],
  paths: string[],
  caseSensitive: boolean
): MatchedPattern | null {
  for (const property of properties)
    for (const pattern of lists[property]) {
      const re = compilePattern(pattern, caseSensitive)
      if (paths.some((p) => re.test(p))) return { pattern, property }
    }
  return null
}

/**
 * What the resource server decides for a request target (admin URL tester): the firewall, then
 * classifyPath itself, then which pattern of which list made that decision.
 */
export function explainTarget(
  target: string,
  lists: UrlPatternLists = currentUrlPatterns()
): UrlDecision | { rejected: { status: 400 | 414; reason: string } } {
  const check = inspectRequestPath(target)
  if (!check.ok) return { rejected: { status: check.status, reason: check.reason } }
  const kind = classifyPath(check.path, check.raw, check.canonical, lists)
  const anonymous =
    kind === 'anonymous'
      ? firstMatch(lists, [ANONYMOUS_PATTERNS, LEGACY_ANONYMOUS_PATTERNS], [check.path], true)
      : null
  const authenticated = firstMatch(lists, [AUTHENTICATED_PATTERNS], [check.path, check.raw], false)
  return {
    normalizedPath: check.path,
    canonical: check.canonical,
    kind,
    anonymous,
    authenticated,
    tokenRequired: kind === 'authenticated',
  }
}

/** RFC 6750 b64token after `Bearer` (scheme case-insensitive). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i

export type Credentials = { token: string } | { error: string } | null

/** Reads the Authorization header(s): null when absent; a refusal when present but unusable. */
export function readAuthorization(ctx: HttpContext): Credentials {
  return credentialsOf(ctx.request.request.headersDistinct.authorization)
}

/** `readAuthorization` on the Node request's `headersDistinct.authorization`. */
export function credentialsOf(values: string[] | undefined): Credentials {
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
