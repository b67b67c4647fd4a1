/**
 * Executes a read plan: ONE statement for the root page (filter as EXISTS subqueries, sort
 * through to-one paths as LEFT JOINs) and ONE batched statement per relation of each plan level
 * (to-one: `id in (...)`, inverse/one-to-many: `fk in (...)`, many-to-many: through the link
 * table), never one per row. To-one references held by the level's own foreign keys are joined
 * into its statement instead when no row-level rule applies to them (folds.ts). Soft-deleted
 * rows are hidden at every level.
 */
import type { AttributeMeta, EntityMeta } from '../../metadata/model.js'
import type { PlanNode } from '../../query/fetch_plans.js'
import type { SortKey } from '../../query/sort.js'
import type { DataContext } from '../data_manager.js'
import type { Builder } from './filter_sql.js'
import { Aliases, FilterCompiler, applyRowRules, live } from './filter_sql.js'
import { NO_FOLDS, applyFolds, attachFolds, foldsFor, planColumns } from './folds.js'
import type { Fold, FoldSet } from './folds.js'
import type { ReadPlan } from './plan.js'
import { joined as joinedText, orderColumn, rootShape } from './shapes.js'
import { isBinding, readRows } from './shaped.js'
import { batches, isFolded, relationsOf, withFoldKey } from './plan_levels.js'
import type { LoadedRow } from './loaded_row.js'

export type { LoadedRow, Relations } from './loaded_row.js'

/** Ids per IN list: far below SQLite's and PostgreSQL's bind-parameter limits. */
const CHUNK = 5000
const OWNER = '__owner'

const isToMany = (a: AttributeMeta) =>
  a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY'

/** Per plan node (plans are cached per model): its columns per alias. */
const columnsOf = new WeakMap<PlanNode, Map<string, string[]>>()
/** Per fold set (cached per plan node, or made per request under row-level rules). */
const foldedColumnsOf = new WeakMap<FoldSet, string[]>()

/**
 * The columns a plan level needs (id, datatype attributes, foreign keys of its references),
 * qualified by `alias`; the keys of references folded into the statement are left out.
 */
function columns(entity: EntityMeta, plan: PlanNode, alias: string, folds: FoldSet): string[] {
  if (folds.own) {
    let cols = foldedColumnsOf.get(folds)
    if (!cols) foldedColumnsOf.set(folds, (cols = folds.own.map((c) => `${alias}.${c}`)))
    return cols
  }
  let byAlias = columnsOf.get(plan)
  if (!byAlias) columnsOf.set(plan, (byAlias = new Map()))
  let cols = byAlias.get(alias)
  if (!cols) byAlias.set(alias, (cols = planColumns(entity, plan).map((c) => `${alias}.${c}`)))
  return cols
}

/**
 * The root statement without paging and columns: table, live rows, filter (told the column the
 * page is ordered by first, when it is the entity's own: schema/dialects/text_search.ts).
 */
export function rootQuery(
  ctx: DataContext,
  plan: Pick<ReadPlan, 'entity' | 'filter'> & { sort?: SortKey[] }
) {
  const aliases = new Aliases()
  const q = ctx.db.from(`${plan.entity.table} as t0`)
  live(q, plan.entity, 't0')
  applyRowRules(ctx, q, plan.entity, 't0', aliases)
  if (plan.filter?.root.conditions.length) {
    new FilterCompiler(ctx, aliases, true, orderColumn(plan.sort)).apply(q, plan.filter.root, 't0')
  }
  return { q, aliases }
}

/**
 * What a sort path joins: the table, or - when row-level rules hide some of its rows - only the
 * rows the subject may read, so the order never depends on hidden rows.
 */
function joinable(ctx: DataContext, target: EntityMeta, alias: string, aliases: Aliases): any {
  if (!ctx.permissions.hasReadRules(target.name)) return `${target.table} as ${alias}`
  const inner = aliases.next('v')
  const rows = ctx.db.from(`${target.table} as ${inner}`).select(`${inner}.*`)
  applyRowRules(ctx, rows, target, inner, aliases)
  return (rows as any).toKnex().as(alias)
}

