import type { HttpContext } from '@adonisjs/core/http'

/**
 * An authorization error the user sees as a page (RFC 6749 4.1.2.1): when the client or the
 * redirect URI cannot be trusted with it, the server never redirects.
 */
export function errorPage(ctx: HttpContext, error: string, description: string) {
  ctx.response.header('Cache-Control', 'no-store')
  return ctx.response
    .status(400)
    .type('text/html')
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>Authorization error</title></head>` +
        `<body><h1>Authorization error</h1><p data-testid="oauth-error">${error}</p>` +
        `<p>${description.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p></body></html>`
    )
}
