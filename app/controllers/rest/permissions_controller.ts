import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { MISSING_TOKEN, unauthorized } from '#oauth/resource_server'
import { describePermissions, permissionsFor } from '#security/main'

/**
 * `GET /rest/permissions` (reference 8.6): the caller's granted permissions only. Query
 * parameters (`?entities=true&entityAttributes=true` from the old npm client) are ignored.
 */
export default class PermissionsController {
  async show(ctx: HttpContext) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    const permissions = await permissionsFor(ctx.subject)
    ctx.response.header('Cache-Control', 'no-store')
    return describePermissions(engine.model, permissions)
  }
}
