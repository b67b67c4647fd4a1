/*
 * What the data browser derives from the model (admin API, lib/model.ts): the columns of an
 * entity, the inline fetch plans it asks /rest for, the attributes a reference search looks at.
 */
import type { ModelAttribute, ModelEntity } from '../../../lib/model'
import { isRelation, isToMany } from '../../../lib/model'
import { filterableAttributes } from '../../../components/filter/filter'

/** One row as /rest answers it. */
export interface EntityRow {
  _entityName: string
  _instanceName?: string
  id: string
  version?: number
  [attribute: string]: unknown
}

/** Every attribute the browser may show, in model order: id, declared (persistent), system. */
export const columnsOf = (entity: ModelEntity): ModelAttribute[] => filterableAttributes(entity)

export const isSystem = (a: ModelAttribute) => a.system === true

export const isComposition = (a: ModelAttribute) => a.type === 'composition'

/** The columns shown when the admin has not chosen: id hidden, declared attributes, no to-many. */
export function defaultColumns(entity: ModelEntity): string[] {
  const declared = entity.attributes.filter(
    (a) => !a.transient && !isToMany(a) && a.type !== 'json' && a.type !== 'text'
  )
  return declared.slice(0, 8).map((a) => a.name)
}

export type FetchPlanProperty =
  string | { name: string; fetchPlan: { properties: FetchPlanProperty[] } }

/** An inline plan with these attributes; references show their instance name only. */
export function tablePlan(
  entity: ModelEntity,
  columns: string[]
): { properties: FetchPlanProperty[] } {
  const known = new Set(columnsOf(entity).map((a) => a.name))
  const properties = columns.filter((c) => known.has(c) && c !== 'id')
  if ((entity.traits ?? []).includes('versioned') && !properties.includes('version'))
    properties.push('version')
  return { properties }
}

/**
 * The plan of the edit form: every persistent attribute; references by instance name;
 * compositions with their own attributes (two levels, as the server writes them).
 */
export function formPlan(
  entity: ModelEntity,
  byName: Map<string, ModelEntity>,
  depth = 0
): { properties: FetchPlanProperty[] } {
  const properties: FetchPlanProperty[] = []
  for (const a of columnsOf(entity)) {
    if (a.name === 'id') continue
    const target = a.target ? byName.get(a.target) : undefined
    if (isComposition(a) && target && depth < 2) {
      properties.push({ name: a.name, fetchPlan: formPlan(target, byName, depth + 1) })
    } else properties.push(a.name)
  }
  return { properties }
}

/** The attribute paths an instance name is made of (`{number} ({customer.name})` -> number, customer.name). */
export function instanceNamePaths(entity: ModelEntity): string[] {
  const pattern = entity.instanceName
  if (!pattern) return []
  if (!pattern.includes('{')) return [pattern]
  return [...pattern.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!.trim())
}

/** String attributes of the entity's own instance name (searched with `contains`), else its strings. */
export function searchPaths(entity: ModelEntity, byName: Map<string, ModelEntity>): string[] {
  const stringAt = (path: string) => {
    let owner: ModelEntity | undefined = entity
    const parts = path.split('.')
    for (let i = 0; i < parts.length; i++) {
      const a: ModelAttribute | undefined = owner
        ? columnsOf(owner).find((x) => x.name === parts[i])
        : undefined
      if (!a) return false
      if (i === parts.length - 1) return a.type === 'string' || a.type === 'text'
      if (!isRelation(a) || isToMany(a)) return false
      owner = byName.get(a.target ?? '')
    }
    return false
  }
  const fromName = instanceNamePaths(entity).filter(stringAt)
  if (fromName.length) return fromName
  return entity.attributes
    .filter((a) => a.type === 'string' && !a.transient)
    .map((a) => a.name)
    .slice(0, 4)
}

/** Attributes the form edits (id only when the id is given by the client: `string` ids). */
export function formAttributes(entity: ModelEntity, parentBackRef?: string): ModelAttribute[] {
  return entity.attributes.filter((a) => !a.transient && !a.readOnly && a.name !== parentBackRef)
}

export const entityLabel = (entity: ModelEntity) => entity.caption?.en ?? entity.name

/** `firstName` -> `First name` (the server's default caption). */
export const humanize = (name: string) => {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_$]+/g, ' ')
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export type CaptionLookup = (entity: string, attribute: string) => string

/** The inverse side of a relation (`mappedBy`): written from the other entity, shown read-only here. */
export const isInverse = (a: ModelAttribute) =>
  a.type === 'association' && typeof a.mappedBy === 'string'
