/**
 * Instance names (`_instanceName`) from the entity's pattern, compiled once per entity (per
 * model version: entity objects belong to one model): each path of the pattern becomes a chain
 * of steps with its attributes, columns and value formatting resolved, so a row costs the
 * lookups of its own values only. Rules (unchanged from the walk it replaces):
 *
 * - a path is followed through the loaded to-one references; a datatype attribute ends it;
 * - a null value or a null reference is an empty part (its brackets go with it:
 *   instance_name.ts `fillPattern`); a path ending on a reference takes the target's name;
 * - anything not loaded (a column the statement did not select, a relation not loaded, a
 *   collection on the way) makes upstream's `toString()` fallback, `<entity>-<id> [detached]`;
 * - enum values by their caption in the request locale (`caption`), else the `en` caption, else
 *   the value's name.
 */
import type { AttributeMeta, EntityMeta, Model } from '../../metadata/model.js'
import { instanceNameTemplate } from '../../query/fetch_plans.js'
import type { LoadedRow } from './loaded_row.js'
import { loaded } from './loaded_row.js'
import { fillPattern } from './instance_name.js'
import { formatId, formatValue } from './values.js'

/** Caption of a model element in the request locale (`<enum>.<VALUE>` keys, app/i18n). */
export type Caption = (key: string) => string

const NOT_LOADED = Symbol('not loaded')
type Text = string | typeof NOT_LOADED
type Step = (node: LoadedRow, caption: Caption | undefined) => Text
export type InstanceName = (node: LoadedRow, caption?: Caption) => string

const compiled = new WeakMap<EntityMeta, InstanceName>()

/** The compiled instance name of `entity`. */
export function instanceNameOf(model: Model, entity: EntityMeta): InstanceName {
  let name = compiled.get(entity)
  if (!name) compiled.set(entity, (name = compile(model, entity)))
  return name
}

function valueStep(model: Model, a: AttributeMeta): Step {
  const column = a.column
  if (!column) return () => NOT_LOADED
  if (a.datatype === 'enum') {
    const def = model.enums.get(a.definition?.enum ?? '')
    return (node, caption) => {
      if (!(column in node.row)) return NOT_LOADED
      const value = node.row[column]
      if (value === null || value === undefined) return ''
      const v = def?.values.find((e) => e.id === String(value))
      if (def && v && caption) return caption(`${def.name}.${v.name}`)
      const captions = v?.caption as Record<string, string> | undefined
      return captions?.en ?? v?.name ?? String(value)
    }
  }
  const plain = a.datatype === 'string' || a.datatype === 'text' || a.datatype === 'uuid'
  return (node) => {
    if (!(column in node.row)) return NOT_LOADED
    const value = node.row[column]
    if (value === null || value === undefined) return ''
    if (plain) return typeof value === 'string' ? value : String(value)
    const formatted = formatValue(model, a, value)
    return typeof formatted === 'object' ? JSON.stringify(formatted) : String(formatted)
  }
}

function pathStep(model: Model, entity: EntityMeta, path: readonly string[], at: number): Step {
  const a = entity.attributes.get(path[at])
  if (!a) return () => NOT_LOADED
  if (a.kind === 'datatype') return valueStep(model, a)
  const target = model.entity(a.target!)!
  const name = a.name
  // The target's own name is looked up when a row needs it (a pattern may lead back here).
  const next: Step =
    at + 1 < path.length
      ? pathStep(model, target, path, at + 1)
      : (child, caption) => instanceNameOf(model, target)(child, caption)
  return (node, caption) => {
    if (!loaded(node, name)) return NOT_LOADED
    const child = node.rel[name]
    if (Array.isArray(child)) return NOT_LOADED
    return child ? next(child, caption) : ''
  }
}

function compile(model: Model, entity: EntityMeta): InstanceName {
  const fallback = (node: LoadedRow) => `${entity.name}-${formatId(node.row.id)} [detached]`
  const template = instanceNameTemplate(entity)
  if (!template) return fallback
  const steps = template.paths.map((p) => pathStep(model, entity, p, 0))
  if (!template.braces) {
    const step = steps[0]
    if (!step) return fallback
    return (node, caption) => {
      const text = step(node, caption)
      return text === NOT_LOADED ? fallback(node) : text
    }
  }
  const literals = template.literals
  if (steps.length === 2) {
    // The common `{a} ({b})` shape without an array per row; an empty part takes the rules.
    const [first, second] = steps
    const [before, between, after] = literals
    return (node, caption) => {
      const a = first(node, caption)
      if (a === NOT_LOADED) return fallback(node)
      const b = second(node, caption)
      if (b === NOT_LOADED) return fallback(node)
      return a !== '' && b !== '' ? before + a + between + b + after : fillPattern(literals, [a, b])
    }
  }
  return (node, caption) => {
    const texts: string[] = []
    for (const step of steps) {
      const text = step(node, caption)
      if (text === NOT_LOADED) return fallback(node)
      texts.push(text)
    }
    return fillPattern(literals, texts)
  }
}
