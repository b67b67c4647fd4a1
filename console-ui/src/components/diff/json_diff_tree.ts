/*
 * A structural before/after comparison of two JSON values, for people: objects key by key,
 * arrays of named objects (attributes, values, policies…) matched by their name so that one
 * inserted attribute is one addition, not a shift of every following one.
 */

export type DiffNode =
  | { kind: 'same'; value: unknown }
  | { kind: 'added'; value: unknown }
  | { kind: 'removed'; value: unknown }
  | { kind: 'changed'; before: unknown; after: unknown }
  | { kind: 'nested'; array: boolean; entries: DiffEntry[]; changed: number }

export interface DiffEntry {
  key: string
  node: DiffNode
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const IDENTITY_KEYS = ['name', 'code', 'username', 'clientId', 'key', 'entity']

/** The label of an array item: its name (or code…), else its position. */
function identity(item: unknown, index: number): string {
  if (isObject(item)) {
    if (typeof item.entity === 'string' && typeof item.name === 'string') return `${item.entity}/${item.name}`
    for (const key of IDENTITY_KEYS) if (typeof item[key] === 'string') return String(item[key])
  }
  return `#${index + 1}`
}

/** Items by their label; a label seen before gets the position added. */
function keyed(items: unknown[]): Map<string, unknown> {
  const out = new Map<string, unknown>()
  items.forEach((item, i) => {
    const key = identity(item, i)
    out.set(out.has(key) ? `${key} #${i + 1}` : key, item)
  })
  return out
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** How many leaves differ below a node (0 for an unchanged one). */
export function changedCount(node: DiffNode): number {
  if (node.kind === 'same') return 0
  if (node.kind === 'nested') return node.changed
  return 1
}

function nested(array: boolean, entries: DiffEntry[]): DiffNode {
  const changed = entries.reduce((n, e) => n + changedCount(e.node), 0)
  return { kind: 'nested', array, entries, changed }
}

export function diffJson(before: unknown, after: unknown): DiffNode {
  if (before === undefined && after === undefined) return { kind: 'same', value: undefined }
  if (before === undefined) return { kind: 'added', value: after }
  if (after === undefined) return { kind: 'removed', value: before }
  if (same(before, after)) return { kind: 'same', value: after }
  if (isObject(before) && isObject(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((k) => !(k in before))]
    return nested(
      false,
      keys.map((key) => ({ key, node: diffJson(before[key], after[key]) }))
    )
  }
  if (Array.isArray(before) && Array.isArray(after) && [...before, ...after].some(isObject)) {
    const old = keyed(before)
    const now = keyed(after)
    const keys = [...now.keys(), ...[...old.keys()].filter((k) => !now.has(k))]
    return nested(
      true,
      keys.map((key) => ({ key, node: diffJson(old.get(key), now.get(key)) }))
    )
  }
  return { kind: 'changed', before, after }
}

/** One value on one line where it is short (`"abc"`, `[1, 2]`, `{ "a": 1 }`). */
export function inline(value: unknown, max = 80): string {
  const text = JSON.stringify(value, null, 1)?.replace(/\n\s*/g, ' ') ?? 'undefined'
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
