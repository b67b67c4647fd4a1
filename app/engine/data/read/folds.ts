/**
 * To-one references folded into their parent's statement: a reference the plan loads, held by
 * a foreign key of the parent's own row (MANY_TO_ONE, owning ONE_TO_ONE), is LEFT JOINed to the
 * parent's statement instead of being fetched by a batched statement of its own. A page of
 * orders with `_base` (customer, currency) is then one statement, not three; the response of a
 * create or update one read, not two.
 *
 * A reference is folded only when no row-level read rule of the subject applies to its target
 * (rules add statements and hidden-id bookkeeping of their own: those references keep their
 * batched statement, loader.ts). The fold follows the target's plan to its own to-one
 * references (a chain of joins), at most MAX_FOLDS joins and MAX_COLUMNS columns per
 * statement. Soft-deleted targets are joined as absent (the condition is in the join's ON
 * clause), as the batch hides them.
 *
 * Each joined column comes back as `__<alias>_<position>` (short whatever the column's name:
 * PostgreSQL cuts longer identifiers at 63 bytes); `attachFolds` turns them into the
 * related LoadedRows, one per target id and fold, shared by the parents that refer to it.
 */
import type { AttributeMeta, EntityMeta } from '../../metadata/model.js'
import type { PlanNode } from '../../query/fetch_plans.js'
import type { DataContext } from '../data_manager.js'
import type { Builder } from './filter_sql.js'
import type { LoadedRow } from './loader.js'

/** Joins per statement: a wide `_base` stays one statement; deeper chains are batched. */
const MAX_FOLDS = 8
/**
 * Columns per statement, the level's own included: far below PostgreSQL's 1664 select-list
 * entries and SQLite's 2000 result columns. Wide targets past it are batched.
 */
const MAX_COLUMNS = 1000

export interface Fold {
  attribute: AttributeMeta
  target: EntityMeta
  /** The reference's nested plan. */
  plan: PlanNode
  /** The join's alias (`j1`...) and the alias of the row holding the foreign key. */
  alias: string
  from: string
  /** The target columns the nested plan needs (unqualified; `id` first)... */
  columns: string[]
  /** ...and the names they come back as in the statement's rows (`__j1_0`, `__j1_1`...). */
  keys: string[]
  /** The target's row out of a statement's row: `{ id: s.__j1_0, name: s.__j1_1 }`. */
  copy: (source: Row) => Row
  folds: Fold[]
}

type Row = Record<string, unknown>

const isFoldable = (a: AttributeMeta | undefined): a is AttributeMeta =>
  !!a &&
  a.kind !== 'datatype' &&
  !a.transient &&
  !!a.column &&
  (a.cardinality === 'MANY_TO_ONE' || a.cardinality === 'ONE_TO_ONE')

/** The columns of `entity` that `plan` needs: id, datatype attributes, foreign keys. */
export function planColumns(entity: EntityMeta, plan: PlanNode): string[] {
  const out = new Set(['id'])
  for (const name of plan.properties.keys()) {
    const a = entity.attributes.get(name)
    if (a?.column && !a.transient) out.add(a.column)
  }
  return [...out]
}

/**
 * A function that copies `keys` of a statement's row into a new row under `columns`: one object
 * literal, compiled once per fold, instead of a keyed store per column and row (the rows then
 * share one hidden class, as the statements' own rows do: pg_rows.ts). Names are written as
 * string literals; none is `__proto__` (columns come from attribute names, which start with a
 * letter: metadata/naming.ts).
 */
function rowCopier(columns: string[], keys: string[]): (source: Row) => Row {
  const fields = columns.map((c, i) => `${JSON.stringify(c)}: s[${JSON.stringify(keys[i])}]`)
  return new Function('s', `return { ${fields.join(', ')} }`) as (source: Row) => Row
}

/** The folds of one statement, with what they add to its SQL. */
export interface FoldSet {
  folds: Fold[]
  /** The select list entries (`j1.name as __j1_1`). */
  selects: string[]
  /** What the folds add to the statement's SQL text, for its shape key (shapes.ts). */
  key: string
  /** The level's own columns (planColumns without the folded references' keys); null: all. */
  own: string[] | null
}

export const NO_FOLDS: FoldSet = { folds: [], selects: [], key: '', own: null }

/** Per plan node and parent alias: the folds when no row-level rule applies, and their targets. */
const cache = new WeakMap<PlanNode, Map<string, { set: FoldSet; targets: string[] }>>()

function* allFolds(folds: Fold[]): Generator<Fold> {
  for (const f of folds) {
    yield f
    yield* allFolds(f.folds)
  }
}

