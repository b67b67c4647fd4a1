/**
 * Refuses `access_token` in a urlencoded form body (RFC 6750 section 2.2 is not supported: tokens
 * travel only in the Authorization header) on authenticated and anonymous URLs. A router
 * middleware, registered after the body parser: the resource-server middleware runs before the
 * body is read.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { TOKEN_IN_URL, tokenInForm, unauthorized } from '#oauth/resource_server'

export default class FormTokenGuardMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    if (ctx.urlKind && ctx.urlKind !== 'open' && tokenInForm(ctx))
      return unauthorized(ctx, TOKEN_IN_URL)
    return next()
  }
}
