/**
 * Resource-server protection, as a SERVER middleware (it also covers URLs without a route).
 * Rules in app/oauth/README.md, "Resource server: URL protection":
 *
 * - every request path passes the firewall of app/oauth/url_patterns.ts (400/414 otherwise);
 * - a CORS preflight is never blocked;
 * - an Authorization header must carry a valid bearer token on authenticated and anonymous URLs
 *   (401 otherwise); a valid token on any URL sets `ctx.subject`;
 * - an anonymous URL without an Authorization header runs as ANONYMOUS;
 * - an authenticated URL without a token is 401;
 * - `access_token` in the query string is refused (401) on authenticated and anonymous URLs
 *   (the form-body variant is refused by FormTokenGuardMiddleware after the body parser).
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import app from '@adonisjs/core/services/app'
import type operationsConfig from '#config/operations'
import engine from '#engine/services/engine'
import { ANONYMOUS, type Subject } from '#security/subject'
import { permissionsFor, type Permissions } from '#security/main'
import { cachedSubject, verifyAccessToken } from '#oauth/token_verifier'
import { inspectRequestPath } from '#oauth/url_patterns'
import {
  MISSING_TOKEN,
  TOKEN_IN_URL,
  TWO_TOKEN_METHODS,
  badRequestPath,
  classifyPath,
  readAuthorization,
  tokenInQuery,
  invalidTokenRequest,
  unauthorized,
  type UrlKind,
} from '#oauth/resource_server'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** Who the request runs as; unset on open URLs without a (valid) token. */
    subject?: Subject
    /** How the resource server classified the URL (set for every request that passed it). */
    urlKind?: UrlKind
    /** The subject's permissions, when the resource server already looked them up. */
    permissions?: Permissions
  }
}

const METRICS_ON = !!app.config.get<typeof operationsConfig>('operations').metricsToken

const isPreflight = (ctx: HttpContext) =>
  ctx.request.method() === 'OPTIONS' &&
  ctx.request.header('origin') !== undefined &&
  ctx.request.header('access-control-request-method') !== undefined

export default class ResourceServerMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (isPreflight(ctx)) return next()

    const target = ctx.request.request.url ?? '/'
    const check = inspectRequestPath(target, ctx.request.url())
    if (!check.ok) return badRequestPath(ctx, check.status, check.reason)
    // Prometheus presents its own token (not an OAuth one): the controller checks it.
    if (check.path === '/metrics' && METRICS_ON) return next()

    const kind = classifyPath(check.path, check.raw, check.canonical)
    ctx.urlKind = kind
    const credentials = readAuthorization(ctx)

    if (kind === 'open') {
      // Nothing is required here (console, health, the authorization server's own endpoints,
      // which use Basic client authentication): a valid bearer token still names the subject.
      if (credentials && 'token' in credentials) {
        const result = await verifyAccessToken(credentials.token, engine.securityVersion)
        if ('subject' in result) ctx.subject = result.subject
      }
      return next()
    }

    if (tokenInQuery(ctx)) {
      return ctx.request.header('authorization')
        ? invalidTokenRequest(ctx, TWO_TOKEN_METHODS)
        : unauthorized(ctx, TOKEN_IN_URL)
    }
    if (credentials === null) {
      if (kind === 'anonymous') {
        ctx.subject = ANONYMOUS
        return restEnabled(ctx, check.path, next)
      }
      return unauthorized(ctx, MISSING_TOKEN)
    }
    if ('error' in credentials) return unauthorized(ctx, credentials.error)
    const known = cachedSubject(credentials.token, engine.securityVersion)
    const result = known
      ? { subject: known }
      : await verifyAccessToken(credentials.token, engine.securityVersion)
    if ('error' in result) return unauthorized(ctx, result.error)
    ctx.subject = result.subject
    return restEnabled(ctx, check.path, next)
  }
}

/** URLs that need the specific permission `rest.enabled` (reference section 2). */
const REST_ENABLED_URLS =
  /^\/rest\/(?:(?:entities|services|queries|messages|metadata|files)(?:\/|$)|(?:userInfo|permissions|user-session\/locale)\/?$)/

/**
 * 403 for a subject without `rest.enabled` on the generic REST URLs (catalogue AZ25). The
 * permissions looked up here are kept for the request (`ctx.permissions`). A request that runs
 * as `anonymous` through an anonymous URL pattern needs only the rights of what it reads (spec
 * 5.6: the anonymous user's roles grant the entity rights; `rest-minimal` is not needed): the
 * administrator opened that URL on purpose.
 */
async function restEnabled(ctx: HttpContext, path: string, next: NextFn) {
  if (!REST_ENABLED_URLS.test(path)) return next()
  const permissions = await permissionsFor(ctx.subject!)
  ctx.permissions = permissions
  if (ctx.subject!.kind === 'anonymous' || permissions.specific('rest.enabled')) return next()
  ctx.response
    .status(403)
    .json({ error: 'Forbidden', details: 'User is not allowed to use the REST API' })
}
