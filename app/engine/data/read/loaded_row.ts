/** The read pipeline's row tree (loader.ts builds it; the writers and instance names read it). */

/**
 * A row's loaded relations by attribute name (an own key absent: not loaded). A plain object,
 * not a Map: a Map's hash table is about a tenth of what a three-level read allocates, and every
 * row of a page stays alive until the response is written. Read it with `loaded` (own keys
 * only: an attribute may be named `constructor`; `__proto__` is not a valid attribute name).
 */
export type Relations = Record<string, LoadedRow | LoadedRow[] | null>

/** Whether relation `name` of `node` was loaded. */
export const loaded = (node: LoadedRow, name: string) => Object.hasOwn(node.rel, name)

/** A loaded row and its loaded relations. */
export interface LoadedRow {
  row: Record<string, unknown>
  rel: Relations
  /** Ids of related rows a row-level rule hid, per attribute (only with security tokens). */
  hidden?: Map<string, string[]>
}
