/**
 * Human-readable differences between two normalized model definitions ("entity X: attribute y
 * added"). Empty when the models are identical: that is the round-trip guarantee.
 */
import type { ModelDefinition } from './types.js'

function byKey<T>(items: T[], key: (item: T) => string): Map<string, T> {
  return new Map(items.map((i) => [key(i), i]))
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

function diffNamed<T>(
  kind: string,
  before: Map<string, T>,
  after: Map<string, T>,
  detail?: (a: T, b: T) => string[]
) {
  const changes: string[] = []
  for (const [name, item] of after) {
    const old = before.get(name)
    if (!old) changes.push(`${kind} ${name}: added`)
    else if (!same(old, item)) {
      const details = detail ? detail(old, item) : []
      changes.push(
        details.length ? `${kind} ${name}: ${details.join(', ')}` : `${kind} ${name}: changed`
      )
    }
  }
  for (const name of before.keys()) if (!after.has(name)) changes.push(`${kind} ${name}: removed`)
  return changes
}

export function diffModels(before: ModelDefinition, after: ModelDefinition): string[] {
  return [
    ...diffNamed(
      'enum',
      byKey(before.enums, (e) => e.name),
      byKey(after.enums, (e) => e.name)
    ),
    ...diffNamed(
      'entity',
      byKey(before.entities, (e) => e.name),
      byKey(after.entities, (e) => e.name),
      (a, b) => {
        const out: string[] = []
        const attrsA = byKey(a.attributes, (x) => x.name)
        const attrsB = byKey(b.attributes, (x) => x.name)
        for (const [name, attr] of attrsB) {
          if (!attrsA.has(name)) out.push(`attribute ${name} added`)
          else if (!same(attrsA.get(name), attr)) out.push(`attribute ${name} changed`)
        }
        for (const name of attrsA.keys())
          if (!attrsB.has(name)) out.push(`attribute ${name} removed`)
        if (!same({ ...a, attributes: [] }, { ...b, attributes: [] }))
          out.push('properties changed')
        return out
      }
    ),
    ...diffNamed(
      'fetchPlan',
      byKey(before.fetchPlans, (p) => `${p.entity}/${p.name}`),
      byKey(after.fetchPlans, (p) => `${p.entity}/${p.name}`)
    ),
  ]
}
