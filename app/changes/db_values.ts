/**
 * How the dialects hand back booleans: PostgreSQL as true/false, SQLite as 1/0 (and text '1'
 * or 't' where a value went through a string). One reading for system tables and models.
 */
export function dbBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't'
}

/**
 * Whether a parsed value holds U+0000 anywhere (strings, keys, at any depth up to 64):
 * PostgreSQL text cannot store it, so no value of the API may carry one (both dialects refuse
 * it alike, with a 400).
 */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (depth > 64 || value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some((v) => holdsNul(v, depth + 1))
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v, depth + 1))
}
