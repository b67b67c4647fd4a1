/**
 * The row-level preview of the admin API (`/admin/api/row-preview`): for a subject and an
 * entity, the SQL its read rules compile to and what it would read. Everything goes through the
 * subject's DataManager: the rows and the count are the ones `GET /rest/entities/<e>?limit=N`
 * (and `search/count`) would answer it, and the SQL is the read path's own count statement
 * (data/read/loader.ts `rootQuery`), compiled, never run outside DataManager.
 */
import type { DataManager, EntityJson } from '#engine/data/data_manager'
import { rootQuery } from '#engine/data/read/loader'

export interface RestrictionSql {
  /** The statement as the database receives it (dialect placeholders). */
  text: string
  bindings: unknown[]
}

export interface RowPreview {
  canRead: boolean
  /** Why `canRead` is false: the REST API or the entity is not open to the subject. */
  reason?: string
  sql: RestrictionSql | null
  count: number
  rows: EntityJson[]
}

/**
 * The count statement of `entity` for the subject with only its row-level read rules (and the
 * soft-delete condition every read has); null when no rule restricts reading it.
 */
export function restrictionSql(data: DataManager, entityName: string): RestrictionSql | null {
  const ctx = data.context
  const entity = ctx.model.entity(entityName)
  if (!entity || !ctx.permissions.hasReadRules(entity.name)) return null
  const native = rootQuery(ctx, { entity, filter: null }).q.count('* as total').toSQL().toNative()
  return { text: native.sql, bindings: [...native.bindings] }
}

/**
 * What the subject reads of `entity` (known to exist): count and first page, with `filter`
 * (the search filter language) AND-ed when given. A subject that may not read it gets
 * `canRead: false` and no rows: the preview answers, the refusal is not an error here.
 */
export async function previewRows(
  data: DataManager,
  entityName: string,
  options: { limit: number; filter?: unknown }
): Promise<RowPreview> {
  const { permissions } = data.context
  const sql = restrictionSql(data, entityName)
  let reason: string | undefined
  if (!permissions.specific('rest.enabled')) reason = 'no rest.enabled: the REST API is closed'
  else if (!permissions.canRead(entityName)) reason = `no read permission on ${entityName}`
  if (reason) return { canRead: false, reason, sql, count: 0, rows: [] }
  const list = options.filter === undefined ? {} : { filter: options.filter }
  const page = await data.list(entityName, { ...list, limit: options.limit })
  const count = await data.count(entityName, options.filter)
  return { canRead: true, sql, count, rows: page.items }
}
