/**
 * `queries` (app/engine/queries/check.ts): named queries for /rest/queries, checked against the
 * model as the change leaves it (filter parsed with sample parameter values, sort, fetch plan,
 * parameter types). Absent: stored queries are left alone; with prune, unnamed ones are removed.
 */
import vine from '@vinejs/vine'
import { Model } from '#engine/metadata/model'
import { applyQueries, planQueries } from '#engine/queries/check'
import { loadQueries } from '#engine/queries/store'
import type { DefinitionSection } from '../section.js'
import { arrayOf, keysOf } from '../shape.js'

const str = () => vine.string().trim().minLength(1)

const param = vine.object({
  name: str(),
  type: vine.string(),
  enum: vine.string().optional(),
  entity: vine.string().optional(),
})

/** Types, names, the filter and the sort are checked by app/engine/queries/check. */
const query = vine.object({
  entity: str(),
  name: str(),
  fetchPlan: str().optional(),
  filter: vine.any(),
  sort: vine.string().optional(),
  limit: vine.number({ strict: true }).withoutDecimals().min(0).optional(),
  offset: vine.number({ strict: true }).withoutDecimals().min(0).optional(),
  params: vine.array(param).optional(),
})

export const queriesSection: DefinitionSection = {
  name: 'queries',
  keys: {
    queries: {
      schema: vine.array(query),
      shape: arrayOf(keysOf(query), { params: keysOf(param) }),
      element: (q) => `${q.entity}/${q.name}`,
    },
  },

  async plan(ctx) {
    const entries = ctx.document.queries
    const plan = await planQueries(
      ctx.trx,
      new Model(0, ctx.model!.definition),
      entries,
      ctx.pruned('queries'),
      ctx.model!.renames
    )
    return {
      problems: plan.problems,
      changes: plan.changes,
      apply: async (trx) => ({ changed: await applyQueries(trx, plan) }),
    }
  },

  async export(client) {
    const queries = await loadQueries(client)
    return queries.length ? { queries } : {}
  },
}
