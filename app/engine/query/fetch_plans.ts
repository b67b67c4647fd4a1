/**
 * Fetch plans, expanded: named plans of the definition, their `extends` chains, inline plans and
 * the built-ins `_local`, `_base` and `_instance_name`, resolved into a tree of `PlanNode`s (the
 * entities API loads and serializes along it; the metadata API describes it).
 *
 * Semantics follow the upstream FetchPlanRepositoryImpl / FetchPlanLoader / FetchPlanBuilder:
 * - `_local`: every persistent attribute that is not a reference (system attributes included);
 * - `_instance_name`: the persistent attributes the instance name uses; a reference gets the
 *   target's `_instance_name` as an unnamed nested plan;
 * - `_base`: `_local`, then the references of the instance name with the target's `_base`
 *   (unnamed);
 * - a named plan merges its ancestor, then its properties; a property already present is deep
 *   merged (position kept, the merged nested plan loses its name); a reference without a nested
 *   plan gets `_base` (FetchPlanLoader; request JSON plans give it an empty plan instead, as
 *   FetchPlanBuilder does: data/read/plan.ts); an inline nested plan with `extends` is named
 *   after its ancestor.
 * Deviations (our instance names are templates with paths, and definitions are not checked for
 * cycles between named plans): paths such as `{orderLine.order.number}` add what they pass
 * through to the nested plans; a cycle is cut (the repeated built-in is left out, a repeated
 * named plan is replaced by the target's `_instance_name`).
 *
 * Pure: depends on the model snapshot only; resolutions are cached per model version.
 */
import type { AttributeMeta, EntityMeta, Model } from '../metadata/model.js'
import type { FetchPlanProperty, InlineFetchPlan } from '../metadata/types.js'
import { BUILTIN_FETCH_PLANS } from '../metadata/types.js'

export type BuiltinPlan = (typeof BUILTIN_FETCH_PLANS)[number]

/** One level of an expanded plan: the entity it applies to and its properties in order. */
export interface PlanNode {
  /** '' for an unnamed (inline or merged) plan. */
  readonly name: string
  readonly entity: string
  /** Attribute name -> nested plan (null for a datatype attribute), in plan order. */
  readonly properties: ReadonlyMap<string, PlanNode | null>
}

/** The upstream description shape (reference 3.3 / spec 2.4). */
export type PlanPropertyDescription = string | { name: string; fetchPlan: NestedPlanDescription }
export interface NestedPlanDescription {
  name?: string
  properties: PlanPropertyDescription[]
}
export interface FetchPlanDescription {
  name: string
  entity: string
  properties: PlanPropertyDescription[]
}

type Props = Map<string, PlanNode | null>

export function isBuiltinPlan(name: string): name is BuiltinPlan {
  return (BUILTIN_FETCH_PLANS as readonly string[]).includes(name)
}

const persistent = (a: AttributeMeta) => !a.transient
const isReference = (a: AttributeMeta) => a.kind !== 'datatype'

/** Adds a property, or deep merges its nested plan into the one already there (upstream merge). */
function mergeProperty(props: Props, name: string, nested: PlanNode | null) {
  if (!props.has(name)) return void props.set(name, nested)
  const existing = props.get(name) ?? null
  if (!nested) return
  if (!existing) return void props.set(name, nested)
  const merged: Props = new Map(existing.properties)
  for (const [n, sub] of nested.properties) mergeProperty(merged, n, sub)
  props.set(name, { name: '', entity: existing.entity, properties: merged })
}

/**
 * An entity's instance-name pattern, compiled once per entity (snapshot metadata is immutable):
 * `{a.b} (x {c})` -> literals `['', ' (x ', ')']` around the paths `[[a, b], [c]]`, each path as
 * written (trimmed; an empty `{}` stays, and makes no name); a pattern without braces is one
 * path (`name` -> `[[name]]`).
 */
export interface InstanceNameTemplate {
  braces: boolean
  /** `braces`: `literals[i]` precedes `paths[i]`; the last literal follows the last path. */
  literals: readonly string[]
  paths: readonly (readonly string[])[]
}

const templates = new WeakMap<EntityMeta, InstanceNameTemplate | null>()

