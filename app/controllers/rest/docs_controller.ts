import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { permissionsFor } from '#security/main'
import { issuerOf } from '#oauth/server'
import { MISSING_TOKEN, unauthorized } from '#oauth/resource_server'
import { CONTENT_TYPES, detailedDocument, generalDocument, type DocFormat } from '#openapi/main'

/**
 * `/rest/docs/openapi.{json,yaml}` and `/rest/docs/openapiDetailed.{json,yaml}` (spec 4.1):
 * thin adapter over app/openapi. The format is the file suffix (YAML whatever the Accept
 * header); the server URL is `svc.server.base-url` or the request's origin.
 */
export default class DocsController {
  #send(ctx: HttpContext, text: string, format: DocFormat) {
    ctx.response.header('Content-Type', CONTENT_TYPES[format])
    ctx.response.header('Cache-Control', 'no-cache')
    return ctx.response.send(text)
  }

  async #general(ctx: HttpContext, format: DocFormat) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    return this.#send(ctx, generalDocument().render(issuerOf(ctx), format), format)
  }

  async #detailed(ctx: HttpContext, format: DocFormat) {
    if (!ctx.subject) return unauthorized(ctx, MISSING_TOKEN)
    const permissions = await permissionsFor(ctx.subject)
    const doc = await detailedDocument(engine.model, permissions, engine.db.connection())
    return this.#send(ctx, doc.render(issuerOf(ctx), format), format)
  }

  generalJson(ctx: HttpContext) {
    return this.#general(ctx, 'json')
  }

  generalYaml(ctx: HttpContext) {
    return this.#general(ctx, 'yaml')
  }

  detailedJson(ctx: HttpContext) {
    return this.#detailed(ctx, 'json')
  }

  detailedYaml(ctx: HttpContext) {
    return this.#detailed(ctx, 'yaml')
  }
}
