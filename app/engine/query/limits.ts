/**
 * Size limits of client-supplied filters and sorts. Upstream has none; these keep a hostile
 * request from turning into a huge statement, a deep recursion or a long-running parse
 * (security catalogue FQ6-FQ8, FQ18). Every limit is checked before the work it bounds.
 */

export interface FilterLimits {
  /** Nesting of groups below the root (`{"group": ..., "conditions": [...]}` inside another). */
  maxDepth: number
  /** Conditions and groups in the whole filter. */
  maxConditions: number
  /** Values of one `in` / `notIn` list. */
  maxInListSize: number
  /** Characters of one string value. */
  maxValueLength: number
  /** Segments of one property path (`customer.address.country.name` has 4). */
  maxPathLength: number
  /** Characters of a filter given as JSON text. */
  maxTextLength: number
}

export const DEFAULT_FILTER_LIMITS: Readonly<FilterLimits> = Object.freeze({
  maxDepth: 10,
  maxConditions: 100,
  maxInListSize: 1000,
  maxValueLength: 4000,
  maxPathLength: 8,
  maxTextLength: 256 * 1024,
})

export interface SortLimits {
  /** Items of the sort parameter (before reference expansion). */
  maxKeys: number
  /** Segments of one property path, also after reference expansion. */
  maxPathLength: number
  /** Characters of the sort parameter. */
  maxTextLength: number
}

export const DEFAULT_SORT_LIMITS: Readonly<SortLimits> = Object.freeze({
  maxKeys: 20,
  maxPathLength: 8,
  maxTextLength: 2000,
})

/** Defaults overridden by the given positive integers (anything else keeps the default). */
export function withDefaults<T extends Record<keyof T, number>>(
  defaults: Readonly<T>,
  given: Partial<T> = {}
): T {
  const out: Record<string, number> = { ...defaults }
  for (const key of Object.keys(defaults)) {
    const v = (given as Record<string, unknown>)[key]
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) out[key] = v
  }
  return out as T
}
