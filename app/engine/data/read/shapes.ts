/**
 * Shapes of the root statement (shaped.ts): its SQL text depends only on the key, its values
 * are given in statement order, so a page or search repeated with other values reuses the
 * compiled SQL instead of building and compiling the statement again. A client filter's part
 * (filter_sql.ts `FilterCompiler`) is a key naming everything that makes its SQL text.
 *
 * The walk follows the compiler step by step; what shapes the SQL goes into the key:
 * - groups (AND/OR) and their order, each path by its attribute names (the model, fixed per
 *   shape cache, decides tables, joins, link tables and live-row clauses from them);
 * - per condition its family and operator: comparator; `in`/`notIn` and the list's length (an
 *   empty list compiles to `1 = 0` or nothing); LIKE negation and the index ranges of a
 *   `startsWith` (how many, and whether each has an upper bound); null / not null.
 *
 * No shape (null) when a row-level rule of the subject applies to the entity or to any entity
 * a path passes: rules are per subject and add statements of their own. The shape cache's
 * first-use check still compares these values with the builder's bindings.
 */
import type { AttributeMeta } from '../../metadata/model.js'
import type { FilterCondition, FilterNode, FilterScalar } from '../../query/filter_ast.js'
import { LIKE_ESCAPE, likePattern } from '../../query/operators/like.js'
import { startsWithRanges } from '../../schema/dialects/text_search.js'
import type { SortKey } from '../../query/sort.js'
import type { DataContext } from '../data_manager.js'
import { filterBinding, isSqlite } from './filter_sql.js'
import type { ReadPlan } from './plan.js'
import type { Binding, Shape } from './shaped.js'

export interface FilterShape {
  key: string
  bindings: FilterScalar[]
}

class ShapeWalker {
  readonly key: string[] = []
  readonly bindings: FilterScalar[] = []
  readonly #sqlite: boolean

  constructor(
    private ctx: DataContext,
    /** The column (`t0.column`) the statement is ordered by first, if any. */
    private ordered?: string
  ) {
    this.#sqlite = isSqlite(ctx)
  }

  /** False when a row-level rule makes the statement depend on more than its shape. */
  node(node: FilterNode): boolean {
    if (node.kind === 'condition') return this.#condition(node)
    this.key.push(node.type === 'AND' ? 'and(' : 'or(')
    for (const child of node.conditions) if (!this.node(child)) return false
    this.key.push(')')
    return true
  }

  #condition(c: FilterCondition): boolean {
    const attributes = c.path.attributes
    for (const a of attributes) {
      if (a.kind !== 'datatype' && this.ctx.permissions.hasReadRules(a.target!)) return false
    }
    this.key.push(`[${attributes.map((a) => a.name).join('.')}`)
    const a: AttributeMeta = attributes[attributes.length - 1]
    // The compiler compares a relation without a column of its own through its rows' ids.
    const column = attributes.length === 1 && a.column ? `t0.${a.column}` : undefined
    if (!a.column && c.family === 'null') this.key.push(`exists ${c.isSet}`)
    else this.#scalar(c, column)
    this.key.push(']')
    return true
  }

  #scalar(c: FilterCondition, column: string | undefined) {
    switch (c.family) {
      case 'comparison':
        this.key.push(c.comparator)
        this.bindings.push(filterBinding(this.#sqlite, c.value))
        return
      case 'list':
        this.key.push(`${c.negated ? 'notIn' : 'in'} ${c.values.length}`)
        for (const value of c.values) this.bindings.push(filterBinding(this.#sqlite, value))
        return
      case 'like': {
        this.bindings.push(likePattern(c), LIKE_ESCAPE)
        const ordered = column !== undefined && column === this.ordered
        const ranges = startsWithRanges(this.ctx.db.connection(), c, ordered)
        const bounds = (ranges ?? []).map((r) => (r.below === null ? 'from' : 'from-below'))
        this.key.push(`${c.negated ? 'not ' : ''}like ${ranges ? bounds.join(',') : '-'}`)
        for (const range of ranges ?? []) {
          this.bindings.push(range.from)
          if (range.below !== null) this.bindings.push(range.below)
        }
        return
      }
      case 'null':
        this.key.push(c.isSet ? 'not null' : 'null')
    }
  }
}

/** The shape of the client filter `root` (null: it has none, always compile it). */
export function filterShape(
  ctx: DataContext,
  root: FilterNode,
  ordered?: string
): FilterShape | null {
  const walker = new ShapeWalker(ctx, ordered)
  if (!walker.node(root)) return null
  return { key: walker.key.join(' '), bindings: walker.bindings }
}

/** The column (`t0.column`) a statement sorted by `sort` is ordered by first, if its own. */
export function orderColumn(sort: SortKey[] | undefined) {
  const first = sort?.[0]?.path.attributes
  return first?.length === 1 ? `t0.${first[0].column}` : undefined
}

const joinedLists = new WeakMap<string[], string>()

/** `list.join(',')`, remembered per array: column lists are cached per plan node. */
export function joined(list: string[]): string {
  let text = joinedLists.get(list)
  if (text === undefined) joinedLists.set(list, (text = list.join(',')))
  return text
}

/**
 * The shape of the root statement when only its values vary (shaped.ts): no row-level rule on
 * the entity, sort keys on the entity's own columns, a filter only through its shape
 * (`filterShape` above).
 */
export function rootShape(
  ctx: DataContext,
  plan: ReadPlan,
  cols: string[],
  byId?: Binding
): Shape | null {
  if (ctx.permissions.hasReadRules(plan.entity.name)) return null
  const head = `${plan.entity.table}|${joined(cols)}`
  if (byId !== undefined) {
    return plan.filter?.root.conditions.length ? null : { key: `id|${head}`, bindings: [byId] }
  }
  if (plan.sort.some((k) => k.path.attributes.length !== 1)) return null
  let filter: FilterShape | null = { key: '', bindings: [] }
  if (plan.filter?.root.conditions.length) {
    filter = filterShape(ctx, plan.filter.root, orderColumn(plan.sort))
    if (!filter) return null
  }
  const order = plan.sort.map((k) => `${k.path.attributes[0].column} ${k.direction}`)
  const bindings: Shape['bindings'] = [...filter.bindings]
  if (plan.limit !== null) bindings.push(plan.limit)
  if (plan.offset) bindings.push(plan.offset)
  return {
    key: `page|${head}|${order.join(',')}|${plan.limit !== null}|${!!plan.offset}|${filter.key}`,
    bindings,
  }
}
