/**
 * What one write request carries through the import graph: the transaction, the collected
 * violations, who and when (audit columns), the dialect and the request options.
 */
import type { WriteClient } from '../../schema/dialects/direct_writes.js'
import type { Subject } from '#security/subject'
import type { EntityMeta } from '../../metadata/model.js'
import type { DataContext, WriteOptions } from '../data_manager.js'
import { forbidden, DataError } from '../errors.js'
import type { Dialect } from './values.js'
import type { Violation } from './validate.js'
import type { PostChecks } from './row_security.js'

export type Row = Record<string, any>
export type Id = string | number

export interface WriteState {
  ctx: DataContext
  /** Builders that run on the write transaction's connection. */
  trx: WriteClient
  dialect: Dialect
  user: string
  now: string
  options: WriteOptions
  violations: Violation[]
  /** Rows deleted in this request (`entity:id`): cycle guard of cascades. */
  removed: Set<string>
  /** Rows written, for the row-level post-image check before commit (row_security.ts). */
  postChecks: PostChecks
  /** The endpoint's operation: names the upstream error of a missing reference. */
  operation: 'create' | 'update' | 'delete'
  /**
   * A stale version seen on the way: like a violation, nothing more is written, and it is the
   * answer (409) only when validation found nothing (reference 4.6: validation comes first).
   */
  stale?: DataError
}

/** Once a violation or a stale version is found, the rest of the graph is only validated. */
export const writesStopped = (s: WriteState) => s.violations.length > 0 || s.stale !== undefined

/** Keys of an entity object that are not attributes (reference 4.4). */
export const META_KEYS = new Set(['_entityName', '_instanceName', '__securityToken'])

/** Audit user: the user name, else the OAuth client id. */
export function auditUser(subject: Subject): string {
  if (subject.kind === 'user') return subject.username
  if (subject.kind === 'client') return subject.clientId
  return subject.username
}

export function newState(
  ctx: DataContext,
  trx: WriteClient,
  dialect: Dialect,
  options: WriteOptions,
  operation: WriteState['operation']
) {
  return {
    ctx,
    trx,
    dialect,
    user: auditUser(ctx.subject),
    now: new Date().toISOString(),
    options,
    violations: [],
    removed: new Set(),
    postChecks: new Map(),
    operation,
  } satisfies WriteState as WriteState
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** The live row (soft-deleted rows hidden unless `withDeleted`). */
export function findRow(s: WriteState, entity: EntityMeta, id: Id, withDeleted = false) {
  const query = s.trx.from(entity.table).where('id', id as any)
  if (!withDeleted && entity.traits.has('softDelete')) query.whereNull('deleted_date')
  return query.first() as Promise<Row | null>
}

/**
 * Upstream 400 for a reference to a row that does not exist (reference 2.5/2.6): the endpoint
 * names it (a POST that updates an existing row by its id is still a creation).
 */
export const referenceMissing = (s: WriteState, attribute: string) =>
  new DataError(
    400,
    s.operation === 'create' ? 'Entity creation failed' : 'Entity update failed',
    `Referenced entity for property '${attribute}' is missing`
  )

/** Upstream CRUD-permission 403s (reference 5.1). */
export function writeForbidden(operation: 'create' | 'update' | 'delete', entity: string) {
  return forbidden(operation, entity)
}
