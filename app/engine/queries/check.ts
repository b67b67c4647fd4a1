/**
 * The `queries` section of the application definition (README "Definition format"): checks
 * with JSON paths against the model as the change leaves it, change lines, writes and export.
 * The filter is parsed against the model with a sample value of each parameter's type, as
 * row-level filters are with sample caller values. An absent section leaves the stored queries
 * alone; with prune, a present section removes the stored queries it does not name.
 */
import { BUILTIN_FETCH_PLANS } from '../metadata/types.js'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Model } from '../metadata/model.js'
import type { Problem } from '../metadata/validate.js'
import { parseFilter } from '../query/filter_parser.js'
import { parseSort } from '../query/sort.js'
import type { Renames } from '../definition/renames.js'
import {
  SAMPLE_SESSION,
  SESSION_PARAMS,
  isSessionParam,
  placeholdersOf,
  sampleValue,
  substitute,
} from './params.js'
import { followRenames } from './follow.js'
import {
  ALL_QUERY,
  PARAM_TYPES,
  baseType,
  deleteQuery,
  isParamType,
  loadQueries,
  normalizeQuery,
  queryKey,
  saveQuery,
  type NamedQuery,
} from './store.js'

export type QueryEntry = Partial<NamedQuery> & { entity: string; name: string }

const BUILT_IN_PLANS: ReadonlySet<string> = new Set(BUILTIN_FETCH_PLANS)
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Problems of one query (paths under `path`). */
export function checkQuery(model: Model, q: NamedQuery, path: string, out: Problem[]) {
  const entity = model.entity(q.entity)
  if (!entity) {
    out.push({ path: `${path}.entity`, message: `unknown entity '${q.entity}'` })
    return
  }
  if (q.name.toLowerCase() === ALL_QUERY)
    out.push({
      path: `${path}.name`,
      message: `'${ALL_QUERY}' is the built-in query of every entity`,
    })
  if (q.fetchPlan !== undefined && !BUILT_IN_PLANS.has(q.fetchPlan)) {
    if (!model.fetchPlans.get(entity.name)?.has(q.fetchPlan))
      out.push({
        path: `${path}.fetchPlan`,
        message: `unknown fetch plan '${q.fetchPlan}' of ${entity.name}`,
      })
  }
  const samples = new Map<string, unknown>(SAMPLE_SESSION)
  const seen = new Set<string>()
  q.params.forEach((p, i) => {
    const pp = `${path}.params[${i}]`
    if (isSessionParam(p.name))
      out.push({
        path: `${pp}.name`,
        message: `'${p.name}' is filled from the caller: use :${p.name} without declaring it`,
      })
    else if (!PARAM_NAME.test(p.name))
      out.push({ path: `${pp}.name`, message: `'${p.name}' is not a parameter name` })
    if (seen.has(p.name))
      out.push({ path: `${pp}.name`, message: `duplicate parameter '${p.name}'` })
    seen.add(p.name)
    if (typeof p.type !== 'string' || !isParamType(p.type)) {
      out.push({
        path: `${pp}.type`,
        message: `'${p.type}' is not one of ${PARAM_TYPES.join(', ')} (or an array of one: string[])`,
      })
      return
    }
    const base = baseType(p.type).base
    if (base === 'enum' && !model.enums.has(p.enum ?? ''))
      out.push({ path: `${pp}.enum`, message: `unknown enum '${p.enum ?? ''}'` })
    if (base !== 'enum' && p.enum !== undefined)
      out.push({ path: `${pp}.enum`, message: `only an enum parameter names an enum` })
    if (base === 'entity' && !model.entity(p.entity ?? ''))
      out.push({ path: `${pp}.entity`, message: `unknown entity '${p.entity ?? ''}'` })
    if (base !== 'entity' && p.entity !== undefined)
      out.push({ path: `${pp}.entity`, message: `only an entity parameter names an entity` })
    samples.set(p.name, sampleValue(model, p))
  })
  for (const name of placeholdersOf(q.filter)) {
    if (name.includes('$') && !isSessionParam(name))
      out.push({
        path: `${path}.filter`,
        message: `unknown caller parameter ':${name}' (${SESSION_PARAMS.map((n) => `:${n}`).join(', ')})`,
      })
    else if (!seen.has(name) && !isSessionParam(name))
      out.push({ path: `${path}.filter`, message: `parameter '${name}' is not declared in params` })
  }
  for (const p of q.params) {
    if (baseType(p.type).array && !arrayPlaceholdersOk(q.filter, p.name))
      out.push({
        path: `${path}.filter`,
        message: `array parameter '${p.name}' may only be a value of an in or notIn condition`,
      })
  }
  const parsed = parseFilter(model, entity.name, substitute(q.filter, samples))
  if (!parsed.ok) out.push({ path: `${path}.filter`, message: parsed.error.details })
  if (q.sort !== undefined) {
    const sort = parseSort(model, entity.name, q.sort)
    if (!sort.ok) out.push({ path: `${path}.sort`, message: sort.error.details })
  }
}

