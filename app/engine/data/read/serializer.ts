/**
 * Loaded rows -> entity JSON (reference 4.1): `_entityName`, `_instanceName`, `id` (a string),
 * then the fetch plan's attributes in meta-class order; nulls omitted unless `returnNulls`;
 * references as nested objects per the nested plan, collections as arrays; an entity reached
 * again on its own path is written as its three meta keys only.
 */
import type { AttributeMeta, EntityMeta, Model } from '../../metadata/model.js'
import type { PlanNode } from '../../query/fetch_plans.js'
import { instanceNameTemplate } from '../../query/fetch_plans.js'
import type { EntityJson } from '../data_manager.js'
import type { LoadedRow } from './loader.js'
import { formatId, formatValue } from './values.js'
import { fillPattern } from './instance_name.js'

const NOT_LOADED = Symbol('not loaded')

/** Caption of a model element in the request locale (`<enum>.<VALUE>` keys, app/i18n). */
export type Caption = (key: string) => string

/** The text of one instance-name path, or NOT_LOADED when something it needs is missing. */
function pathText(
  model: Model,
  entity: EntityMeta,
  node: LoadedRow,
  path: readonly string[],
  at: number,
  caption: Caption | undefined
): unknown {
  const first = path[at]
  const a = entity.attributes.get(first)
  if (!a) return NOT_LOADED
  if (a.kind === 'datatype') {
    if (!a.column || !(a.column in node.row)) return NOT_LOADED
    const value = node.row[a.column]
    if (value === null || value === undefined) return ''
    if (a.datatype === 'enum') {
      const def = model.enums.get(a.definition?.enum ?? '')
      const v = def?.values.find((e) => e.id === String(value))
      if (def && v && caption) return caption(`${def.name}.${v.name}`)
      const captions = v?.caption as Record<string, string> | undefined
      return captions?.en ?? v?.name ?? String(value)
    }
    const formatted = formatValue(model, a, value)
    return typeof formatted === 'object' ? JSON.stringify(formatted) : String(formatted)
  }
  if (!node.rel.has(first)) return NOT_LOADED
  const child = node.rel.get(first)
  if (Array.isArray(child)) return NOT_LOADED
  if (!child) return ''
  const target = model.entity(a.target!)!
  return at + 1 < path.length
    ? pathText(model, target, child, path, at + 1, caption)
    : instanceName(model, target, child, caption)
}

/** Instance name from the pattern; upstream's `toString()` fallback when it cannot be made. */
export function instanceName(
  model: Model,
  entity: EntityMeta,
  node: LoadedRow,
  caption?: Caption
): string {
  const fallback = () => `${entity.name}-${formatId(node.row.id)} [detached]`
  // The pattern is compiled once per entity (literals around paths).
  const template = instanceNameTemplate(entity)
  if (!template) return fallback()
  if (!template.braces) {
    const text = template.paths.length
      ? pathText(model, entity, node, template.paths[0], 0, caption)
      : NOT_LOADED
    return text === NOT_LOADED ? fallback() : String(text)
  }
  const texts: string[] = []
  for (const path of template.paths) {
    const text = pathText(model, entity, node, path, 0, caption)
    if (text === NOT_LOADED) return fallback()
    texts.push(String(text))
  }
  // An empty part (null value or reference) goes without its brackets (instance_name.ts).
  return fillPattern(template.literals, texts)
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
    if (!sub || !target || !node.rel.has(a.name)) continue
    const child = node.rel.get(a.name)
    if (Array.isArray(child)) {
      out[a.name] = child.map((c) => serializeNode(model, target, sub, c, options, path))
    } else if (child) out[a.name] = serializeNode(model, target, sub, child, options, path)
    else if (options.returnNulls) out[a.name] = null
  }
  if (relations) path.delete(key)
  if (options.token) out.__securityToken = options.token(entity, node)
  return out
}
