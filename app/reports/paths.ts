/**
 * Property paths of report bands (`number`, `customer.name`): resolved through the model (the
 * only way a name from a definition reaches the data layer), turned into an inline fetch plan,
 * and used to flatten entity JSON into band fields.
 */
import type { AttributeMeta, Model } from '#engine/metadata/model'
import { JsonNumber } from '#engine/data/read/json_text'
import type { ReportValue } from './types.js'

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The attribute at the end of `path` from `entity`, or a problem message. */
export function resolvePath(
  model: Model,
  entity: string,
  path: string
): { attribute: AttributeMeta } | { error: string } {
  const parts = path.split('.')
  let current = model.entity(entity)
  let attribute: AttributeMeta | undefined
  for (const [i, part] of parts.entries()) {
    if (!current) return { error: `'${parts.slice(0, i).join('.')}' is not a reference` }
    if (!NAME.test(part)) return { error: `'${path}' is not a property path` }
    attribute = current.attributes.get(part)
    if (!attribute) return { error: `${current.name} has no attribute '${part}'` }
    current = attribute.target ? model.entity(attribute.target) : undefined
  }
  return { attribute: attribute! }
}

/** The datatype a field prints as: the attribute's datatype; a reference prints its name. */
export function fieldType(attribute: AttributeMeta): string {
  return attribute.target ? 'string' : (attribute.datatype ?? attribute.type)
}

interface PlanNode {
  properties: Map<string, PlanNode | null>
}

/** An inline fetch plan reading exactly `fields` (with instance names of references). */
export function planOfFields(fields: readonly string[]) {
  const root: PlanNode = { properties: new Map() }
  for (const field of fields) {
    let node = root
    const parts = field.split('.')
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        if (!node.properties.has(part)) node.properties.set(part, null)
        return
      }
      let next = node.properties.get(part)
      if (!next) node.properties.set(part, (next = { properties: new Map() }))
      node = next
    })
  }
  const render = (node: PlanNode): Record<string, unknown> => ({
    extends: '_instance_name',
    properties: [...node.properties].map(([name, child]) =>
      child ? { name, fetchPlan: render(child) } : name
    ),
  })
  return render(root)
}

/**
 * Entity JSON as band fields: `customer.name`, `customer` (its instance name), `_instanceName`;
 * to-many collections are left to child bands.
 */
export function flatten(
  json: Record<string, unknown>,
  prefix = '',
  out: Record<string, ReportValue> = {}
): Record<string, ReportValue> {
  for (const [key, value] of Object.entries(json)) {
    if (key === '_entityName' || key === '__securityToken' || Array.isArray(value)) continue
    const path = prefix + key
    if (value instanceof JsonNumber) out[path] = Number(value.text)
    else if (value !== null && typeof value === 'object') {
      const ref = value as Record<string, unknown>
      out[path] = (ref._instanceName ?? ref.id ?? null) as ReportValue
      flatten(ref, `${path}.`, out)
    } else out[path] = value as ReportValue
  }
  return out
}