/** The folds of `plan` at `alias` (siblings first); `excluded` targets are not folded. */
function build(
  ctx: DataContext,
  entity: EntityMeta,
  plan: PlanNode,
  alias: string,
  excluded: (target: EntityMeta) => boolean
): FoldSet {
  let count = 0
  const own = planColumns(entity, plan)
  let room = MAX_COLUMNS - own.length
  const walk = (owner: EntityMeta, node: PlanNode, from: string): Fold[] => {
    // Siblings take their aliases (and columns) before their own references do.
    const joins: {
      attribute: AttributeMeta
      target: EntityMeta
      plan: PlanNode
      alias: string
      needed: string[]
    }[] = []
    for (const [name, sub] of node.properties) {
      const a = owner.attributes.get(name)
      if (!sub || !isFoldable(a) || count >= MAX_FOLDS) continue
      const target = ctx.model.entity(a.target!)
      if (!target || excluded(target)) continue
      const needed = planColumns(target, sub)
      if (needed.length > room) continue
      room -= needed.length
      joins.push({ attribute: a, target, plan: sub, alias: `j${++count}`, needed })
    }
    return joins.map(({ needed, ...join }) => {
      const folds = walk(join.target, join.plan, join.alias)
      // The target's own references that are folded further need no foreign key column.
      const columns = withoutFoldedKeys(needed, folds)
      const keys = columns.map((_, i) => `__${join.alias}_${i}`)
      return { ...join, from, columns, keys, copy: rowCopier(columns, keys), folds }
    })
  }
  const folds = walk(entity, plan, alias)
  if (!folds.length) return NO_FOLDS
  const selects: string[] = []
  const key: string[] = []
  for (const f of allFolds(folds)) {
    f.columns.forEach((c, i) => selects.push(`${f.alias}.${c} as ${f.keys[i]}`))
    key.push(`${f.from}.${f.attribute.column}>${f.target.table} ${f.alias}`)
  }
  return { folds, selects, key: [...selects, ...key].join(','), own: withoutFoldedKeys(own, folds) }
}

/**
 * A level's columns without the foreign keys of the references folded into its statement: the
 * joined target's id stands for them (a missing or soft-deleted target reads as absent either
 * way), and each column costs a value per row in the driver (a 36-character UUID text in
 * better-sqlite3 about 0.3 µs).
 */
function withoutFoldedKeys(columns: string[], folds: Fold[]): string[] {
  if (!folds.length) return columns
  const keys = new Set(folds.map((f) => f.attribute.column))
  return columns.filter((c) => !keys.has(c))
}

/** The to-one references of `plan` (at `alias`) folded for this subject. */
export function foldsFor(
  ctx: DataContext,
  entity: EntityMeta,
  plan: PlanNode,
  alias: string
): FoldSet {
  let byAlias = cache.get(plan)
  if (!byAlias) cache.set(plan, (byAlias = new Map()))
  let open = byAlias.get(alias)
  if (!open) {
    const set = build(ctx, entity, plan, alias, () => false)
    const targets = [...new Set([...allFolds(set.folds)].map((f) => f.target.name))]
    byAlias.set(alias, (open = { set, targets }))
  }
  // A row-level rule on a target keeps that reference (and what lies beyond it) batched.
  if (!open.targets.some((t) => ctx.permissions.hasReadRules(t))) return open.set
  return build(ctx, entity, plan, alias, (target) => ctx.permissions.hasReadRules(target.name))
}

/** LEFT JOINs the folds' tables to `q` (live rows only) and selects their columns. */
export function applyFolds(q: Builder, set: FoldSet) {
  for (const f of allFolds(set.folds)) {
    const softDelete = f.target.traits.has('softDelete')
    q.leftJoin(`${f.target.table} as ${f.alias}`, (on: any) => {
      on.on(`${f.alias}.id`, '=', `${f.from}.${f.attribute.column}`)
      if (softDelete) on.andOnNull(`${f.alias}.deleted_date`)
    })
  }
  if (set.selects.length) q.select(...set.selects)
}

/**
 * Sets each folded relation of `parents` from their statement's rows (`flat`: a parent's own
 * row, or the row of the statement that loaded its ancestor). Returns each fold with the rows
 * it made, for loading their other relations.
 */
export function attachFolds(
  folds: Fold[],
  parents: LoadedRow[],
  flat: (p: LoadedRow, i: number) => Row = (p) => p.row,
  out: [Fold, LoadedRow[]][] = []
): [Fold, LoadedRow[]][] {
  for (const f of folds) {
    const byId = new Map<string, LoadedRow>()
    const children: LoadedRow[] = []
    const sources: Row[] = []
    parents.forEach((p, i) => {
      const source = flat(p, i)
      const id = source[f.keys[0]]
      if (id === null || id === undefined) return void (p.rel[f.attribute.name] = null)
      let node = byId.get(String(id))
      if (!node) {
        byId.set(String(id), (node = { row: f.copy(source), rel: {} }))
        children.push(node)
        sources.push(source)
      }
      p.rel[f.attribute.name] = node
    })
    out.push([f, children])
    attachFolds(f.folds, children, (_, i) => sources[i], out)
  }
  return out
}
