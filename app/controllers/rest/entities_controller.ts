import type { HttpContext } from '@adonisjs/core/http'
import router from '@adonisjs/core/services/router'
import type { DataManager } from '#engine/data/data_manager'
import { filterFromQuery, optionsFromBody, optionsFromQuery } from '#engine/data/read/params'
import { lenientBody, malformedDetails } from '#middleware/lenient_json_middleware'
import { DataError } from '#engine/data/errors'
import { stringifyJson } from '#engine/data/read/json_text'
import { withDataManager } from './data_access.js'
import { routeParam } from './route_params.js'

function json(ctx: HttpContext, status: number, body: unknown) {
  return jsonText(ctx, stringifyJson(body), status)
}

function jsonText(ctx: HttpContext, text: string, status = 200) {
  ctx.response.header('Content-Type', 'application/json;charset=UTF-8')
  return ctx.response.status(status).send(text)
}

/** The request body as the lenient reader parsed it; unreadable JSON is a 400 (ours). */
function requestBody(ctx: HttpContext): unknown {
  const read = lenientBody(ctx)
  if (read && read.raw.trim() !== '' && read.body === undefined) {
    throw new DataError(400, 'Malformed request JSON data structure', malformedDetails(read))
  }
  return read ? read.body : ctx.request.body()
}

/**
 * `/rest/entities/{entity}` reads (reference 2.1-2.4): thin adapter over the read pipeline
 * (app/engine/data/read). Errors leave as the upstream `{error, details}` with their status.
 */
export default class EntitiesController {
  #run(ctx: HttpContext, action: (data: DataManager) => Promise<unknown>) {
    return withDataManager(ctx, action)
  }

  /** A page as the read pipeline wrote it (JSON text, data/read/json_writer.ts). */
  #page(ctx: HttpContext, page: { json: string; total?: number }) {
    if (page.total !== undefined) ctx.response.header('X-Total-Count', String(page.total))
    return jsonText(ctx, page.json)
  }

  /** GET /rest/entities/:entity/:id */
  show(ctx: HttpContext) {
    return this.#run(ctx, async (data) => {
      const options = optionsFromQuery(ctx.request.qs())
      const entity = await data.loadJson(routeParam(ctx, 'entity'), routeParam(ctx, 'id'), options)
      return jsonText(ctx, entity)
    })
  }

  /** GET /rest/entities/:entity */
  index(ctx: HttpContext) {
    return this.#run(ctx, async (data) => {
      const options = optionsFromQuery(ctx.request.qs())
      return this.#page(ctx, await data.listJson(routeParam(ctx, 'entity'), options))
    })
  }

  /** GET /rest/entities/:entity/search?filter= */
  searchByQuery(ctx: HttpContext) {
    return this.#run(ctx, async (data) => {
      const query = ctx.request.qs()
      const options = { ...optionsFromQuery(query), filter: filterFromQuery(query) }
      return this.#page(ctx, await data.listJson(routeParam(ctx, 'entity'), options))
    })
  }

  /** POST /rest/entities/:entity/search: every option in the body. */
  searchByBody(ctx: HttpContext) {
    return this.#run(ctx, async (data) => {
      const options = optionsFromBody(requestBody(ctx))
      return this.#page(ctx, await data.listJson(routeParam(ctx, 'entity'), options))
    })
  }

  /** GET /rest/entities/:entity/search/count?filter= */
  countByQuery(ctx: HttpContext) {
    return this.#run(ctx, async (data) => {
      const total = await data.count(routeParam(ctx, 'entity'), filterFromQuery(ctx.request.qs()))
      return json(ctx, 200, total)
    })
  }

  /** POST /rest/entities/:entity/search/count: `filter` from the body. */
  countByBody(ctx: HttpContext) {
    return this.#run(ctx, async (data) => {
      const { filter } = optionsFromBody(requestBody(ctx))
      return json(ctx, 200, await data.count(routeParam(ctx, 'entity'), filter))
    })
  }

  /** OPTIONS: the methods this path serves (upstream: Spring MVC's automatic answer). */
  options(ctx: HttpContext) {
    const path = ctx.request.url()
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].filter(
      (m) => router.match(path, m) !== null
    )
    ctx.response.header('Allow', [...methods, 'OPTIONS'].join(','))
    return ctx.response.status(200).send('')
  }
}
