/**
 * Validation of property paths: instance-name patterns and fetch plans (extends chains, nested
 * plans by name or inline, to any depth). Part of validateModel (validate.ts).
 */
import type { EntityDefinition, FetchPlanProperty } from './types.js'
import { BUILTIN_FETCH_PLANS } from './types.js'
import type { Model } from './model.js'

type Report = (path: string, message: string) => void

const TO_ONE = new Set(['MANY_TO_ONE', 'ONE_TO_ONE'])

export function validateInstanceName(
  e: EntityDefinition,
  path: string,
  model: Model,
  report: Report
) {
  const pattern = e.instanceName!
  const paths = pattern.includes('{')
    ? [...pattern.matchAll(/\{([^}]*)\}/g)].map((m) => m[1])
    : [pattern]
  if (paths.length === 0) report(path, 'the pattern names no attribute')
  for (const propertyPath of paths) {
    let entity = model.entity(e.name)!
    const segments = propertyPath.split('.')
    for (const [k, segment] of segments.entries()) {
      const a = entity.attributes.get(segment)
      if (!a) {
        report(path, `unknown property '${propertyPath}'`)
        break
      }
      if (k === segments.length - 1) break
      if (a.kind === 'datatype' || !TO_ONE.has(a.cardinality) || !model.entity(a.target!)) {
        report(path, `'${propertyPath}' may only pass through to-one relations`)
        break
      }
      entity = model.entity(a.target!)!
    }
  }
}

export function validateExtends(
  entity: string,
  base: string,
  path: string,
  model: Model,
  report: Report,
  chain: string[]
) {
  if ((BUILTIN_FETCH_PLANS as readonly string[]).includes(base)) return
  const plan = model.fetchPlans.get(entity)?.get(base)
  if (!plan) return report(path, `unknown fetch plan '${base}' of ${entity}`)
  if (chain.includes(base)) return report(path, `fetch plan '${base}' extends itself`)
  if (plan.extends) validateExtends(entity, plan.extends, path, model, report, [...chain, base])
}

export function validatePlanProperties(
  entityName: string,
  properties: FetchPlanProperty[],
  path: string,
  model: Model,
  report: Report,
  depth: number
) {
  const entity = model.entity(entityName)
  // The relation's unknown target was already reported; nothing to check the properties against.
  if (!entity) return
  if (depth > 10) return report(path, 'fetch plans may nest at most 10 levels')
  properties.forEach((property, k) => {
    const pp = `${path}[${k}]`
    const name = typeof property === 'string' ? property : property.name
    const a = entity.attributes.get(name)
    if (!a)
      return report(
        typeof property === 'string' ? pp : `${pp}.name`,
        `unknown attribute '${name}' of ${entityName}`
      )
    if (typeof property === 'string' || property.fetchPlan === undefined) return
    if (a.kind === 'datatype') return report(`${pp}.fetchPlan`, `'${name}' is not a relation`)
    const nested = property.fetchPlan
    if (typeof nested === 'string') {
      const known =
        (BUILTIN_FETCH_PLANS as readonly string[]).includes(nested) ||
        model.fetchPlans.get(a.target!)?.has(nested)
      if (!known) report(`${pp}.fetchPlan`, `unknown fetch plan '${nested}' of ${a.target}`)
    } else {
      if (nested.extends !== undefined)
        validateExtends(a.target!, nested.extends, `${pp}.fetchPlan.extends`, model, report, [])
      validatePlanProperties(
        a.target!,
        nested.properties,
        `${pp}.fetchPlan.properties`,
        model,
        report,
        depth + 1
      )
    }
  })
}
