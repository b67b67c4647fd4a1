/*
 * Fetch plans as the definition writes them (README "Definition format"): a property is an
 * attribute name or `{name, fetchPlan}` where the nested plan is a plan name of the target or an
 * inline plan `{extends?, properties}`, to any depth. Pure helpers for the plan editor.
 */
import type { FetchPlanProperty, InlineFetchPlan, ModelEntity } from '../../../lib/model'

export type InlinePlan = InlineFetchPlan
export type PlanProperty = FetchPlanProperty

export interface PlanDraft {
  entity: string
  name: string
  extends?: string
  properties: PlanProperty[]
}

export const BUILTIN_PLANS = ['_local', '_base', '_instance_name'] as const

export const propName = (p: PlanProperty) => (typeof p === 'string' ? p : p.name)
export const nestedOf = (p: PlanProperty) => (typeof p === 'string' ? undefined : p.fetchPlan)

export function findProperty(properties: PlanProperty[], name: string) {
  return properties.find((p) => propName(p) === name)
}

/** Adds (at the attribute's place in the entity) or removes a property. */
export function toggleProperty(
  properties: PlanProperty[],
  name: string,
  on: boolean,
  order: string[]
): PlanProperty[] {
  if (!on) return properties.filter((p) => propName(p) !== name)
  if (findProperty(properties, name)) return properties
  const next = [...properties, name]
  const rank = (p: PlanProperty) => {
    const i = order.indexOf(propName(p))
    return i < 0 ? Number.MAX_SAFE_INTEGER : i
  }
  return next.sort((a, b) => rank(a) - rank(b))
}

/** Sets the nested plan of a relation property (undefined: the default, the target's `_base`). */
export function setNested(
  properties: PlanProperty[],
  name: string,
  nested: string | InlinePlan | undefined
): PlanProperty[] {
  return properties.map((p) =>
    propName(p) !== name ? p : nested === undefined ? name : { name, fetchPlan: nested }
  )
}

const isRelation = (entity: ModelEntity | undefined, name: string) => {
  const a = entity?.attributes.find((x) => x.name === name)
  return a?.type === 'association' || a?.type === 'composition' ? a : undefined
}

/**
 * The plan as an inline request plan with the meaning it has as a named plan: a relation named
 * without a nested plan gets the target's `_base` (request plans would give it an empty one).
 */
export function asRequestPlan(
  plan: InlinePlan,
  entity: string,
  entities: ModelEntity[]
): InlinePlan {
  const meta = entities.find((e) => e.name === entity)
  const properties = plan.properties.map((p): PlanProperty => {
    const relation = isRelation(meta, propName(p))
    if (!relation) return propName(p)
    const nested = nestedOf(p)
    if (nested === undefined) return { name: propName(p), fetchPlan: '_base' }
    if (typeof nested === 'string') return { name: propName(p), fetchPlan: nested }
    return { name: propName(p), fetchPlan: asRequestPlan(nested, relation.target ?? '', entities) }
  })
  return plan.extends ? { extends: plan.extends, properties } : { properties }
}

/** The properties a plan gets from what it extends (for the editor's "included by" marks). */
export function inheritedProperties(
  entity: ModelEntity | undefined,
  base: string | undefined,
  plans: { entity: string; name: string; extends?: string; properties: PlanProperty[] }[],
  seen: string[] = []
): Map<string, string> {
  const out = new Map<string, string>()
  if (!entity || !base || seen.includes(base)) return out
  const reference = (a: { type: string }) => a.type === 'association' || a.type === 'composition'
  const paths = (entity.instanceName ?? '').includes('{')
    ? [...(entity.instanceName ?? '').matchAll(/\{([^}]*)\}/g)].map(
        (m) => m[1]!.trim().split('.')[0]!
      )
    : [(entity.instanceName ?? '').trim().split('.')[0] ?? '']
  if (base === '_local' || base === '_base')
    for (const a of entity.attributes) if (!reference(a) && !a.transient) out.set(a.name, base)
  if (base === '_base' || base === '_instance_name')
    for (const name of paths)
      if (name && entity.attributes.some((a) => a.name === name)) out.set(name, base)
  const named = plans.find((p) => p.entity === entity.name && p.name === base)
  if (named) {
    for (const [name] of inheritedProperties(entity, named.extends, plans, [...seen, base]))
      out.set(name, base)
    for (const p of named.properties) out.set(propName(p), base)
  }
  return out
}
