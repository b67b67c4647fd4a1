import type { HttpContext } from '@adonisjs/core/http'
import type { DataManager, EntityJson, WriteOptions } from '#engine/data/data_manager'
import { lenientBody, malformedDetails } from '#middleware/lenient_json_middleware'
import { DataError } from '#engine/data/errors'
import { stringifyJson } from '#engine/data/read/json_text'
import { withDataManager } from './data_access.js'
import { routeParam } from './route_params.js'

/** The request body as the lenient JSON middleware read it (unquoted keys, single quotes). */
function body(ctx: HttpContext, error: string): unknown {
  const read = lenientBody(ctx)
  if (!read || read.body === undefined) throw new DataError(400, error, malformedDetails(read))
  return read.body
}

/** Entity JSON as Adonis sends an object, but decimals keep their scale (json_text.ts). */
function json(ctx: HttpContext, entities: unknown) {
  ctx.response.safeHeader('Content-Type', 'application/json; charset=utf-8')
  ctx.response.send(stringifyJson(entities))
}

function options(ctx: HttpContext): WriteOptions {
  const qs = ctx.request.qs()
  // An empty `responseView` (older clients send it for an unset option) is no plan.
  const plan = qs.responseFetchPlan ?? (qs.responseView === '' ? undefined : qs.responseView)
  const ifMatch = ctx.request.header('if-match')
  // `If-Match: *` asks for no particular version (RFC 9110): no check.
  const tag = ifMatch === undefined ? '*' : ifMatch.trim()
  const digits = tag === '*' ? undefined : tag.replace(/^(W\/)?"|"$/g, '')
  const version = digits === undefined ? undefined : Number(digits)
  if (digits !== undefined && !(/^\d+$/.test(digits) && Number.isSafeInteger(version))) {
    throw new DataError(400, 'Invalid parameter', 'If-Match must be an entity version number')
  }
  return {
    // An empty name is looked up too (400 Fetch plan not found), as upstream.
    responseFetchPlan: typeof plan === 'string' ? plan : undefined,
    ifMatch: version,
  }
}

/**
 * `POST|PUT|DELETE /rest/entities/:entity[/:id]` (reference 2.5-2.7): a thin adapter over the
 * write half of DataManager (app/engine/data/write). DataError leaves as status + upstream body.
 */
export default class EntityWritesController {
  async #run(ctx: HttpContext, work: (data: DataManager) => Promise<void>) {
    await withDataManager(ctx, work)
  }

  async create(ctx: HttpContext) {
    await this.#run(ctx, async (data) => {
      const entity = routeParam(ctx, 'entity')
      const payload = body(ctx, 'Malformed request JSON data structure')
      const url = ctx.request.completeUrl(false).replace(/\/+$/, '')
      if (Array.isArray(payload)) {
        const created = await data.createMany(entity, payload, options(ctx))
        ctx.response.status(201).header('Location', url)
        json(ctx, created)
        return
      }
      const created = await data.create(entity, payload as EntityJson, options(ctx))
      ctx.response.status(201).header('Location', `${url}/${created.id}`)
      json(ctx, created)
    })
  }

  async update(ctx: HttpContext) {
    await this.#run(ctx, async (data) => {
      const payload = body(ctx, 'Cannot deserialize an entity from JSON')
      const { entity, id } = { entity: routeParam(ctx, 'entity'), id: routeParam(ctx, 'id') }
      json(ctx, await data.update(entity, id, payload as EntityJson, options(ctx)))
    })
  }

  async updateMany(ctx: HttpContext) {
    await this.#run(ctx, async (data) => {
      const payload = body(ctx, 'Cannot deserialize an entity from JSON')
      if (!Array.isArray(payload)) {
        const message = 'The body of bulk update request should be an array'
        throw new DataError(400, message, message)
      }
      const entity = routeParam(ctx, 'entity')
      json(ctx, await data.updateMany(entity, payload, options(ctx)))
    })
  }

  async destroy(ctx: HttpContext) {
    await this.#run(ctx, async (data) => {
      await data.delete(routeParam(ctx, 'entity'), routeParam(ctx, 'id'))
      ctx.response.status(204)
    })
  }

  async destroyMany(ctx: HttpContext) {
    await this.#run(ctx, async (data) => {
      const payload = body(ctx, 'Cannot deserialize an entity from JSON')
      if (!Array.isArray(payload)) {
        throw new DataError(400, 'Invalid parameter', 'The body of bulk delete should be an array')
      }
      await data.deleteMany(routeParam(ctx, 'entity'), payload)
      ctx.response.status(204)
    })
  }
}
