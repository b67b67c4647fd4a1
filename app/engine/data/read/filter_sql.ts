/**
 * Parsed filter (query/filter_ast.ts) -> WHERE clauses on a Lucid query builder. Identifiers
 * come only from AttributeMeta / the model's tables, values only become bindings. Every step of
 * a property path through a relation is an EXISTS subquery correlated with the row it starts
 * from: to-one and to-many alike (a to-many path is existential), soft-deleted rows of the
 * related entity never match. An empty `in` matches nothing, an empty `notIn` everything: no
 * `IN ()` is ever emitted. LIKE binds `likePattern` and declares its escape character.
 */
import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'
import type { AttributeMeta, EntityMeta } from '../../metadata/model.js'
import type { FilterCondition, FilterNode, FilterScalar } from '../../query/filter_ast.js'
import { LIKE_ESCAPE, likePattern, type PrefixRange } from '../../query/operators/like.js'
import { startsWithRanges } from '../../schema/dialects/text_search.js'
import type { DataContext } from '../data_manager.js'
import type { EntityOperation } from '#security/policy_index'

export type Builder = DatabaseQueryBuilderContract

/** Fresh table aliases for one statement. */
export class Aliases {
  #n = 0
  next(prefix = 't'): string {
    return `${prefix}${++this.#n}`
  }
}

export const isSqlite = (ctx: DataContext) => ctx.db.connection().dialect.name !== 'postgres'

/** A filter value as the statement binds it (SQLite stores booleans as 0 and 1). */
export const filterBinding = (sqlite: boolean, value: FilterScalar): FilterScalar =>
  typeof value === 'boolean' && sqlite ? Number(value) : value

/** Hides soft-deleted rows of `entity` (alias `alias`). */
export function live(q: Builder, entity: EntityMeta, alias: string) {
  if (entity.traits.has('softDelete')) q.whereNull(`${alias}.deleted_date`)
}

/**
 * AND-s the subject's row-level rules for `entity` into `q` (alias `alias`): the rules are
 * filters of the same language, compiled here like a client filter. A rule that matches nothing
 * adds `1 = 0`. Paths inside rules are trusted (admin-written): their related rows are not
 * filtered again, which also keeps rules that refer to each other from recursing.
 */
export function applyRowRules(
  ctx: DataContext,
  q: Builder,
  entity: EntityMeta,
  alias: string,
  aliases: Aliases,
  operation: EntityOperation = 'read'
) {
  for (const rule of ctx.permissions.rowRules(entity.name, operation)) {
    if (rule.kind === 'nothing') q.whereRaw('1 = 0')
    else if (rule.root.conditions.length) {
      new FilterCompiler(ctx, aliases, false).apply(q, rule.root, alias)
    }
  }
}

export class FilterCompiler {
  /**
   * @param secured related rows reached by a path are limited to those the subject may read
   * (client filters: a condition is evaluated against visible rows only, catalogue FQ13)
   */
  constructor(
    private ctx: DataContext,
    private aliases: Aliases,
    private secured = true,
    /** The column (`alias.column`) the statement is ordered by first, if any. */
    private orderColumn?: string
  ) {}

  apply(q: Builder, node: FilterNode, alias: string) {
    if (node.kind === 'condition') return this.#condition(q, node, alias)
    const children = node.conditions
    if (node.type === 'AND') {
      for (const child of children) q.where((sub) => this.apply(sub, child, alias))
    } else {
      q.where((sub) => {
        for (const child of children) sub.orWhere((s) => this.apply(s, child, alias))
      })
    }
  }

