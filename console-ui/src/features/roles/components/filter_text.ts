/*
 * A one-line reading of a filter in the search filter language (app/engine/query/README.md):
 * `owner = :current_user_username AND (total > 100 OR status in [A, B])`.
 */
const value = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(value).join(', ')}]`
  if (v && typeof v === 'object') return String((v as { id?: unknown }).id ?? JSON.stringify(v))
  if (typeof v === 'string') return v.startsWith(':') ? v : JSON.stringify(v)
  return String(v)
}

export function filterText(filter: unknown, nested = false): string {
  if (!filter || typeof filter !== 'object') return 'every row'
  const node = filter as { group?: string; conditions?: unknown[]; property?: string; operator?: string; value?: unknown }
  if (Array.isArray(node.conditions)) {
    const joiner = ` ${(node.group ?? 'AND').toUpperCase()} `
    const parts = node.conditions.map((c) => filterText(c, true)).filter((t) => t !== 'every row')
    if (parts.length === 0) return 'every row'
    const text = parts.join(joiner)
    return nested && parts.length > 1 ? `(${text})` : text
  }
  if (node.property === undefined) return JSON.stringify(filter)
  if (!node.property) return '(incomplete condition)'
  const op = node.operator ?? '='
  return 'value' in node && !['isNull', 'notEmpty'].includes(op) ? `${node.property} ${op} ${value(node.value)}` : `${node.property} ${op}`
}
