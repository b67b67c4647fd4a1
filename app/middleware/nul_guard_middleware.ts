/**
 * Refuses NUL characters (U+0000) in the query string, the parsed body and the Basic
 * credentials with a 400 in each endpoint's own error shape, before anything reads them:
 * PostgreSQL text cannot hold NUL (the driver's error was a 500), and no value of this API has a
 * use for one, so SQLite answers the same. The path is already refused by the URL firewall.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { basicCredentials, sendOAuthError } from '#oauth/server'
import { errorPage } from '#oauth/error_page'
import { holdsNul } from '#changes/db_values'

const MESSAGE = 'Parameters and values must not contain NUL characters (\\u0000)'

export default class NulGuardMiddleware {
  handle(ctx: HttpContext, next: NextFn) {
    const basic = basicCredentials(ctx.request.header('authorization') ?? '')
    if (!holdsNul(ctx.request.qs()) && !holdsNul(ctx.request.body()) && !holdsNul(basic))
      return next()
    const path = ctx.request.url()
    if (path === '/oauth2/authorize') return errorPage(ctx, 'invalid_request', MESSAGE)
    if (/^\/oauth2?\//.test(path)) return sendOAuthError(ctx, 400, 'invalid_request', MESSAGE)
    ctx.response.status(400).json({ error: 'Bad request', details: MESSAGE })
  }
}
