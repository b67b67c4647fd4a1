/**
 * The pure read plan: entity, fetch plan (what the response shows) and load plan (what is
 * loaded: the fetch plan plus what instance names need), both cut down to what the subject may
 * view, the parsed filter and sort, paging. No database here.
 */
import { parseLenientJson } from '../../query/lenient_json.js'
import type { AttributeMeta, EntityMeta, Model } from '../../metadata/model.js'
import type { FetchPlanProperty, InlineFetchPlan } from '../../metadata/types.js'
import type { PlanNode } from '../../query/fetch_plans.js'
import {
  filterFetchPlan,
  resolveFetchPlan,
  resolveInlineFetchPlan,
} from '../../query/fetch_plans.js'
import type { ParsedFilter } from '../../query/filter_ast.js'
import { parseFilter } from '../../query/filter_parser.js'
import type { SortKey } from '../../query/sort.js'
import { parseSort } from '../../query/sort.js'
import { isPlainObject } from '../../query/errors.js'
import type { DataContext } from '../data_manager.js'
import { DataError, entityNotFound, fetchPlanNotFound, forbidden } from '../errors.js'
import { memo } from './memo.js'

export interface ReadPlan {
  entity: EntityMeta
  /** What the response writes. */
  output: PlanNode
  /** What is loaded: `output` plus the instance-name attributes at every level. */
  load: PlanNode
  filter: ParsedFilter | null
  sort: SortKey[]
  limit: number | null
  offset: number
  returnNulls: boolean
}

export const invalidFetchPlan = (details: string) =>
  new DataError(400, 'Invalid FetchPlan definition', details)

/** The entity, after the subject's read permission (404 before 403, as upstream). */
export function readableEntity(ctx: DataContext, name: string): EntityMeta {
  const entity = ctx.model.entity(name)
  if (!entity) throw entityNotFound(name)
  if (!ctx.permissions.canRead(entity.name)) {
    throw forbidden('read', entity.name)
  }
  return entity
}

/**
 * Inline plan JSON (reference 3.3) -> the definition's `{extends?, properties}` form, read as
 * upstream's FetchPlanSerializationImpl reads it through FetchPlanBuilder (not as named plans
 * are read): a reference without a nested plan (`"customer"`, `{"name": "customer"}`) gets an
 * empty one (its `_entityName`, `_instanceName` and `id`, not `_base`); a dotted path
 * (`"customer.email"`) adds its attributes through the nested plans, which it creates or extends;
 * unknown names are ignored; a path through a non-reference is refused (upstream: 500).
 */
function inlineProperties(
  model: Model,
  entity: EntityMeta | undefined,
  raw: unknown,
  text: string
): FetchPlanProperty[] {
  if (!Array.isArray(raw)) throw invalidFetchPlan(text)
  const out: FetchPlanProperty[] = []
  for (const p of raw) {
    if (typeof p === 'string') out.push(inlinePath(model, entity, p, text))
    else if (isPlainObject(p) && typeof p.name === 'string') {
      const nested = p.fetchPlan ?? p.view
      const target = referenceTarget(model, entity, p.name)
      if (nested === undefined || nested === null) {
        out.push(target ? { name: p.name, fetchPlan: { properties: [] } } : p.name)
      } else if (typeof nested === 'string') out.push({ name: p.name, fetchPlan: nested })
      else out.push({ name: p.name, fetchPlan: inlineNested(model, target, nested, text) })
    } else throw invalidFetchPlan(text)
  }
  return out
}

/** The target entity of a reference attribute (undefined for anything else). */
function referenceTarget(model: Model, entity: EntityMeta | undefined, name: string) {
  const attribute = entity?.attributes.get(name)
  return attribute && attribute.kind !== 'datatype' ? model.entity(attribute.target!) : undefined
}