/** ORDER BY for sort keys; paths through to-one references LEFT JOIN their tables. */
function applySort(ctx: DataContext, q: Builder, keys: SortKey[], aliases: Aliases) {
  const joins = new Map<string, string>()
  for (const key of keys) {
    let alias = 't0'
    let prefix = ''
    const attrs = key.path.attributes
    for (const a of attrs.slice(0, -1)) {
      prefix += `.${a.name}`
      let joined = joins.get(prefix)
      if (!joined) {
        const target = ctx.model.entity(a.target!)!
        joined = aliases.next('s')
        const table = joinable(ctx, target, joined, aliases)
        if (a.column) {
          q.leftJoin(table, `${joined}.id`, `${alias}.${a.column}`)
        } else {
          const mapped = target.attributes.get(a.mappedBy ?? '')!
          q.leftJoin(table, `${joined}.${mapped.column}`, `${alias}.id`)
        }
        joins.set(prefix, joined)
      }
      alias = joined
    }
    q.orderBy(`${alias}.${attrs[attrs.length - 1].column}`, key.direction)
  }
  q.orderBy('t0.id', 'asc')
}

/** The root page (or one row by id), with every relation level of the load plan. */
export async function loadRoot(
  ctx: DataContext,
  plan: ReadPlan,
  byId?: string | number
): Promise<LoadedRow[]> {
  const folds = foldsFor(ctx, plan.entity, plan.load, 't0')
  const cols = columns(plan.entity, plan.load, 't0', folds)
  const build = () => {
    const { q, aliases } = rootQuery(ctx, plan)
    q.select(...cols)
    applyFolds(q, folds)
    if (byId !== undefined) q.where('t0.id', byId)
    else {
      applySort(ctx, q, plan.sort, aliases)
      if (plan.limit !== null) q.limit(plan.limit)
      if (plan.offset) q.offset(plan.offset)
    }
    return q
  }
  const selected = withFoldKey(cols, folds.key)
  const found = await readRows(ctx, build, rootShape(ctx, plan, selected, byId))
  const rows: LoadedRow[] = found.map((row) => ({ row, rel: {} }))
  const completing = completeLevel(ctx, plan.entity, plan.load, rows, folds.folds)
  if (completing) await completing
  return rows
}

/**
 * The relations of a level's rows: folded ones from its statement, the rest batched. A level
 * (or folded target) with nothing left to batch costs no asynchronous call: undefined then.
 */
function completeLevel(
  ctx: DataContext,
  entity: EntityMeta,
  plan: PlanNode,
  rows: LoadedRow[],
  folds: Fold[]
): Promise<void> | undefined {
  const attached = attachFolds(folds, rows)
  const pending = attached.filter(([f, children]) => batches(f.target, f.plan, f.folds, children))
  if (!batches(entity, plan, folds, rows) && pending.length === 0) return undefined
  return (async () => {
    await loadRelations(ctx, entity, plan, rows, folds)
    for (const [fold, children] of pending) {
      await loadRelations(ctx, fold.target, fold.plan, children, fold.folds)
    }
  })()
}

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < values.length; i += CHUNK) out.push(values.slice(i, i + CHUNK))
  return out
}

/** Rows of `target` where `key` (a column expression) is in `ids`; `key` is kept as OWNER. */
async function fetchBy(
  ctx: DataContext,
  target: EntityMeta,
  plan: PlanNode,
  ids: unknown[],
  key: { column: string; link?: { table: string; ownerColumn: string; targetColumn: string } },
  secured: boolean,
  folds: FoldSet
): Promise<Record<string, unknown>[]> {
  const cols = columns(target, plan, 'r', folds)
  const build = (part: unknown[]) => {
    const q = ctx.db.from(`${target.table} as r`).select(...cols)
    applyFolds(q, folds)
    if (key.link) {
      const { table, ownerColumn, targetColumn } = key.link
      q.innerJoin(`${table} as l`, `l.${targetColumn}`, 'r.id')
      q.select(`l.${ownerColumn} as ${OWNER}`).whereIn(`l.${ownerColumn}`, part as string[])
    } else {
      q.select(`${key.column} as ${OWNER}`).whereIn(key.column, part as string[])
    }
    live(q, target, 'r')
    if (secured) applyRowRules(ctx, q, target, 'r', new Aliases())
    return q.orderBy('r.id')
  }
  // Only the ids vary when no row-level rule applies (shaped.ts).
  const shape =
    secured && ctx.permissions.hasReadRules(target.name)
      ? null
      : `in|${target.table}|${joinedText(withFoldKey(cols, folds.key))}|${key.column}|${Object.values(key.link ?? {}).join(',')}`
  const out: Record<string, unknown>[] = []
  for (const part of chunks(ids)) {
    const exact =
      shape && part.every(isBinding) ? { key: `${shape}|${part.length}`, bindings: part } : null
    out.push(...(await readRows(ctx, () => build(part), exact)))
  }
  return out
}

