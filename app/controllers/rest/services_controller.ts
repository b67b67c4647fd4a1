import type { HttpContext } from '@adonisjs/core/http'
import { DataError } from '#engine/data/errors'
import { stringifyJson } from '#engine/data/read/json_text'
import { describeService, services } from '#services/catalogue'
import { invokeService } from '#services/invoke'
import { withDataManager } from './data_access.js'
import { routeParam } from './route_params.js'

const JSON_TYPE = 'application/json;charset=UTF-8'
const TEXT_TYPE = 'text/plain;charset=UTF-8'

/** GET arguments: every query parameter except `modelVersion` (the first of repeated ones). */
function queryArguments(ctx: HttpContext): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(ctx.request.qs())) {
    if (name !== 'modelVersion') args[name] = Array.isArray(value) ? value[0] : value
  }
  return args
}

/** POST arguments: the body's top-level keys (empty body: none). */
function bodyArguments(ctx: HttpContext): Record<string, unknown> {
  const body = ctx.request.body()
  if (body === null || body === undefined) return {}
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new DataError(400, 'Malformed request JSON data structure', 'Send a JSON object')
  }
  return body as Record<string, unknown>
}

/**
 * Services API (spec 4.3, reference 6): thin adapter over app/services. The method runs with a
 * DataManager acting as the caller.
 */
export default class ServicesController {
  /** GET /rest/services */
  async index(ctx: HttpContext) {
    const all = [...(await services()).values()].map(describeService)
    return ctx.response.header('Content-Type', JSON_TYPE).send(stringifyJson(all))
  }

  /** GET /rest/services/:service */
  async show(ctx: HttpContext) {
    const name = routeParam(ctx, 'service')
    const entry = (await services()).get(name)
    if (!entry) {
      return ctx.response
        .status(404)
        .json({ error: 'Service not found', details: `Service ${name} not found` })
    }
    return ctx.response
      .header('Content-Type', JSON_TYPE)
      .send(stringifyJson(describeService(entry)))
  }

  /** GET|POST /rest/services/:service/:method */
  invoke(ctx: HttpContext) {
    const httpMethod = ctx.request.method() === 'POST' ? 'POST' : 'GET'
    return withDataManager(ctx, async (data) => {
      const args = httpMethod === 'GET' ? queryArguments(ctx) : bodyArguments(ctx)
      const result = await invokeService(
        routeParam(ctx, 'service'),
        routeParam(ctx, 'method'),
        httpMethod,
        args,
        httpMethod === 'GET',
        { subject: ctx.subject!, data }
      )
      if (result.kind === 'void') {
        return ctx.response.status(204).header('Content-Type', TEXT_TYPE).send('')
      }
      if (result.kind === 'text') {
        return ctx.response.status(200).header('Content-Type', TEXT_TYPE).send(result.text)
      }
      return ctx.response
        .status(200)
        .header('Content-Type', JSON_TYPE)
        .send(stringifyJson(result.value))
    })
  }
}
