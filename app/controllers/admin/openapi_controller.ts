import type { HttpContext } from '@adonisjs/core/http'
import { issuerOf } from '#oauth/server'
import { adminDocument, CONTENT_TYPES, type DocFormat } from '#openapi/main'

/** `/admin/api/openapi.{json,yaml}`: the admin API's own description (app/openapi/admin.ts). */
export default class OpenApiController {
  #show(ctx: HttpContext, format: DocFormat) {
    ctx.response.header('Content-Type', CONTENT_TYPES[format])
    return ctx.response.send(adminDocument().render(issuerOf(ctx), format))
  }

  json(ctx: HttpContext) {
    return this.#show(ctx, 'json')
  }

  yaml(ctx: HttpContext) {
    return this.#show(ctx, 'yaml')
  }
}
