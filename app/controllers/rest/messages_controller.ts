import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { resolveLocale, translations } from '#i18n/main'
import { sendWithEtag } from '#controllers/rest/etag'
import { routeParam } from './route_params.js'

/**
 * `/rest/messages/*` (reference 8.5, spec 2.8 and 4.7): flat maps of captions in the request
 * locale (app/i18n/main.ts). Answers carry an ETag; `If-None-Match` gives 304.
 */
export default class MessagesController {
  #send(ctx: HttpContext, locale: string, map: Record<string, string>) {
    return sendWithEtag(ctx, map, { modelVersion: engine.model.version, locale })
  }

  entities(ctx: HttpContext) {
    const locale = resolveLocale(ctx)
    return this.#send(ctx, locale, translations(locale).allEntities)
  }

  entity(ctx: HttpContext) {
    const locale = resolveLocale(ctx)
    const name = routeParam(ctx, 'entityName')
    const map = translations(locale).entities.get(name)
    if (!map)
      return ctx.response
        .status(404)
        .send({ error: 'Entity not found', details: `Entity ${name} not found` })
    return this.#send(ctx, locale, map)
  }

  enums(ctx: HttpContext) {
    const locale = resolveLocale(ctx)
    return this.#send(ctx, locale, translations(locale).allEnums)
  }

  enum(ctx: HttpContext) {
    const locale = resolveLocale(ctx)
    const name = routeParam(ctx, 'enumClassName')
    const map = translations(locale).enums.get(name)
    if (!map)
      return ctx.response
        .status(404)
        .send({ error: 'Enum not found', details: `Enum with class name ${name} not found` })
    return this.#send(ctx, locale, map)
  }
}
