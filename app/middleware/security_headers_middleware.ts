import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/** The console's policy: its own scripts and styles only, never framed. */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ')

/**
 * Headers every response carries (catalogue RT18): no MIME sniffing anywhere; the console also
 * gets a strict Content-Security-Policy and may not be framed.
 */
export default class SecurityHeadersMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    ctx.response.header('X-Content-Type-Options', 'nosniff')
    const path = ctx.request.url()
    if (path === '/console' || path.startsWith('/console/')) {
      ctx.response.header('Content-Security-Policy', CONSOLE_CSP)
      ctx.response.header('X-Frame-Options', 'DENY')
      ctx.response.header('Referrer-Policy', 'no-referrer')
    }
    return next()
  }
}