const distinct = (values: unknown[]) => [
  ...new Set(values.filter((v) => v !== null && v !== undefined)),
]

/** The rows of relation `a` for `parents` (one statement per chunk), keyed by OWNER. */
async function relatedRows(
  ctx: DataContext,
  a: AttributeMeta,
  target: EntityMeta,
  sub: PlanNode,
  parents: LoadedRow[],
  secured: boolean,
  folds: FoldSet
): Promise<Record<string, unknown>[]> {
  if (a.column) {
    const keys = distinct(parents.map((p) => p.row[a.column!]))
    return fetchBy(ctx, target, sub, keys, { column: 'r.id' }, secured, folds)
  }
  const parentIds = distinct(parents.map((p) => p.row.id))
  const mapped = target.attributes.get(a.mappedBy ?? '')
  const link = a.linkTable ?? mapped?.linkTable
  if (a.linkTable)
    return fetchBy(ctx, target, sub, parentIds, { column: '', link: a.linkTable }, secured, folds)
  if (link) {
    const swapped = { ...link, ownerColumn: link.targetColumn, targetColumn: link.ownerColumn }
    return fetchBy(ctx, target, sub, parentIds, { column: '', link: swapped }, secured, folds)
  }
  if (mapped?.column) {
    const key = { column: `r.${mapped.column}` }
    return fetchBy(ctx, target, sub, parentIds, key, secured, folds)
  }
  return []
}

/**
 * Records, per parent, the ids of relation `name` that row-level rules hid: a to-one key whose
 * row was not returned, or collection members present in `all` (unsecured ids) but not in `rows`.
 */
function noteHidden(
  parents: LoadedRow[],
  name: string,
  keyOf: (p: LoadedRow) => unknown,
  rows: Record<string, unknown>[],
  all: Record<string, unknown>[] | null
) {
  const visible = new Set(rows.map((r) => `${String(r[OWNER])}\u0000${String(r.id)}`))
  const candidates = all ?? parents.map((p) => ({ [OWNER]: keyOf(p), id: keyOf(p) }))
  const byOwner = new Map<string, string[]>()
  for (const r of candidates) {
    if (r.id === null || r.id === undefined) continue
    if (visible.has(`${String(r[OWNER])}\u0000${String(r.id)}`)) continue
    byOwner.set(String(r[OWNER]), [...(byOwner.get(String(r[OWNER])) ?? []), String(r.id)])
  }
  for (const p of parents) {
    const ids = byOwner.get(String(keyOf(p)))
    if (ids?.length) (p.hidden ??= new Map()).set(name, [...new Set(ids)])
  }
}

/**
 * Loads each relation of `plan` for `parents` (one statement per relation), then recurses; the
 * relations `folded` into the parents' statement are already set.
 */
async function loadRelations(
  ctx: DataContext,
  entity: EntityMeta,
  plan: PlanNode,
  parents: LoadedRow[],
  folded: Fold[]
) {
  if (parents.length === 0) return
  for (const { name, sub, a } of relationsOf(entity, plan)) {
    if (isFolded(folded, a)) continue
    const target = ctx.model.entity(a.target!)!
    const folds = foldsFor(ctx, target, sub, 'r')
    const fetch = (node: PlanNode, secured = true) =>
      relatedRows(ctx, a, target, node, parents, secured, secured ? folds : NO_FOLDS)
    const rows = await fetch(sub)
    const keyOf = (p: LoadedRow) => (a.column ? p.row[a.column!] : p.row.id)
    if (ctx.securityTokens && ctx.permissions.hasReadRules(target.name)) {
      const all = a.column ? null : await fetch({ ...sub, properties: new Map() }, false)
      noteHidden(parents, name, keyOf, rows, all)
    }
    // One LoadedRow per target id, shared by every parent that refers to it.
    const byId = new Map<string, LoadedRow>()
    const byOwner = new Map<string, LoadedRow[]>()
    // (A row keeps its OWNER key: the serializer reads attribute columns only.)
    for (const row of rows) {
      const id = String(row.id)
      let node = byId.get(id)
      if (!node) byId.set(id, (node = { row, rel: {} }))
      const owner = String(row[OWNER])
      const list = byOwner.get(owner)
      if (list) list.push(node)
      else byOwner.set(owner, [node])
    }
    for (const p of parents) {
      const found = byOwner.get(String(keyOf(p))) ?? []
      p.rel[name] = isToMany(a) ? found : (found[0] ?? null)
    }
    const completing = completeLevel(ctx, target, sub, [...byId.values()], folds.folds)
    if (completing) await completing
  }
}
