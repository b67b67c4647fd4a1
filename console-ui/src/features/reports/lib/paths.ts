/*
 * Property paths a dataset may expose as band fields: the entity's attributes and, through
 * to-one references, their target's attributes (`customer.name`), to a small depth.
 */
import { isRelation, isToMany, type ModelEntity } from '../../../lib/model'

export function propertyPaths(entity: string, byName: Map<string, ModelEntity>, depth = 2, prefix = ''): string[] {
  const e = byName.get(entity)
  if (!e) return []
  const out: string[] = prefix ? [] : ['id']
  for (const a of e.attributes) {
    if (isRelation(a) && isToMany(a)) continue
    const path = prefix + a.name
    if (isRelation(a)) {
      out.push(path)
      if (depth > 1 && a.target) out.push(...propertyPaths(a.target, byName, depth - 1, `${path}.`).filter((p) => p !== `${path}.id`))
    } else out.push(path)
  }
  return out
}
