/**
 * Placeholders in report datasets. In a filter (the filter language), a string value `:alias`
 * names a parameter and `:Band.field` a field of an ancestor band's current row; in SQL,
 * `${alias}` and `${Band.field}` (Jmix's syntax). Both only ever become bindings.
 */

export interface Placeholder {
  /** Parameter alias, or band name when `field` is set. */
  name: string
  field?: string
}

const FILTER_PLACEHOLDER = /^:([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_.]*))?$/
export const SQL_PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_.]*))?\}/g

function placeholderOf(value: unknown): Placeholder | undefined {
  if (typeof value !== 'string') return undefined
  const match = FILTER_PLACEHOLDER.exec(value)
  if (!match) return undefined
  return match[2] ? { name: match[1], field: match[2] } : { name: match[1] }
}

/** Every placeholder of a filter. */
export function filterPlaceholders(filter: unknown, out: Placeholder[] = []): Placeholder[] {
  if (Array.isArray(filter)) filter.forEach((f) => filterPlaceholders(f, out))
  else if (filter && typeof filter === 'object') {
    const node = filter as Record<string, unknown>
    if (Array.isArray(node.conditions)) filterPlaceholders(node.conditions, out)
    if ('value' in node)
      for (const v of Array.isArray(node.value) ? node.value : [node.value]) {
        const p = placeholderOf(v)
        if (p) out.push(p)
      }
  }
  return out
}

/**
 * The filter with every placeholder replaced by `valueOf(placeholder)`. An array value inside an
 * `in` list is spread into it (ENTITY_LIST parameters).
 */
export function bindFilter(filter: unknown, valueOf: (p: Placeholder) => unknown): unknown {
  if (Array.isArray(filter)) return filter.map((f) => bindFilter(f, valueOf))
  if (!filter || typeof filter !== 'object') return filter
  const node = { ...(filter as Record<string, unknown>) }
  if (Array.isArray(node.conditions)) node.conditions = bindFilter(node.conditions, valueOf)
  if ('value' in node) {
    const replace = (v: unknown) => {
      const p = placeholderOf(v)
      return p ? valueOf(p) : v
    }
    node.value = Array.isArray(node.value)
      ? node.value.flatMap((v) => {
          const r = replace(v)
          return Array.isArray(r) ? r : [r]
        })
      : replace(node.value)
  }
  return node
}

/** Every placeholder of an SQL text. */
export function sqlPlaceholders(sql: string): Placeholder[] {
  return [...sql.matchAll(SQL_PLACEHOLDER)].map((m) =>
    m[2] ? { name: m[1], field: m[2] } : { name: m[1] }
  )
}
