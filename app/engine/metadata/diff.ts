/**
 * Human-readable differences between two normalized model definitions ("entity X: attribute y
 * added"). Empty when the models are identical: that is the round-trip guarantee. With the
 * change's renames (`renamedFrom`), a renamed entity or attribute reads as a rename ("entity X:
 * renamed from W", "attribute b renamed from a"), never as one removed and another added.
 */
import type { ModelDefinition } from './types.js'

/** The renames of a change (app/engine/definition/renames.ts `Renames`). */
export interface DiffRenames {
  /** old entity name -> new entity name */
  entities: ReadonlyMap<string, string>
  /** NEW entity name -> old attribute name -> new attribute name */
  attributes: ReadonlyMap<string, ReadonlyMap<string, string>>
}

const NONE: DiffRenames = { entities: new Map(), attributes: new Map() }

function byKey<T>(items: T[], key: (item: T) => string): Map<string, T> {
  return new Map(items.map((i) => [key(i), i]))
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

function diffNamed<T>(
  kind: string,
  before: Map<string, T>,
  after: Map<string, T>,
  detail?: (a: T, b: T, name: string) => string[],
  /** new name -> old name of renamed items */
  renamedFrom: ReadonlyMap<string, string> = new Map()
) {
  const changes: string[] = []
  const continued = new Set<string>()
  for (const [name, item] of after) {
    const from = before.has(name) ? undefined : renamedFrom.get(name)
    const old = before.get(name) ?? (from === undefined ? undefined : before.get(from))
    if (from !== undefined && old) continued.add(from)
    if (!old) changes.push(`${kind} ${name}: added`)
    else if (from !== undefined || !same(old, item)) {
      const details = [
        ...(from !== undefined ? [`renamed from ${from}`] : []),
        ...(detail ? detail(old, item, name) : []),
      ]
      changes.push(
        details.length ? `${kind} ${name}: ${details.join(', ')}` : `${kind} ${name}: changed`
      )
    }
  }
  for (const name of before.keys())
    if (!after.has(name) && !continued.has(name)) changes.push(`${kind} ${name}: removed`)
  return changes
}

const invert = (map: ReadonlyMap<string, string> | undefined) =>
  new Map([...(map ?? new Map<string, string>())].map(([from, to]) => [to, from]))

export function diffModels(
  before: ModelDefinition,
  after: ModelDefinition,
  renames: DiffRenames = NONE
): string[] {
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
      (a, b, name) => {
        const out: string[] = []
        const attrsA = byKey(a.attributes, (x) => x.name)
        const attrsB = byKey(b.attributes, (x) => x.name)
        const renamedFrom = invert(renames.attributes.get(name))
        const continued = new Set<string>()
        for (const [attrName, attr] of attrsB) {
          const from = attrsA.has(attrName) ? undefined : renamedFrom.get(attrName)
          const old = attrsA.get(attrName) ?? (from === undefined ? undefined : attrsA.get(from))
          if (!old) out.push(`attribute ${attrName} added`)
          else if (from !== undefined) {
            continued.add(from)
            const changed = !same({ ...old, name: attrName }, attr)
            out.push(`attribute ${attrName} renamed from ${from}${changed ? ' and changed' : ''}`)
          } else if (!same(old, attr)) out.push(`attribute ${attrName} changed`)
        }
        for (const attrName of attrsA.keys())
          if (!attrsB.has(attrName) && !continued.has(attrName))
            out.push(`attribute ${attrName} removed`)
        if (!same({ ...a, name: b.name, attributes: [] }, { ...b, attributes: [] }))
          out.push('properties changed')
        return out
      },
      invert(renames.entities)
    ),
    ...diffNamed(
      'fetchPlan',
      byKey(before.fetchPlans, (p) => `${p.entity}/${p.name}`),
      byKey(after.fetchPlans, (p) => `${p.entity}/${p.name}`)
    ),
  ]
}