/** Whether every use of array parameter `name` is a value of an `in` / `notIn` condition. */
function arrayPlaceholdersOk(filter: unknown, name: string): boolean {
  if (Array.isArray(filter)) return filter.every((f) => arrayPlaceholdersOk(f, name))
  if (!filter || typeof filter !== 'object') return true
  const node = filter as Record<string, unknown>
  if (Array.isArray(node.conditions) && !arrayPlaceholdersOk(node.conditions, name)) return false
  if (!('value' in node)) return true
  const values = Array.isArray(node.value) ? node.value : [node.value]
  if (!values.includes(`:${name}`)) return true
  return node.operator === 'in' || node.operator === 'notIn'
}

export interface QueriesPlan {
  problems: Problem[]
  changes: string[]
  save: NamedQuery[]
  remove: NamedQuery[]
}

export async function planQueries(
  client: QueryClientContract,
  model: Model,
  entries: QueryEntry[] | undefined,
  prune: boolean,
  renames?: Renames
): Promise<QueriesPlan> {
  const problems: Problem[] = []
  const changes: string[] = []
  const stored = new Map((await loadQueries(client)).map((q) => [queryKey(q), q]))
  const queries = (entries ?? []).map(normalizeQuery)
  const first = new Map<string, number>()
  const save: NamedQuery[] = []
  queries.forEach((q, i) => {
    const path = `$.queries[${i}]`
    const key = queryKey(q)
    const earlier = first.get(key)
    if (earlier !== undefined) {
      problems.push({
        path: `${path}.name`,
        message: `duplicate query '${q.name}' of ${q.entity} (also $.queries[${earlier}])`,
      })
      return
    }
    first.set(key, i)
    checkQuery(model, q, path, problems)
    const before = stored.get(key)
    if (!before) changes.push(`query ${key}: created`)
    else if (JSON.stringify(before) !== JSON.stringify(q)) changes.push(`query ${key}: changed`)
    else return
    save.push(q)
  })
  const remove = entries && prune ? [...stored.values()].filter((q) => !first.has(queryKey(q))) : []
  for (const q of remove) changes.push(`query ${queryKey(q)}: deleted (prune)`)
  // Stored queries the change keeps follow renames and must still hold against the new model.
  const removed = new Set(remove.map(queryKey))
  for (const q of stored.values()) {
    if (first.has(queryKey(q)) || removed.has(queryKey(q))) continue
    const followed = renames ? followRenames(model, renames, q) : q
    const found: Problem[] = []
    checkQuery(model, followed, '$.queries', found)
    for (const p of found)
      problems.push({
        path: '$.queries',
        message: `stored query ${queryKey(q)} (${p.path.slice('$.queries'.length + 1)}): ${p.message}; change or delete the query first`,
      })
    if (JSON.stringify(followed) === JSON.stringify(q)) continue
    if (first.has(queryKey(followed))) continue
    changes.push(`query ${queryKey(q)}: follows the renames as ${queryKey(followed)}`)
    if (queryKey(followed) !== queryKey(q)) remove.push(q)
    save.push(followed)
  }
  return { problems, changes, save, remove }
}

/** Writes the planned queries inside the change's transaction; whether anything changed. */
export async function applyQueries(client: QueryClientContract, plan: QueriesPlan) {
  for (const q of plan.save) await saveQuery(client, q)
  for (const q of plan.remove) await deleteQuery(client, q.entity, q.name)
  return plan.save.length + plan.remove.length > 0
}
