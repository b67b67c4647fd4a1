/**
 * How an application registers its own routes (spec 4.4, app/controllers/custom/README.md):
 *
 *   customRoutes('/api/bookstore', () => {
 *     router.get('/books/:id', [BookstoreController, 'show'])
 *   })                                                  // a bearer token is required
 *   customRoutes('/api/bookstore', () => { ... }, { public: true })   // explicit choice
 *
 * A protected group answers 401 (the resource server's body and challenge) unless the request
 * carries a valid access token in the Authorization header; an access token in the query string
 * is refused. `svc.resource-server.authenticated-url-patterns` and the anonymous patterns keep
 * working as the spec says on top of this. At start, `logOpenRoutes` logs every route that no
 * authenticated URL pattern and no authenticating middleware (a protected group, the admin
 * API's) covers.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import router from '@adonisjs/core/services/router'
import logger from '@adonisjs/core/services/logger'
import {
  MISSING_TOKEN,
  TOKEN_IN_URL,
  classifyPath,
  tokenInQuery,
  unauthorized,
} from '#oauth/resource_server'

const INVALID_TOKEN = 'Invalid access token'

/** Named route middleware that demands a token of its own (the admin API's). */
const AUTHENTICATING_MIDDLEWARE = new Set(['admin'])

/** The middleware of protected groups: the resource server already set `ctx.subject`. */
export async function requireSubject(ctx: HttpContext, next: NextFn) {
  if (ctx.subject) return next()
  if (tokenInQuery(ctx)) return unauthorized(ctx, TOKEN_IN_URL)
  return unauthorized(ctx, ctx.request.header('authorization') ? INVALID_TOKEN : MISSING_TOKEN)
}

/** Registers the routes `define` adds under `prefix`; protected unless `public: true`. */
export function customRoutes(
  prefix: string,
  define: () => void,
  options: { public?: boolean } = {}
) {
  const group = router.group(define).prefix(prefix)
  if (!options.public) group.use(requireSubject)
  return group
}

/** The route carries requireSubject or an authenticating named middleware. */
function authenticatedByMiddleware(middleware: { all(): Set<unknown> }): boolean {
  for (const one of middleware.all()) {
    if (one === requireSubject) return true
    const name = (one as { name?: unknown }).name
    if (typeof one === 'object' && AUTHENTICATING_MIDDLEWARE.has(String(name))) return true
  }
  return false
}

/** A request path the route pattern matches (`:id` and `*` become one segment). */
const samplePath = (pattern: string) => pattern.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x') || '/'

/** Routes (`GET,HEAD /health`) that neither an authenticated URL pattern nor middleware protects. */
export function openRoutes(): string[] {
  const open: string[] = []
  for (const routes of Object.values(router.toJSON())) {
    for (const route of routes) {
      if (authenticatedByMiddleware(route.middleware)) continue
      const path = samplePath(route.pattern)
      if (classifyPath(path, path, true) === 'open') {
        open.push(`${route.methods.join(',')} ${route.pattern}`)
      }
    }
  }
  return open
}

/** Logs, once at start, the routes anyone may call without a token. */
export function logOpenRoutes() {
  const open = openRoutes()
  if (open.length)
    logger.info('routes no URL pattern protects (no token needed): %s', open.join('; '))
}