  #condition(q: Builder, c: FilterCondition, alias: string) {
    this.#step(q, c, 0, alias)
  }

  #step(q: Builder, c: FilterCondition, index: number, alias: string) {
    const a = c.path.attributes[index]
    const last = index === c.path.attributes.length - 1
    if (!last) {
      q.whereExists(this.#related(a, alias, (sub, t) => this.#step(sub, c, index + 1, t)))
      return
    }
    // A reference whose target rows may be hidden is compared through the visible rows only:
    // its key alone would tell that a hidden row exists, and which (catalogue FQ13).
    const hidden =
      this.secured && a.kind !== 'datatype' && this.ctx.permissions.hasReadRules(a.target!)
    if (a.column && !hidden) return this.#scalar(q, c, `${alias}.${a.column}`)
    // A relation without a column of its own (to-many, inverse one-to-one): compare its rows.
    if (c.family === 'null') {
      const exists = this.#related(a, alias, () => {})
      return c.isSet ? q.whereExists(exists) : q.whereNotExists(exists)
    }
    q.whereExists(this.#related(a, alias, (sub, t) => this.#scalar(sub, c, `${t}.id`)))
  }

  /** `select 1 from target where <joined to alias.a> and <live> and <inner>`. */
  #related(a: AttributeMeta, alias: string, inner: (q: Builder, target: string) => void) {
    const model = this.ctx.model
    const target = model.entity(a.target!)!
    const t = this.aliases.next()
    const q = this.ctx.db.from(`${target.table} as ${t}`).select(this.ctx.db.raw('1'))
    if (a.column) {
      q.whereRaw('?? = ??', [`${t}.id`, `${alias}.${a.column}`])
    } else if (a.linkTable) {
      const l = this.aliases.next('l')
      const link = a.linkTable
      q.innerJoin(`${link.table} as ${l}`, `${l}.${link.targetColumn}`, `${t}.id`)
      q.whereRaw('?? = ??', [`${l}.${link.ownerColumn}`, `${alias}.id`])
    } else {
      const mapped = target.attributes.get(a.mappedBy ?? '')
      if (mapped?.linkTable) {
        const l = this.aliases.next('l')
        const link = mapped.linkTable
        q.innerJoin(`${link.table} as ${l}`, `${l}.${link.ownerColumn}`, `${t}.id`)
        q.whereRaw('?? = ??', [`${l}.${link.targetColumn}`, `${alias}.id`])
      } else if (mapped?.column) {
        q.whereRaw('?? = ??', [`${t}.${mapped.column}`, `${alias}.id`])
      } else {
        q.whereRaw('1 = 0')
      }
    }
    live(q, target, t)
    if (this.secured) applyRowRules(this.ctx, q, target, t, this.aliases)
    inner(q, t)
    return q
  }

  #scalar(q: Builder, c: FilterCondition, column: string) {
    switch (c.family) {
      case 'comparison':
        q.where(column, c.comparator, filterBinding(isSqlite(this.ctx), c.value))
        return
      case 'list': {
        const sqlite = isSqlite(this.ctx)
        const values = c.values.map((v) => filterBinding(sqlite, v))
        if (values.length === 0) {
          if (!c.negated) q.whereRaw('1 = 0')
          return
        }
        if (c.negated) q.whereNotIn(column, values)
        else q.whereIn(column, values)
        return
      }
      case 'like': {
        const not = c.negated ? 'not ' : ''
        q.whereRaw(`lower(??) ${not}like lower(?) escape ?`, [column, likePattern(c), LIKE_ESCAPE])
        // Ranges every match lies in, where the dialect's ordering allows them: let an index on
        // the column serve `startsWith` (the LIKE above still decides; schema/dialects).
        const ranges = startsWithRanges(this.ctx.db.connection(), c, column === this.orderColumn)
        const bound = (b: Builder, range: PrefixRange) => {
          b.where(column, '>=', range.from)
          if (range.below !== null) b.where(column, '<', range.below)
        }
        if (ranges?.length === 1) bound(q, ranges[0])
        else if (ranges) q.where((any) => ranges.forEach((r) => any.orWhere((b) => bound(b, r))))
        return
      }
      case 'null':
        if (c.isSet) q.whereNotNull(column)
        else q.whereNull(column)
    }
  }
}
