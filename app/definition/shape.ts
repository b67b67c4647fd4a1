/**
 * Unknown-key checks shared by the sections: a misspelt `mandatroy` must not be silently
 * ignored, so every object of the document is checked against the keys its kind may carry.
 */
import type { Problem, ShapeCheck } from './section.js'

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export function unknownKeys(
  value: unknown,
  allowed: readonly string[],
  path: string,
  out: Problem[]
) {
  if (!isObject(value)) return
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      out.push({ path: `${path}.${key}`, message: `unknown property '${key}'` })
  }
}

/** The keys of a VineJS object schema. */
export const keysOf = (schema: { getProperties(): Record<string, unknown> }) =>
  Object.keys(schema.getProperties())

/**
 * A check for an array section whose items have `allowed` keys, and nested arrays of items
 * under some of their keys (`{ attributes: ['name', ...] }`).
 */
export function arrayOf(
  allowed: readonly string[],
  nested: Record<string, readonly string[] | ShapeCheck> = {}
): ShapeCheck {
  return (value, path, out) => {
    if (!Array.isArray(value)) return
    value.forEach((item, i) => {
      const itemPath = `${path}[${i}]`
      unknownKeys(item, allowed, itemPath, out)
      if (!isObject(item)) return
      for (const [key, check] of Object.entries(nested)) {
        if (typeof check === 'function') check(item[key], `${itemPath}.${key}`, out)
        else arrayOf(check)(item[key], `${itemPath}.${key}`, out)
      }
    })
  }
}
