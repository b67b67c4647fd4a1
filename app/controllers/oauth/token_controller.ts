import type { HttpContext } from '@adonisjs/core/http'
import { handleTokenRequest } from '#oauth/server'

export default class TokenController {
  /** POST /oauth2/token (alias /oauth/token for older clients). */
  async store(ctx: HttpContext) {
    return handleTokenRequest(ctx)
  }
}
