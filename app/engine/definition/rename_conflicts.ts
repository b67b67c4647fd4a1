/**
 * `renamedFrom` requests that cannot be honoured are problems, not silent no-ops: renaming onto a
 * name that already exists, from a name the document itself still uses, or the same old name
 * claimed twice. (merge.ts also ignores such requests defensively.)
 */
import type { EntityDefinition, ModelDefinition } from '../metadata/types.js'
import type { Problem } from '../metadata/validate.js'

interface Named {
  name: string
  renamedFrom?: string
}

function check(
  items: Named[],
  stored: Set<string>,
  path: (i: number) => string,
  kind: string,
  out: Problem[]
) {
  const named = new Set(items.map((x) => x.name))
  const claimed = new Set<string>()
  items.forEach((item, i) => {
    const from = item.renamedFrom
    if (!from || from === item.name) return
    const at = `${path(i)}.renamedFrom`
    if (named.has(from)) {
      out.push({
        path: at,
        message: `cannot rename ${kind} '${from}': the document still names it`,
      })
    } else if (claimed.has(from)) {
      out.push({ path: at, message: `${kind} '${from}' is renamed twice` })
    } else if (stored.has(from) && stored.has(item.name)) {
      out.push({
        path: at,
        message: `cannot rename ${kind} '${from}' to '${item.name}': '${item.name}' already exists`,
      })
    }
    claimed.add(from)
  })
}

export function renameConflicts(current: ModelDefinition, entities: EntityDefinition[]): Problem[] {
  const out: Problem[] = []
  const stored = new Map(current.entities.map((e) => [e.name, e]))
  check(entities, new Set(stored.keys()), (i) => `$.entities[${i}]`, 'entity', out)
  entities.forEach((e, i) => {
    const old = stored.get(e.name) ?? (e.renamedFrom ? stored.get(e.renamedFrom) : undefined)
    const attributes = new Set(old?.attributes.map((a) => a.name) ?? [])
    check(e.attributes, attributes, (j) => `$.entities[${i}].attributes[${j}]`, 'attribute', out)
  })
  return out
}
