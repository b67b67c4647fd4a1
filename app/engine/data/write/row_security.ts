/**
 * The write side of the subject's permissions (app/security/README.md, "Writes"):
 *
 * - the row an update or delete names must be visible (read rules) - else 404, as if absent;
 *   its stored state must satisfy the `update` / `delete` predicates - else 403;
 * - every row a request creates or updates must, as the request leaves it, satisfy the read
 *   rules and the `create` / `update` predicates - else 403 and the transaction rolls back
 *   (checked in SQL inside the transaction, once per entity, after the whole graph is written);
 * - an attribute the caller may not modify: a value that differs from the stored one (or any
 *   value for a hidden attribute) is 403 for the whole request, never a partial save;
 * - collection replacement only touches rows the caller can see: hidden members stay.
 */
import type { AttributeMeta, EntityMeta } from '../../metadata/model.js'
import type { EntityOperation } from '#security/policy_index'
import { DataError, attributeForbidden, rowForbidden } from '../errors.js'
import { decodeSecurityToken } from '#security/security_token'
import { cannotDeserialize } from './values.js'
import { Aliases, applyRowRules } from '../read/filter_sql.js'
import { formatValue } from '../read/values.js'
import { isObject, type Id, type Row, type WriteState } from './state.js'

/** Rows to check once the graph is written: entity name -> operation per id. */
export type PostChecks = Map<string, { entity: EntityMeta; ids: Map<string, EntityOperation> }>

const restricted = (s: WriteState, entity: EntityMeta, operation: EntityOperation) =>
  s.ctx.permissions.rowRules(entity.name, operation).length > 0

/** `select t0.id from <entity> t0 where <rules of operation>` (null: no rule restricts it). */
export function allowedIds(s: WriteState, entity: EntityMeta, operation: EntityOperation) {
  if (!restricted(s, entity, operation)) return null
  const q = s.trx.from(`${entity.table} as t0`).select('t0.id')
  applyRowRules(s.ctx, q, entity, 't0', new Aliases(), operation)
  return q
}

/** The live row by id if the caller may read it (null: absent or hidden - the same to callers). */
export async function findVisibleRow(
  s: WriteState,
  entity: EntityMeta,
  id: Id,
  withDeleted = false
) {
  const live = !withDeleted && entity.traits.has('softDelete')
  const build = () => {
    const q = s.trx
      .from(`${entity.table} as t0`)
      .select('t0.*')
      .where('t0.id', id as any)
    if (live) q.whereNull('t0.deleted_date')
    applyRowRules(s.ctx, q, entity, 't0', new Aliases())
    return q.limit(1)
  }
  // Without a read rule the statement depends only on the table and the soft-delete clause.
  const shape = restricted(s, entity, 'read')
    ? null
    : { key: `visible ${entity.table} ${live}`, bindings: [id, 1] }
  const rows: Row[] = await s.trx.run(build, shape)
  return rows[0] ?? null
}

/** The first of `ids` outside the caller's `operation` rules (undefined: none is). */
async function firstRefused<T extends Id>(
  s: WriteState,
  entity: EntityMeta,
  ids: T[],
  operation: EntityOperation
): Promise<T | undefined> {
  const allowed = allowedIds(s, entity, operation)
  if (!allowed || ids.length === 0) return undefined
  const found = new Set((await allowed.whereIn('t0.id', ids)).map((r: Row) => String(r.id)))
  return ids.find((id) => !found.has(String(id)))
}

/** The stored rows must satisfy the predicates of `operation` (update, delete): else 403. */
export async function checkStoredRows(
  s: WriteState,
  entity: EntityMeta,
  ids: Id[],
  operation: 'update' | 'delete'
) {
  const refused = await firstRefused(s, entity, ids, operation)
  if (refused !== undefined) throw rowForbidden(entity.name, refused, operation)
}

/** The stored row must satisfy the predicates of `operation` (update, delete). */
export const checkStoredRow = (
  s: WriteState,
  entity: EntityMeta,
  row: Row,
  operation: 'update' | 'delete'
) => checkStoredRows(s, entity, [row.id], operation)

/** Remembers a written row for the post-image check. */
export function notePostImage(
  s: WriteState,
  entity: EntityMeta,
  id: Id,
  operation: 'create' | 'update'
) {
  if (!restricted(s, entity, 'read') && !restricted(s, entity, operation)) return
  let entry = s.postChecks.get(entity.name)
  if (!entry) s.postChecks.set(entity.name, (entry = { entity, ids: new Map() }))
  if (!entry.ids.has(String(id))) entry.ids.set(String(id), operation)
}

/** Every written row, as it is now, satisfies the read rules and its operation's predicates. */
export async function checkPostImages(s: WriteState) {
  for (const { entity, ids } of s.postChecks.values()) {
    for (const operation of ['read', 'create', 'update'] as const) {
      const wanted = [...ids].filter(([, op]) => operation === 'read' || op === operation)
      const refused = await firstRefused(
        s,
        entity,
        wanted.map(([id]) => id),
        operation
      )
      if (refused !== undefined) throw rowForbidden(entity.name, refused, ids.get(refused)!)
    }
  }
}

function sameValue(s: WriteState, a: AttributeMeta, stored: unknown, sent: unknown): boolean {
  if (a.kind === 'datatype') {
    const current =
      stored === null || stored === undefined ? null : formatValue(s.ctx.model, a, stored)
    return JSON.stringify(current) === JSON.stringify(sent ?? null)
  }
  if (a.column) {
    const id = isObject(sent) ? sent.id : sent
    return String(stored ?? null) === String(id ?? null)
  }
  return false
}

/**
 * Whether `a` may be written by the caller: true (write it), false (ignore it: a view-only
 * value sent back unchanged), or 403 for the whole request.
 */
export function mayWrite(
  s: WriteState,
  entity: EntityMeta,
  a: AttributeMeta,
  value: unknown,
  existing: Row | null
): boolean {
  const level = s.ctx.permissions.attribute(entity.name, a.name)
  if (level === 2) return true
  // Nothing to change: a null on create, or the stored value sent back by a client that may see it.
  if (!existing && (value === null || value === undefined)) return false
  if (level === 1 && existing && sameValue(s, a, a.column ? existing[a.column] : undefined, value))
    return false
  throw attributeForbidden(entity.name, a.name)
}

/**
 * `__securityToken` on input (reference 4.8): a token that does not decrypt, or belongs to
 * another entity or row, is 400 (catalogue AZ17/AZ18). When tokens are required, an update
 * without one that writes a relation whose rows may be hidden is 403, as upstream.
 */
export function checkSecurityToken(
  s: WriteState,
  entity: EntityMeta,
  body: Row,
  existing: Row | null
) {
  const token = body.__securityToken
  if (token !== undefined && token !== null) {
    const decoded = decodeSecurityToken(token)
    if (
      !decoded ||
      decoded.entity !== entity.name ||
      (existing && decoded.id !== String(existing.id))
    )
      throw cannotDeserialize(`Invalid __securityToken for ${entity.name}`)
    return
  }
  if (!s.ctx.securityTokens || !existing) return
  for (const key of Object.keys(body)) {
    const a = entity.attributes.get(key)
    if (a && a.kind !== 'datatype' && s.ctx.permissions.hasReadRules(a.target!))
      throw new DataError(
        403,
        'Forbidden',
        `Could not read export/import token from entity ${entity.name}-${String(existing.id)}`
      )
  }
}
