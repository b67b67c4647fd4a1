/**
 * Property paths (`customer.address.city`) resolved through the model. This is the only place
 * where a name from a request becomes an attribute: every segment is looked up in the entity's
 * attribute map (never as an object property, so `constructor` or `__proto__` are simply unknown)
 * and must also match the attribute-name grammar, so nothing else can ever reach SQL.
 */
import type { AttributeMeta, EntityMeta, Model } from '../metadata/model.js'
import { ATTRIBUTE_NAME } from '../metadata/naming.js'

export interface PropertyPath {
  /** The dotted path as given. */
  text: string
  /** Entity the path starts from. */
  root: EntityMeta
  /** One attribute per segment; all but the last are relations. */
  attributes: readonly AttributeMeta[]
  /** `owners[i]` is the entity that declares `attributes[i]`. */
  owners: readonly EntityMeta[]
  /** Some segment is a to-many relation: a condition holds when any related row satisfies it. */
  toMany: boolean
}

export type PathProblem =
  | { reason: 'syntax' }
  | { reason: 'tooLong' }
  | { reason: 'unknown'; segment: string }
  | { reason: 'hidden'; segment: string }
  | { reason: 'transient'; segment: string }
  | { reason: 'notRelation'; segment: string }
  | { reason: 'toMany'; segment: string }

export interface PathRules {
  maxSegments: number
  /** False: every relation on the path must be to-one (sort). */
  allowToMany: boolean
  /** Attribute permission of the caller; a hidden attribute is reported like an unknown one. */
  readable?: (attribute: AttributeMeta) => boolean
}

export function isToMany(a: AttributeMeta): boolean {
  return a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY'
}

export function isRelation(a: AttributeMeta): boolean {
  return a.kind !== 'datatype'
}

/** Resolves `text` from `root`; returns the path or why it cannot be used. */
export function resolvePath(
  model: Model,
  root: EntityMeta,
  text: string,
  rules: PathRules
): PropertyPath | PathProblem {
  const segments = text.split('.')
  if (segments.length > rules.maxSegments) return { reason: 'tooLong' }
  if (!segments.every((s) => ATTRIBUTE_NAME.test(s))) return { reason: 'syntax' }
  const attributes: AttributeMeta[] = []
  const owners: EntityMeta[] = []
  let entity: EntityMeta | undefined = root
  let toMany = false
  for (const [k, segment] of segments.entries()) {
    if (!entity) return { reason: 'unknown', segment }
    const a = entity.attributes.get(segment)
    if (!a) return { reason: 'unknown', segment }
    if (rules.readable && !rules.readable(a)) return { reason: 'hidden', segment }
    if (a.transient) return { reason: 'transient', segment }
    if (isRelation(a) && isToMany(a)) {
      if (!rules.allowToMany) return { reason: 'toMany', segment }
      toMany = true
    }
    attributes.push(a)
    owners.push(entity)
    if (k < segments.length - 1) {
      if (!isRelation(a)) return { reason: 'notRelation', segment }
      entity = model.entity(a.target!)
    }
  }
  return { text, root, attributes, owners, toMany }
}

export function isPathProblem(value: PropertyPath | PathProblem): value is PathProblem {
  return 'reason' in value
}

/** The last attribute of a path (the one a condition or sort key is about). */
export function leaf(path: PropertyPath): AttributeMeta {
  return path.attributes[path.attributes.length - 1]
}
