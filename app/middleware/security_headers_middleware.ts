import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/**
 * The console's policy: its own scripts only, never framed. Styles may also be inline: the
 * component libraries (toasts, the diagram) insert <style> elements at run time; an injected
 * style cannot run code, an injected script could, and scripts stay 'self'.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
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
