/**
 * Compiled statements kept per *shape*: the read pipeline (data/read/shaped.ts) and the write
 * transactions (direct_writes.ts) skip the query builder for statements whose SQL text depends
 * only on a key the caller builds (table, columns, clauses), never on the values.
 *
 * Safe by construction: the first time a shape is seen, the builder compiles the statement and
 * its bindings must equal the values the caller passes for the shape; otherwise the shape is
 * marked never to shortcut (it is compiled every time).
 */
import { cacheStats } from '#operations/cache_stats'

/** A statement whose SQL text depends only on `key`, with its values in statement order. */
export interface StatementShape {
  key: string
  bindings: readonly unknown[]
}

const sameValues = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((value, i) => value === b[i])

/** Compiled statements (`T`) per shape key; past `max` shapes the cache starts over. */
export class ShapeCache<T> {
  readonly #entries = new Map<string, T | null>()

  constructor(private readonly max = 2000) {}

  /** The statement compiled for `key`; null: the shape never shortcuts; undefined: unseen. */
  get(key: string): T | null | undefined {
    const entry = this.#entries.get(key)
    if (entry) cacheStats.statement_shapes.hits++
    else cacheStats.statement_shapes.misses++
    return entry
  }

  /** Keeps `compiled` for `shape` if the builder bound exactly the shape's values. */
  learn(shape: StatementShape, compiled: T, builderBindings: readonly unknown[]) {
    if (this.#entries.size >= this.max) this.#entries.clear()
    this.#entries.set(shape.key, sameValues(builderBindings, shape.bindings) ? compiled : null)
  }

  forget(key: string) {
    this.#entries.delete(key)
  }

  clear() {
    this.#entries.clear()
  }
}
