/**
 * Bounded memo of what a read request derives from its own text (an inline fetch plan, a filter
 * in a query string): the same text comes back on every request of a client, and expanding it
 * again walks the model each time. Also the per-plan caches downstream (columns, folds,
 * statement shapes, serializers) are keyed by the plan object: a plan expanded anew per request
 * misses them all. Per model version (`derive`: dropped with the model) and bounded, since the
 * keys come from clients: past MAX entries the oldest go first. Errors are never memoized.
 */
import type { Model } from '../../metadata/model.js'

const MAX = 500

export function memo<T>(model: Model, cache: string, key: string, compute: () => T): T {
  const map = model.derive(`memo:${cache}`, () => new Map<string, T>())
  const found = map.get(key)
  if (found !== undefined) return found
  const value = compute()
  if (map.size >= MAX) map.delete(map.keys().next().value!)
  map.set(key, value)
  return value
}
