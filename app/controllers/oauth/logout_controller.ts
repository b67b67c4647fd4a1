import type { HttpContext } from '@adonisjs/core/http'
import { findToken, revokeGrant } from '#oauth/token_store'

export default class LogoutController {
  /**
   * GET|POST /logout: revokes the authorization of the bearer token in the Authorization header
   * (if any), ends the login session and redirects to / (upstream behaviour: a 302).
   */
  async handle(ctx: HttpContext) {
    const match = /^bearer\s+(\S+)$/i.exec(ctx.request.header('authorization') ?? '')
    if (match) {
      const row = await findToken('access', match[1])
      if (row) await revokeGrant(row.grant_id)
    }
    await ctx.auth.use('web').logout()
    ctx.session.clear()
    return ctx.response.redirect('/')
  }
}
