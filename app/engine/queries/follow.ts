/**
 * Stored queries follow model renames (an entity, an attribute on any segment of a property
 * path, in the filter and the sort), as translations do, so that a model change never leaves a
 * query naming what no longer exists under that name.
 */
import type { Renames } from '../definition/renames.js'
import type { Model } from '../metadata/model.js'
import type { NamedQuery } from './store.js'

export function followPath(model: Model, renames: Renames, entity: string, path: string): string {
  let current: string | null = entity
  return path
    .split('.')
    .map((segment) => {
      if (current === null) return segment
      const name = renames.attributes.get(current)?.get(segment) ?? segment
      current = model.entity(current)?.attributes.get(name)?.target ?? null
      return name
    })
    .join('.')
}

export function followFilter(
  model: Model,
  renames: Renames,
  entity: string,
  node: unknown
): unknown {
  if (Array.isArray(node)) return node.map((n) => followFilter(model, renames, entity, n))
  if (!node || typeof node !== 'object') return node
  const object = { ...(node as Record<string, unknown>) }
  if (Array.isArray(object.conditions))
    object.conditions = followFilter(model, renames, entity, object.conditions)
  if (typeof object.property === 'string')
    object.property = followPath(model, renames, entity, object.property)
  return object
}

export function followSort(model: Model, renames: Renames, entity: string, sort: string): string {
  return sort
    .split(',')
    .map((item) => {
      const [, lead, sign, path, trail] = /^(\s*)([+-]?)(.*?)(\s*)$/s.exec(item)!
      return `${lead}${sign}${followPath(model, renames, entity, path)}${trail}`
    })
    .join(',')
}

/** The stored query as the renamed model names things (unchanged when nothing it uses moved). */
export function followRenames(model: Model, renames: Renames, q: NamedQuery): NamedQuery {
  const entity = renames.entities.get(q.entity) ?? q.entity
  return {
    ...q,
    entity,
    filter: followFilter(model, renames, entity, q.filter),
    ...(q.sort !== undefined ? { sort: followSort(model, renames, entity, q.sort) } : {}),
    params: q.params.map((p) =>
      p.entity !== undefined ? { ...p, entity: renames.entities.get(p.entity) ?? p.entity } : p
    ),
  }
}
