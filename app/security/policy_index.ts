/**
 * A subject's compiled permissions: every question the data layer asks is a map lookup. Built
 * by compiler.ts from the subject's effective roles, cached by permission_cache.ts.
 *
 * Resource side (reference 9.2): allow-only. Entity policies per entity or `*`; attribute
 * policies looked up as `<entity>.<attr>`, `<entity>.*`, `*.<attr>`, `*.*` (the highest level
 * wins, MODIFY implies VIEW; no policy: hidden and read-only); specific policies by name or `*`.
 *
 * Row-level side: per entity and action, the rules every row must satisfy (AND-ed). A rule is a
 * parsed filter (the search filter language) or NOTHING (a rule that could not be compiled, or
 * whose placeholder has no value for this subject: fail closed).
 */
import type { FilterGroup } from '#engine/query/filter_ast'

export type EntityOperation = 'create' | 'read' | 'update' | 'delete'

/** 0: hidden, 1: VIEW, 2: MODIFY (the values of GET /rest/permissions). */
export type AttributeLevel = 0 | 1 | 2

/** A compiled row-level rule: the filter every row must satisfy, or NOTHING. */
export type RowRule = { kind: 'filter'; root: FilterGroup } | { kind: 'nothing' }

export const NOTHING: RowRule = Object.freeze({ kind: 'nothing' }) as RowRule

export interface PolicyData {
  entities: Map<string, Set<EntityOperation>>
  attributes: Map<string, Map<string, AttributeLevel>>
  specifics: Set<string>
  /** Rules per `<entity>:<operation>`. */
  rows: Map<string, RowRule[]>
}

export interface Permissions {
  /**
   * Identifies the resource permissions (entity/attribute/specific): two subjects with the same
   * key get the same answers from canDo/canRead/attribute. Used in plan and metadata caches.
   */
  readonly key: string
  /** Raw authorities for GET /rest/permissions: `ROLE_<code>`, `ROW_LEVEL_ROLE_<code>`. */
  readonly authorities: readonly string[]
  /** True when nothing is restricted (system-full-access without row-level roles). */
  readonly unrestricted: boolean
  canDo(entity: string, operation: EntityOperation): boolean
  canRead(entity: string): boolean
  attribute(entity: string, attribute: string): AttributeLevel
  canView(entity: string, attribute: string): boolean
  canModify(entity: string, attribute: string): boolean
  specific(name: string): boolean
  /** The row rules of `entity` for `operation` (empty: every row). */
  rowRules(entity: string, operation: EntityOperation): readonly RowRule[]
  /** Whether any row rule restricts reading `entity`. */
  hasReadRules(entity: string): boolean
}

const NONE: readonly RowRule[] = Object.freeze([])

/**
 * Specific policies that `*` does not grant: administering the application (the admin API) is a
 * right of its own, separate from full data access (`system-full-access`).
 */
export const EXPLICIT_ONLY_POLICIES: ReadonlySet<string> = new Set(['admin.api'])

export class PolicyIndex implements Permissions {
  readonly unrestricted: boolean
  #levels = new Map<string, AttributeLevel>()

  constructor(
    readonly key: string,
    readonly authorities: readonly string[],
    private data: PolicyData
  ) {
    const all = data.entities.get('*')
    this.unrestricted =
      data.rows.size === 0 &&
      data.specifics.has('*') &&
      (all?.size ?? 0) === 4 &&
      data.attributes.get('*')?.get('*') === 2
  }

  canDo(entity: string, operation: EntityOperation): boolean {
    return (
      !!this.data.entities.get(entity)?.has(operation) ||
      !!this.data.entities.get('*')?.has(operation)
    )
  }

  canRead(entity: string): boolean {
    return this.canDo(entity, 'read')
  }

  attribute(entity: string, attribute: string): AttributeLevel {
    const cacheKey = `${entity}.${attribute}`
    const cached = this.#levels.get(cacheKey)
    if (cached !== undefined) return cached
    const own = this.data.attributes.get(entity)
    const any = this.data.attributes.get('*')
    const level = Math.max(
      own?.get(attribute) ?? 0,
      own?.get('*') ?? 0,
      any?.get(attribute) ?? 0,
      any?.get('*') ?? 0
    ) as AttributeLevel
    this.#levels.set(cacheKey, level)
    return level
  }

  canView(entity: string, attribute: string): boolean {
    return this.attribute(entity, attribute) >= 1
  }

  canModify(entity: string, attribute: string): boolean {
    return this.attribute(entity, attribute) === 2
  }

  specific(name: string): boolean {
    return (
      this.data.specifics.has(name) ||
      (this.data.specifics.has('*') && !EXPLICIT_ONLY_POLICIES.has(name))
    )
  }

  rowRules(entity: string, operation: EntityOperation): readonly RowRule[] {
    return this.data.rows.get(`${entity}:${operation}`) ?? NONE
  }

  hasReadRules(entity: string): boolean {
    return this.data.rows.has(`${entity}:read`)
  }
}

/** Everything allowed, no row rules: system jobs (UnconstrainedDataManager) and tests. */
export const FULL_ACCESS: Permissions = new PolicyIndex('full', ['ROLE_system-full-access'], {
  entities: new Map([['*', new Set(['create', 'read', 'update', 'delete'] as EntityOperation[])]]),
  attributes: new Map([['*', new Map([['*', 2 as AttributeLevel]])]]),
  specifics: new Set(['*']),
  rows: new Map(),
})
