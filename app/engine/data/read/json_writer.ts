/**
 * Entity JSON written straight to text, by a writer compiled once per output plan node (plans
 * are cached per model version and policy key, so a node stands for the entity, the fetch plan,
 * the attributes the subject may view and the model version) and `returnNulls`. The same bytes
 * as `stringifyJson(serialize(...))` (serializer.ts, json_text.ts), without their work per row:
 * no entity object per row, no JsonNumber per decimal and no marker pass over the text, no walk
 * of the plan's properties and the entity's attribute list per row, one lookup per enum value.
 *
 * What stays per row: the instance name (compiled per entity: instance_names.ts), the ancestry check (an
 * entity reached again on its own path is written as its three meta keys) and the security
 * token when tokens are required.
 */
import type { AttributeMeta, EntityMeta, Model } from '../../metadata/model.js'
import type { PlanNode } from '../../query/fetch_plans.js'
import type { LoadedRow } from './loaded_row.js'
import { loaded } from './loaded_row.js'
import { JsonNumber, quote } from './json_text.js'
import type { SerializeOptions } from './serializer.js'
import { instanceNameOf } from './instance_names.js'
import { formatValue } from './values.js'

/** One entity object as JSON text; `path`: the entities on the way here (serializer.ts). */
export type EntityWriter = (node: LoadedRow, path: Set<string>, options: SerializeOptions) => string

const json = JSON.stringify

/** The JSON text of a datatype attribute's non-null stored value (values.ts `formatValue`). */
function valueWriter(model: Model, a: AttributeMeta): (value: unknown) => string {
  switch (a.datatype) {
    case 'string':
    case 'text':
    case 'uuid':
    case 'file':
      return (v) => quote(typeof v === 'string' ? v : String(v))
    case 'int':
    case 'long':
    case 'double':
      return (v) => json(typeof v === 'number' ? v : Number(v))
    case 'boolean':
      return (v) => (v === true || v === 1 || v === '1' || v === 'true' ? 'true' : 'false')
    case 'decimal':
      return (v) => {
        const d = formatValue(model, a, v)
        return d instanceof JsonNumber ? d.text : json(d)
      }
    case 'enum': {
      const def = model.enums.get(a.definition?.enum ?? '')
      const names = new Map((def?.values ?? []).map((e) => [e.id, json(e.name)]))
      return (v) => names.get(String(v)) ?? json(String(v))
    }
    default:
      return (v) => json(formatValue(model, a, v))
  }
}

interface Field {
  /** `,"name":` */
  key: string
  name: string
  /** Datatype attributes: the column and the value's text. */
  column?: string
  text?: (value: unknown) => string
  /** Relations: the nested plan's writer. */
  write?: EntityWriter
}

const writers = new WeakMap<PlanNode, EntityWriter[]>()

/** The writer of `entity` objects under `plan` (compiled on first use, then cached). */
export function entityWriter(
  model: Model,
  entity: EntityMeta,
  plan: PlanNode,
  returnNulls: boolean
): EntityWriter {
  let compiled = writers.get(plan)
  if (!compiled) writers.set(plan, (compiled = []))
  const slot = returnNulls ? 1 : 0
  return (compiled[slot] ??= compile(model, entity, plan, returnNulls))
}

function compile(
  model: Model,
  entity: EntityMeta,
  plan: PlanNode,
  returnNulls: boolean
): EntityWriter {
  const fields: Field[] = []
  for (const a of entity.attributeList) {
    if (a.name === 'id' || a.transient || !plan.properties.has(a.name)) continue
    const key = `,${json(a.name)}:`
    if (a.kind === 'datatype') {
      fields.push({ key, name: a.name, column: a.column ?? undefined, text: valueWriter(model, a) })
      continue
    }
    const sub = plan.properties.get(a.name)
    const target = model.entity(a.target!)
    if (sub && target)
      fields.push({ key, name: a.name, write: entityWriter(model, target, sub, returnNulls) })
  }
  // Only an entity its own plan leads back to can meet itself below: others stay off the path.
  const recurs = leadsTo(plan, entity.name)
  const head = `{"_entityName":${json(entity.name)},"_instanceName":`
  const tag = `${entity.name}\u0000`
  const instanceName = instanceNameOf(model, entity)

  return (node, path, options) => {
    const id = String(node.row.id)
    let out = `${head}${quote(instanceName(node, options.caption))},"id":${quote(id)}`
    const key = path.size > 0 || recurs ? tag + id : ''
    if (path.size > 0 && path.has(key)) {
      if (options.token) out += `,"__securityToken":${json(options.token(entity, node))}`
      return `${out}}`
    }
    if (recurs) path.add(key)
    const row = node.row
    for (const f of fields) {
      if (f.text) {
        const value = f.column === undefined ? undefined : row[f.column]
        if (value !== null && value !== undefined) out += f.key + f.text(value)
        else if (returnNulls) out += `${f.key}null`
        continue
      }
      if (!loaded(node, f.name)) continue
      const child = node.rel[f.name]
      if (Array.isArray(child)) {
        let sep = `${f.key}[`
        for (const c of child) {
          out += sep + f.write!(c, path, options)
          sep = ','
        }
        out += child.length ? ']' : `${f.key}[]`
      } else if (child) out += f.key + f.write!(child, path, options)
      else if (returnNulls) out += `${f.key}null`
    }
    if (recurs) path.delete(key)
    if (options.token) out += `,"__securityToken":${json(options.token(entity, node))}`
    return `${out}}`
  }
}

/** Whether a nested plan below `plan` (at any depth) is one of `entity`. */
function leadsTo(plan: PlanNode, entity: string, seen = new Set<PlanNode>()): boolean {
  for (const sub of plan.properties.values()) {
    if (!sub || seen.has(sub)) continue
    seen.add(sub)
    if (sub.entity === entity || leadsTo(sub, entity, seen)) return true
  }
  return false
}
