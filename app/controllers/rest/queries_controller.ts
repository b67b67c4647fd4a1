import type { HttpContext } from '@adonisjs/core/http'
import type { DataManager } from '#engine/data/data_manager'
import { DataError } from '#engine/data/errors'
import { optionsFromQuery } from '#engine/data/read/params'
import { stringifyJson } from '#engine/data/read/json_text'
import { lenientBody, malformedDetails } from '#middleware/lenient_json_middleware'
import { countQuery, listQueries, resolveQuery, runQuery } from '#engine/queries/run'
import { withDataManager } from './data_access.js'
import { routeParam } from './route_params.js'

function json(ctx: HttpContext, status: number, body: unknown) {
  ctx.response.header('Content-Type', 'application/json;charset=UTF-8')
  return ctx.response.status(status).send(stringifyJson(body))
}

/** Parameter values: the query string (GET) or the JSON object body (POST). */
function parameterValues(ctx: HttpContext): Record<string, unknown> {
  if (ctx.request.method() !== 'POST') return ctx.request.qs()
  // Read leniently, whatever the Content-Type (as the entities API, reference 1); no body: {}.
  const read = lenientBody(ctx)
  if (read && read.raw.trim() !== '' && read.body === undefined)
    throw new DataError(400, 'Malformed request JSON data structure', malformedDetails(read))
  const body = read && read.raw.trim() !== '' ? read.body : {}
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new DataError(400, 'Malformed request JSON data structure', 'A JSON object was expected')
  return body as Record<string, unknown>
}

/**
 * `/rest/queries` (reference 2.8, README "Queries API"): thin adapter over app/engine/queries;
 * every query runs through the caller's DataManager. Options (`limit`, `offset`, `fetchPlan`,
 * `returnNulls`, `returnCount`) are query-string parameters for GET and POST alike.
 */
export default class QueriesController {
  #run(ctx: HttpContext, action: (data: DataManager) => Promise<unknown>) {
    return withDataManager(ctx, action)
  }

  /** GET /rest/queries/:entity */
  index(ctx: HttpContext) {
    return this.#run(ctx, async (data) =>
      json(ctx, 200, await listQueries(data, routeParam(ctx, 'entity')))
    )
  }

  /** GET|POST /rest/queries/:entity/:query */
  execute(ctx: HttpContext) {
    return this.#run(ctx, async (data) => {
      const query = await resolveQuery(data, routeParam(ctx, 'entity'), routeParam(ctx, 'query'))
      const options = optionsFromQuery(ctx.request.qs())
      const page = await runQuery(data, query, parameterValues(ctx), options)
      if (page.total !== undefined) ctx.response.header('X-Total-Count', String(page.total))
      return json(ctx, 200, page.items)
    })
  }

  /** GET|POST /rest/queries/:entity/:query/count: the bare number (text with Accept: text/plain). */
  count(ctx: HttpContext) {
    return this.#run(ctx, async (data) => {
      const query = await resolveQuery(data, routeParam(ctx, 'entity'), routeParam(ctx, 'query'))
      const total = await countQuery(data, query, parameterValues(ctx))
      const accept = String(ctx.request.header('accept') ?? '').toLowerCase()
      if (accept.startsWith('text/plain')) {
        ctx.response.header('Content-Type', 'text/plain;charset=UTF-8')
        return ctx.response.status(200).send(String(total))
      }
      return json(ctx, 200, total)
    })
  }
}
