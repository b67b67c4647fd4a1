import type { HttpContext } from '@adonisjs/core/http'
import type { FetchPlanDefinition } from '#engine/main'
import { notFound, sendVersion } from './admin_http.js'
import {
  applyModel,
  conflict,
  findPlan,
  loadModel,
  objectBody,
  param,
  planKey,
} from './model_changes.js'

/**
 * Named fetch plans edited one at a time (README "Admin API"), addressed by entity and name.
 * A PUT whose body names another entity or name moves the plan (plans that extend or use it by
 * its old name are problems naming them).
 */
export default class FetchPlansController {
  async index(ctx: HttpContext) {
    const model = await loadModel()
    const entity = ctx.request.qs().entity
    await sendVersion(ctx)
    return typeof entity === 'string'
      ? model.fetchPlans.filter((p) => p.entity === entity)
      : model.fetchPlans
  }

  async show(ctx: HttpContext) {
    const model = await loadModel()
    const plan = findPlan(model, param(ctx, 'entity'), param(ctx, 'name'))
    if (!plan) return notFound(ctx, `fetch plan '${param(ctx, 'entity')}/${param(ctx, 'name')}'`)
    await sendVersion(ctx)
    return plan
  }

  async store(ctx: HttpContext) {
    const body = objectBody(ctx)
    if (!body) return
    const model = await loadModel()
    const exists = typeof body.entity === 'string' && typeof body.name === 'string'
    if (exists && findPlan(model, body.entity, body.name))
      return conflict(ctx, `fetch plan '${planKey(body as FetchPlanDefinition)}'`)
    const i = model.fetchPlans.push(body as FetchPlanDefinition) - 1
    await applyModel(ctx, model, {
      prefix: `$.fetchPlans[${i}]`,
      created: true,
      extra: (after) => ({ fetchPlan: findPlan(after, body.entity, body.name) ?? null }),
    })
  }

  async update(ctx: HttpContext) {
    const entity = param(ctx, 'entity')
    const name = param(ctx, 'name')
    const body = objectBody(ctx)
    if (!body) return
    const model = await loadModel()
    const i = model.fetchPlans.findIndex((p) => p.entity === entity && p.name === name)
    if (i < 0) return notFound(ctx, `fetch plan '${entity}/${name}'`)
    body.entity ??= entity
    body.name ??= name
    const moved = body.entity !== entity || body.name !== name
    if (moved && findPlan(model, body.entity, body.name))
      return conflict(ctx, `fetch plan '${planKey(body as FetchPlanDefinition)}'`)
    model.fetchPlans[i] = body as FetchPlanDefinition
    await applyModel(ctx, model, {
      prefix: `$.fetchPlans[${i}]`,
      extra: (after) => ({ fetchPlan: findPlan(after, body.entity, body.name) ?? null }),
    })
  }

  async destroy(ctx: HttpContext) {
    const entity = param(ctx, 'entity')
    const name = param(ctx, 'name')
    const model = await loadModel()
    if (!findPlan(model, entity, name)) return notFound(ctx, `fetch plan '${entity}/${name}'`)
    model.fetchPlans = model.fetchPlans.filter((p) => p.entity !== entity || p.name !== name)
    await applyModel(ctx, model)
  }
}