export function instanceNameTemplate(entity: EntityMeta): InstanceNameTemplate | null {
  let template = templates.get(entity)
  if (template !== undefined) return template
  const pattern = entity.instanceName
  if (!pattern) template = null
  else if (!pattern.includes('{')) {
    const path = pattern.trim()
    template = { braces: false, literals: [], paths: path ? [path.split('.')] : [] }
  } else {
    const literals: string[] = []
    const paths: string[][] = []
    let last = 0
    for (const m of pattern.matchAll(/\{([^}]*)\}/g)) {
      literals.push(pattern.slice(last, m.index))
      paths.push(m[1].trim().split('.'))
      last = m.index! + m[0].length
    }
    literals.push(pattern.slice(last))
    template = { braces: true, literals, paths }
  }
  templates.set(entity, template)
  return template
}

/** The instance-name pattern's property paths: `{a.b} x {c}` -> [[a, b], [c]]; `name` -> [[name]]. */
export function instanceNamePaths(entity: EntityMeta): string[][] {
  const template = instanceNameTemplate(entity)
  if (!template) return []
  const paths = template.braces ? template.paths.filter((p) => p.join('.') !== '') : template.paths
  return paths.map((p) => [...p])
}

/** Instance-name paths grouped by their first attribute (in pattern order, persistent only). */
function instanceNameGroups(model: Model, entity: EntityMeta) {
  const groups = new Map<string, { attribute: AttributeMeta; rests: string[][] }>()
  for (const [first, ...rest] of instanceNamePaths(entity)) {
    const attribute = entity.attributes.get(first)
    if (!attribute || !persistent(attribute)) continue
    if (isReference(attribute) && !model.entity(attribute.target ?? '')) continue
    if (!groups.has(first)) groups.set(first, { attribute, rests: [] })
    if (rest.length) groups.get(first)!.rests.push(rest)
  }
  return [...groups.values()]
}

/**
 * The nested plan of a reference reached by instance-name paths: the target's built-in `kind`
 * (left out on a cycle) plus whatever the remaining path segments pass through.
 */
function referencePlan(
  model: Model,
  target: string,
  rests: string[][],
  kind: '_instance_name' | '_base',
  visiting: ReadonlySet<string>
): PlanNode {
  const entity = model.entity(target)!
  const props: Props = new Map()
  if (!visiting.has(`${target}/${kind}`)) {
    for (const [n, sub] of builtin(model, entity, kind, visiting).properties)
      mergeProperty(props, n, sub)
  }
  for (const [first, ...rest] of rests) {
    const attribute = entity.attributes.get(first)
    if (!attribute || !persistent(attribute)) continue
    if (!isReference(attribute)) mergeProperty(props, first, null)
    else if (model.entity(attribute.target ?? '')) {
      const sub = referencePlan(
        model,
        attribute.target!,
        rest.length ? [rest] : [],
        '_instance_name',
        visiting
      )
      mergeProperty(props, first, sub)
    }
  }
  return { name: '', entity: target, properties: props }
}

function builtin(
  model: Model,
  entity: EntityMeta,
  kind: BuiltinPlan,
  visiting: ReadonlySet<string> = new Set()
): PlanNode {
  const inner = new Set(visiting).add(`${entity.name}/${kind}`)
  const props: Props = new Map()
  if (kind !== '_instance_name') {
    for (const a of entity.attributeList)
      if (persistent(a) && !isReference(a)) props.set(a.name, null)
  }
  if (kind !== '_local') {
    for (const { attribute, rests } of instanceNameGroups(model, entity)) {
      if (!isReference(attribute)) {
        if (kind === '_instance_name') mergeProperty(props, attribute.name, null)
        continue
      }
      const nested = referencePlan(model, attribute.target!, rests, kind, inner)
      mergeProperty(props, attribute.name, nested)
    }
  }
  return { name: kind, entity: entity.name, properties: props }
}

