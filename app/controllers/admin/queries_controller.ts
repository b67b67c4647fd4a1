import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { definitions } from '#definition/main'
import { findQuery, loadQueries } from '#engine/queries/store'
import { adminError, changeOptions, notFound, sendResult, sendVersion } from './admin_http.js'
import { applyFromCurrent, bodyObject, client, sameName } from './people.js'

/** Problems of the one query a request sends are reported at paths into its body. */
const PREFIX = '$.queries[0]'
const key = (entity: string, name: string) => `query '${entity}/${name}'`
const param = (ctx: HttpContext, name: string) => decodeURIComponent(String(ctx.params[name]))

/**
 * Named queries one at a time (README "Admin API", "Queries API"), addressed by entity and name:
 * list (optionally `?entity=`), show, create, replace, delete. Every change goes through the
 * definition's `queries` section: planned changes, `dryRun`, `If-Match`, 422 problems at paths
 * into the body, one audit entry.
 */
export default class QueriesController {
  async index(ctx: HttpContext) {
    const entity = ctx.request.qs().entity
    const queries = await loadQueries(client())
    await sendVersion(ctx)
    return {
      queries: typeof entity === 'string' ? queries.filter((q) => q.entity === entity) : queries,
    }
  }

  async show(ctx: HttpContext) {
    const [entity, name] = [param(ctx, 'entity'), param(ctx, 'name')]
    const query = await findQuery(client(), entity, name)
    if (!query) return notFound(ctx, key(entity, name))
    await sendVersion(ctx)
    return query
  }

  async store(ctx: HttpContext) {
    const body = bodyObject(ctx)
    if (!body) return
    if (typeof body.entity === 'string' && typeof body.name === 'string') {
      if (await findQuery(client(), body.entity, body.name))
        return adminError(ctx, 409, 'Conflict', `${key(body.entity, body.name)} already exists`)
    }
    await this.#save(ctx, body, true)
  }

  async update(ctx: HttpContext) {
    const [entity, name] = [param(ctx, 'entity'), param(ctx, 'name')]
    if (!(await findQuery(client(), entity, name))) return notFound(ctx, key(entity, name))
    const body = bodyObject(ctx)
    if (!body || !sameName(ctx, body, 'entity', entity) || !sameName(ctx, body, 'name', name))
      return
    // The body replaces the query: what it leaves out takes its default.
    await this.#save(ctx, { ...body, entity, name }, false)
  }

  async destroy(ctx: HttpContext) {
    const [entity, name] = [param(ctx, 'entity'), param(ctx, 'name')]
    if (!(await findQuery(client(), entity, name))) return notFound(ctx, key(entity, name))
    const result = await applyFromCurrent(
      ctx,
      (current) => ({
        formatVersion: 1,
        queries: (current.queries ?? []).filter((q: any) => q.entity !== entity || q.name !== name),
      }),
      { pruneSections: ['queries'] }
    )
    sendResult(ctx, result)
  }

  async #save(ctx: HttpContext, query: Record<string, any>, created: boolean) {
    const document = { formatVersion: 1, queries: [query] }
    const result = await definitions(engine).importDocument(document, changeOptions(ctx))
    const applied = result.status === 'applied' || result.status === 'unchanged'
    const saved = applied
      ? await findQuery(client(), String(query.entity), String(query.name))
      : null
    if (saved && created && result.status === 'applied')
      ctx.response.header(
        'Location',
        `/admin/api/queries/${encodeURIComponent(saved.entity)}/${encodeURIComponent(saved.name)}`
      )
    sendResult(ctx, result, { prefix: PREFIX, created, extra: saved ? { query: saved } : {} })
  }
}
