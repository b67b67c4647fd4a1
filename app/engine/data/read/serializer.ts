/**
 * Loaded rows -> entity JSON (reference 4.1): `_entityName`, `_instanceName`, `id` (a string),
 * then the fetch plan's attributes in meta-class order; nulls omitted unless `returnNulls`;
 * references as nested objects per the nested plan, collections as arrays; an entity reached
 * again on its own path is written as its three meta keys only.
 */
import type { AttributeMeta, EntityMeta, Model } from '../../metadata/model.js'
import type { PlanNode } from '../../query/fetch_plans.js'
import type { EntityJson } from '../data_manager.js'
import type { LoadedRow } from './loaded_row.js'
import { loaded } from './loaded_row.js'
import { formatId, formatValue } from './values.js'
import { instanceNameOf, type Caption } from './instance_names.js'

export type { Caption } from './instance_names.js'

/** Instance name from the pattern (compiled per entity: instance_names.ts). */
export function instanceName(
  model: Model,
  entity: EntityMeta,
  node: LoadedRow,
  caption?: Caption
): string {
  return instanceNameOf(model, entity)(node, caption)
}

export interface SerializeOptions {
  returnNulls: boolean
  /** Enum captions in the request locale (default: the `en` caption). */
  caption?: Caption
  /** Makes the `__securityToken` of an entity object (only when tokens are required). */
  token?: (entity: EntityMeta, node: LoadedRow) => string
}

export function serialize(
  model: Model,
  entity: EntityMeta,
  plan: PlanNode,
  node: LoadedRow,
  options: SerializeOptions,
  ancestry: ReadonlySet<string> = new Set()
): EntityJson {
  return serializeNode(model, entity, plan, node, options, new Set(ancestry))
}

/** Per plan level: its attributes in meta-class order, and whether any is a relation. */
const fieldsOf = new WeakMap<PlanNode, { fields: AttributeMeta[]; relations: boolean }>()

function fields(entity: EntityMeta, plan: PlanNode) {
  let found = fieldsOf.get(plan)
  if (!found) {
    const list = entity.attributeList.filter(
      (a) => a.name !== 'id' && !a.transient && plan.properties.has(a.name)
    )
    found = { fields: list, relations: list.some((a) => a.kind !== 'datatype') }
    fieldsOf.set(plan, found)
  }
  return found
}

/** `path`: the entities on the way here, added before the children and removed after them. */
function serializeNode(
  model: Model,
  entity: EntityMeta,
  plan: PlanNode,
  node: LoadedRow,
  options: SerializeOptions,
  path: Set<string>
): EntityJson {
  const out: EntityJson = {
    _entityName: entity.name,
    _instanceName: instanceName(model, entity, node, options.caption),
    id: formatId(node.row.id),
  }
  const key = `${entity.name}\u0000${out.id}`
  if (path.has(key)) {
    if (options.token) out.__securityToken = options.token(entity, node)
    return out
  }
  const { fields: list, relations } = fields(entity, plan)
  // A level without relations cannot lead back to itself: it need not be on the path.
  if (relations) path.add(key)
  for (const a of list) {
    if (a.kind === 'datatype') {
      const value = a.column ? node.row[a.column] : undefined
      if (value === null || value === undefined) {
        if (options.returnNulls) out[a.name] = null
      } else out[a.name] = formatValue(model, a, value)
      continue
    }
    const sub = plan.properties.get(a.name)
    const target = model.entity(a.target!)
    if (!sub || !target || !loaded(node, a.name)) continue
    const child = node.rel[a.name]
    if (Array.isArray(child)) {
      out[a.name] = child.map((c) => serializeNode(model, target, sub, c, options, path))
    } else if (child) out[a.name] = serializeNode(model, target, sub, child, options, path)
    else if (options.returnNulls) out[a.name] = null
  }
  if (relations) path.delete(key)
  if (options.token) out.__securityToken = options.token(entity, node)
  return out
}