/** Applies a plan's own properties (after its ancestor) to `props`. */
function applyProperties(
  model: Model,
  entity: EntityMeta,
  props: Props,
  properties: readonly FetchPlanProperty[],
  stack: ReadonlySet<string>
) {
  for (const property of properties) {
    const name = typeof property === 'string' ? property : property.name
    const nestedPlan = typeof property === 'string' ? undefined : property.fetchPlan
    const attribute = entity.attributes.get(name)
    if (!attribute) continue
    if (!isReference(attribute)) {
      mergeProperty(props, name, null)
      continue
    }
    const target = model.entity(attribute.target ?? '')
    if (!target) continue
    let nested: PlanNode | null
    if (nestedPlan === undefined) nested = resolve(model, target, '_base', stack)
    else if (typeof nestedPlan === 'string') nested = resolve(model, target, nestedPlan, stack)
    else nested = inlinePlan(model, target, nestedPlan, stack)
    if (nested) mergeProperty(props, name, nested)
  }
}

function inlinePlan(
  model: Model,
  entity: EntityMeta,
  plan: InlineFetchPlan,
  stack: ReadonlySet<string>,
  name = ''
): PlanNode | null {
  const props: Props = new Map()
  let planName = name
  if (plan.extends) {
    const base = resolve(model, entity, plan.extends, stack)
    if (!base) return null
    for (const [n, sub] of base.properties) mergeProperty(props, n, sub)
    planName ||= plan.extends
  }
  applyProperties(model, entity, props, plan.properties, stack)
  return { name: planName, entity: entity.name, properties: props }
}

/** A named or built-in plan; null when the entity has no such plan. */
function resolve(
  model: Model,
  entity: EntityMeta,
  name: string,
  stack: ReadonlySet<string>
): PlanNode | null {
  if (isBuiltinPlan(name)) return builtin(model, entity, name)
  const definition = model.fetchPlans.get(entity.name)?.get(name)
  if (!definition) return null
  const key = `${entity.name}/${name}`
  // A plan that (indirectly) nests itself would be infinite: cut the cycle.
  if (stack.has(key)) return builtin(model, entity, '_instance_name')
  const inner = new Set(stack).add(key)
  const plan = { extends: definition.extends, properties: definition.properties }
  return inlinePlan(model, entity, plan, inner, name)
}

/** The expanded plan `name` (named or built-in) of `entityName`; null when either is unknown. */
export function resolveFetchPlan(model: Model, entityName: string, name: string): PlanNode | null {
  return model.derive(`fetchPlan:${entityName}\u0000${name}`, () => {
    const entity = model.entity(entityName)
    return entity ? resolve(model, entity, name, new Set()) : null
  })
}

/** An inline plan in the definition's form (`{ extends?, properties }`), expanded; not cached. */
export function resolveInlineFetchPlan(
  model: Model,
  entityName: string,
  plan: InlineFetchPlan
): PlanNode | null {
  const entity = model.entity(entityName)
  return entity ? inlinePlan(model, entity, plan, new Set()) : null
}

/** The plans defined for an entity, in definition order (upstream lists no built-ins). */
export function fetchPlanNames(model: Model, entityName: string): string[] {
  return [...(model.fetchPlans.get(entityName)?.keys() ?? [])]
}

function describeProperties(plan: PlanNode): PlanPropertyDescription[] {
  return [...plan.properties].map(([name, nested]) =>
    nested ? { name, fetchPlan: describeNested(nested) } : name
  )
}

function describeNested(plan: PlanNode): NestedPlanDescription {
  const properties = describeProperties(plan)
  return plan.name ? { name: plan.name, properties } : { properties }
}

/** The upstream JSON of a plan (FetchPlanSerializationImpl): nested plans named when named. */
export function describeFetchPlan(plan: PlanNode): FetchPlanDescription {
  return { name: plan.name, entity: plan.entity, properties: describeProperties(plan) }
}

/** A copy of `plan` without the properties `keep` rejects (at every level). */
export function filterFetchPlan(
  plan: PlanNode,
  keep: (entity: string, attribute: string, nested: PlanNode | null) => boolean
): PlanNode {
  const props: Props = new Map()
  for (const [name, nested] of plan.properties) {
    if (!keep(plan.entity, name, nested)) continue
    props.set(name, nested ? filterFetchPlan(nested, keep) : null)
  }
  return { ...plan, properties: props }
}