/** `"a"` or `"a.b.c"`: a reference gets a nested plan (empty, or with the rest of the path). */
function inlinePath(
  model: Model,
  entity: EntityMeta | undefined,
  path: string,
  text: string
): FetchPlanProperty {
  const [name, ...rest] = path.split('.')
  const target = referenceTarget(model, entity, name)
  if (target) {
    const properties = rest.length ? [inlinePath(model, target, rest.join('.'), text)] : []
    return { name, fetchPlan: { properties } }
  }
  if (rest.length && entity?.attributes.has(name)) throw invalidFetchPlan(text)
  return name
}

function inlineNested(
  model: Model,
  entity: EntityMeta | undefined,
  raw: unknown,
  text: string
): InlineFetchPlan {
  if (!isPlainObject(raw)) throw invalidFetchPlan(text)
  const properties = inlineProperties(model, entity, raw.properties ?? [], text)
  return typeof raw.extends === 'string' ? { extends: raw.extends, properties } : { properties }
}

/** A fetch plan parameter is inline JSON when it looks like an object (RestControllerUtils). */
const isJsonObject = (text: string) => {
  const trimmed = text.trim()
  return trimmed.startsWith('{') && trimmed.endsWith('}')
}

/**
 * A plan name, inline plan text or inline plan object -> the expanded plan. No plan is `_base`;
 * an empty name is not found, as upstream (`?fetchPlan=`: 400 `Fetch plan  for entity X not
 * found`).
 */
export function resolvePlan(ctx: DataContext, entity: EntityMeta, plan: unknown): PlanNode {
  if (plan === undefined || plan === null) plan = '_base'
  if (typeof plan === 'string' && !isJsonObject(plan)) {
    const node = resolveFetchPlan(ctx.model, entity.name, plan)
    if (!node) throw fetchPlanNotFound(entity.name, plan)
    return node
  }
  let raw: unknown = plan
  const text = typeof plan === 'string' ? plan : JSON.stringify(plan)
  if (typeof plan === 'string') {
    try {
      raw = parseLenientJson(plan)
    } catch {
      throw invalidFetchPlan(text)
    }
  }
  if (!isPlainObject(raw)) throw invalidFetchPlan(text)
  if (raw.entity !== undefined && raw.entity !== entity.name) {
    throw invalidFetchPlan(`Fetch plan entity ${String(raw.entity)} does not match ${entity.name}`)
  }
  const inline = inlineNested(ctx.model, entity, raw, text)
  const node = resolveInlineFetchPlan(ctx.model, entity.name, inline)
  if (!node) throw fetchPlanNotFound(entity.name, String(raw.extends))
  return node
}

/** Deep merge of `extra` into `base` (base order first). */
function merge(base: PlanNode, extra: PlanNode): PlanNode {
  const props = new Map(base.properties)
  for (const [name, sub] of extra.properties) {
    const existing = props.get(name)
    if (!props.has(name) || (!existing && sub)) props.set(name, sub)
    else if (existing && sub) props.set(name, merge(existing, sub))
  }
  return { ...base, properties: props }
}

/** `plan` plus, at every level, what the entity's instance name needs. */
export function withInstanceNames(model: Model, plan: PlanNode): PlanNode {
  const props = new Map<string, PlanNode | null>()
  for (const [name, sub] of plan.properties) props.set(name, sub && withInstanceNames(model, sub))
  const names = resolveFetchPlan(model, plan.entity, '_instance_name')
  const node = { ...plan, properties: props }
  return names ? merge(node, names) : node
}

/** The plan without attributes the subject may not view and references it may not read. */
export function secure(ctx: DataContext, plan: PlanNode): PlanNode {
  return filterFetchPlan(plan, (entity, attribute, nested) => {
    const a = ctx.model.entity(entity)?.attributes.get(attribute)
    if (!a || a.transient) return false
    if (!ctx.permissions.canView(entity, attribute)) return false
    return !nested || ctx.permissions.canRead(nested.entity)
  })
}

/**
 * What a filter or sort may name: viewable attributes, and relations only into readable
 * entities. Anything else is reported like an unknown attribute (no oracle, catalogue FQ10-16).
 */
const readable = (ctx: DataContext) => (a: AttributeMeta) =>
  ctx.permissions.canView(a.entity, a.name) &&
  (a.kind === 'datatype' || ctx.permissions.canRead(a.target!))

