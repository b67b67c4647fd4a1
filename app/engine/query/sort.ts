/**
 * The `sort` parameter: `number,-date, +customer.name` -> ordered sort keys. Upstream
 * (`EntitiesControllerManager.addOrderBy`): items split on commas and trimmed, a leading `+`
 * or `-`, property paths through to-one references; a to-one reference sorts by the target's
 * instance-name properties (recursively), unknown and to-many properties are skipped.
 * Ours on top: an item that is not a property path at all (`name; DROP TABLE x`, `random()`,
 * `1`) and oversized parameters are a 400 (catalogue FQ3), and `strict` turns skips into errors.
 */
import type { AttributeMeta, EntityMeta, Model } from '../metadata/model.js'
import { ATTRIBUTE_NAME } from '../metadata/naming.js'
import type { PropertyPath } from './property_path.js'
import { isPathProblem, isRelation, leaf, resolvePath } from './property_path.js'
import type { SortLimits } from './limits.js'
import { DEFAULT_SORT_LIMITS, withDefaults } from './limits.js'
import type { QueryResult } from './errors.js'
import { QueryFailure, SORT_ERROR, capture, echo, entityOrFail } from './errors.js'

export type SortDirection = 'asc' | 'desc'

/** Every key's path passes only to-one relations and ends at a persistent datatype attribute. */
export interface SortKey {
  path: PropertyPath
  direction: SortDirection
}

export type SkipReason = 'unknown' | 'hidden' | 'transient' | 'toMany' | 'notRelation'

export interface SkippedSortItem {
  item: string
  reason: SkipReason
}

export interface ParsedSort {
  keys: SortKey[]
  /** Items ignored as upstream ignores them (the caller may still refuse, e.g. `hidden`). */
  skipped: SkippedSortItem[]
}

export interface SortOptions extends Partial<SortLimits> {
  /** Attribute permission of the caller; refused attributes are skipped as `hidden`. */
  readable?: (attribute: AttributeMeta) => boolean
  /** Unknown, hidden, transient and to-many items are errors instead of skipped. */
  strict?: boolean
}

const ITEM = /^([+-]?)(.*)$/s

function sortFailure(details: string): QueryFailure {
  return new QueryFailure({ status: 400, error: SORT_ERROR, details })
}

export function parseSort(
  model: Model,
  entityName: string,
  sort: unknown,
  options: SortOptions = {}
): QueryResult<ParsedSort> {
  const limits = withDefaults(DEFAULT_SORT_LIMITS, options)
  return capture(() => {
    const entity = entityOrFail(model, entityName)
    if (sort === undefined || sort === null) return { keys: [], skipped: [] }
    if (typeof sort !== 'string') throw sortFailure('The sort parameter must be a string')
    if (sort.length > limits.maxTextLength)
      throw sortFailure(`The sort parameter is longer than ${limits.maxTextLength} characters`)
    const items = sort
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
    if (items.length > limits.maxKeys)
      throw sortFailure(`The sort parameter has more than ${limits.maxKeys} items`)
    return new SortReader(model, entity, limits, options).read(items)
  })
}

class SortReader {
  #keys = new Map<string, SortKey>()
  #skipped: SkippedSortItem[] = []

  constructor(
    private model: Model,
    private entity: EntityMeta,
    private limits: SortLimits,
    private options: SortOptions
  ) {}

  read(items: string[]): ParsedSort {
    for (const item of items) this.item(item)
    return { keys: [...this.#keys.values()], skipped: this.#skipped }
  }

  private item(item: string) {
    const [, sign, text] = ITEM.exec(item)!
    if (!text.split('.').every((s) => ATTRIBUTE_NAME.test(s)))
      throw sortFailure(`Sort item is not a property path: ${echo(item)}`)
    const direction: SortDirection = sign === '-' ? 'desc' : 'asc'
    const path = resolvePath(this.model, this.entity, text, this.rules())
    if (!isPathProblem(path)) return this.add(path, direction, new Set([this.entity.name]))
    if (path.reason === 'tooLong')
      throw sortFailure(`Sort path is longer than ${this.limits.maxPathLength} segments: ${item}`)
    if (path.reason === 'syntax')
      throw sortFailure(`Sort item is not a property path: ${echo(item)}`)
    // Stricter than upstream (catalogue TY7, FQ16): a typo must not silently reorder, and a
    // hidden attribute answers exactly like an unknown one (no ordering oracle).
    if (this.options.strict || path.reason === 'unknown' || path.reason === 'hidden')
      throw sortFailure(`Cannot sort ${this.entity.name} by ${item}: no such property`)
    this.#skipped.push({ item, reason: path.reason })
  }

  private rules(maxSegments = this.limits.maxPathLength) {
    return { maxSegments, allowToMany: false, readable: this.options.readable }
  }

  /** Adds a key; a to-one reference expands into its target's instance-name properties. */
  private add(path: PropertyPath, direction: SortDirection, visited: Set<string>) {
    const a = leaf(path)
    if (!isRelation(a)) {
      if (!this.#keys.has(path.text)) this.#keys.set(path.text, { path, direction })
      return
    }
    const target = this.model.entity(a.target!)
    if (!target) return
    let expanded = 0
    if (!visited.has(target.name)) {
      const room = this.limits.maxPathLength - path.attributes.length
      for (const text of instanceNamePaths(target)) {
        const sub = room > 0 ? resolvePath(this.model, target, text, this.rules(room)) : null
        if (!sub || isPathProblem(sub)) continue
        this.add(join(path, sub), direction, new Set([...visited, target.name]))
        expanded++
      }
    }
    // No usable instance name (or a cycle): sort by the reference itself, i.e. the target's id.
    const id = target.attributes.get('id')!
    if (expanded === 0 && path.attributes.length < this.limits.maxPathLength)
      this.add(join(path, single(target, id)), direction, visited)
  }
}

/** Property paths of an instance-name pattern: an attribute name or `{a} ({b.c})`. */
export function instanceNamePaths(entity: EntityMeta): string[] {
  const pattern = entity.instanceName
  if (!pattern) return []
  return pattern.includes('{') ? [...pattern.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]) : [pattern]
}

function single(entity: EntityMeta, a: AttributeMeta): PropertyPath {
  return { text: a.name, root: entity, attributes: [a], owners: [entity], toMany: false }
}

function join(head: PropertyPath, tail: PropertyPath): PropertyPath {
  return {
    text: `${head.text}.${tail.text}`,
    root: head.root,
    attributes: [...head.attributes, ...tail.attributes],
    owners: [...head.owners, ...tail.owners],
    toMany: head.toMany || tail.toMany,
  }
}