export function planFilter(ctx: DataContext, entity: EntityMeta, filter: unknown) {
  if (filter === undefined) return null
  if (typeof filter === 'string') {
    // A query string's filter text: a bounded memo per text and policy key (memo.ts).
    const key = `${entity.name}\u0000${ctx.permissions.key}\u0000${filter}`
    return memo(ctx.model, 'filter', key, () => parseReadableFilter(ctx, entity, filter))
  }
  return parseReadableFilter(ctx, entity, filter)
}

function parseReadableFilter(ctx: DataContext, entity: EntityMeta, filter: unknown) {
  const parsed = parseFilter(ctx.model, entity.name, filter, { readable: readable(ctx) })
  if (!parsed.ok) throw new DataError(parsed.error.status, parsed.error.error, parsed.error.details)
  return parsed.value
}

export function planSort(ctx: DataContext, entity: EntityMeta, sort: unknown): SortKey[] {
  const parsed = parseSort(ctx.model, entity.name, sort, { readable: readable(ctx) })
  if (!parsed.ok) throw new DataError(parsed.error.status, parsed.error.error, parsed.error.details)
  return parsed.value.keys
}

export function limitExceeded() {
  return new DataError(
    400,
    'The value of limit exceeded',
    'The value of the limit exceeds the maximum possible value from application.properties'
  )
}

function paging(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value
  throw new DataError(400, 'Invalid parameter', `Invalid ${name} parameter: ${String(value)}`)
}

export function planPaging(ctx: DataContext, limit: unknown, offset: unknown) {
  const l = paging(limit, 'limit')
  if (l !== undefined && l > ctx.maxFetchSize) throw limitExceeded()
  // `limit=0` is "no limit" upstream (JpaDataStore skips setMaxResults(0)), not an empty page:
  // it gets the default page, bounded by the maximum fetch size as every unlimited list here.
  return { limit: l || ctx.maxFetchSize, offset: paging(offset, 'offset') ?? 0 }
}

/**
 * The output and load plans. Named plans are cached per model version (`derive`) and policy key
 * (what the subject may view), and so are the ones the server itself chose (`serverPlan`: a
 * bounded set, e.g. the minimal response of a write); inline plans of clients in a bounded memo.
 */
export function outputAndLoad(
  ctx: DataContext,
  entity: EntityMeta,
  fetchPlan: unknown,
  serverPlan = false
): { output: PlanNode; load: PlanNode } {
  const build = () => {
    const output = secure(ctx, resolvePlan(ctx, entity, fetchPlan))
    return { output, load: secure(ctx, withInstanceNames(ctx.model, output)) }
  }
  const name = fetchPlan ?? '_base'
  if (typeof name !== 'string') return build()
  if (!serverPlan && isJsonObject(name)) {
    // Inline plans: a bounded memo per text and policy key (memo.ts).
    return memo(
      ctx.model,
      'inlinePlan',
      `${entity.name}\u0000${ctx.permissions.key}\u0000${name}`,
      build
    )
  }
  // Unknown plans throw before anything is cached: cache keys stay bounded by the model. Kept
  // per policy key, entity and plan name in nested maps: a key text joined per request cost
  // more than the three lookups (its hash is computed anew each time).
  const byPolicy = ctx.model.derive('readPlans', () => new Map<string, NamedPlans>())
  const byEntity = entryOf(byPolicy, ctx.permissions.key, newMap<EntityMeta, PlansByName>)
  return entryOf(entryOf(byEntity, entity, newMap<string, Plans>), name, build)
}

type Plans = { output: PlanNode; load: PlanNode }
type PlansByName = Map<string, Plans>
/** Output and load plans per entity and plan name (of one policy key). */
type NamedPlans = Map<EntityMeta, PlansByName>

const newMap = <K, V>() => new Map<K, V>()

/** `map`'s value at `key`, made by `make` and kept on first use. */
function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key)
  if (value === undefined) map.set(key, (value = make()))
  return value
}
