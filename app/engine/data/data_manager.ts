/**
 * DataManager: the only door to runtime-entity data for API code. Every operation runs as a
 * subject and asks its compiled permissions (app/security) at each step; reads go
 * through the read pipeline (data/read/*), writes through the write pipeline (data/write/*).
 * UnconstrainedDataManager (system jobs) skips the checks and says so in its name.
 *
 * Entity JSON in and out follows the upstream format (reference section 4).
 */
import type { Database } from '@adonisjs/lucid/database'
import type { Model } from '../metadata/model.js'
import type { Subject } from '#security/subject'
import { FULL_ACCESS, type Permissions } from '#security/policy_index'
import * as reader from './read/main.js'
import * as writer from './write/main.js'

export type EntityJson = Record<string, unknown>

export interface ReadOptions {
  /** Plan name (`_base`, `order-full`) or inline plan JSON; default `_base` (list) / `_base` (load). */
  fetchPlan?: string
  returnNulls?: boolean
  /** `fetchPlan` is inline plan text the server itself chose (cached like a named plan). */
  serverPlan?: boolean
}

export interface ListOptions extends ReadOptions {
  /** Parsed filter JSON (object or text) as sent by the client; absent: all rows. */
  filter?: unknown
  sort?: string
  limit?: number
  offset?: number
  returnCount?: boolean
}

export interface WriteOptions {
  responseFetchPlan?: string
  /** Version from an `If-Match` header (optimistic locking). */
  ifMatch?: number
}

export interface DataContext {
  db: Database
  model: Model
  subject: Subject
  /** The subject's compiled permissions (security/main.ts `permissionsFor`). */
  permissions: Permissions
  /** `svc.rest.default-max-fetch-size` and friends, read through the property resolver. */
  maxFetchSize: number
  /** `svc.rest.max-bulk-size`: most entities one bulk create/update/delete may carry. */
  maxBulkSize: number
  /** Captions in the request locale, for enum values in `_instanceName` (default: `en`). */
  caption?: (key: string) => string
  /** `svc.core.entitySerializationTokenRequired`: send and expect `__securityToken`. */
  securityTokens?: boolean
  /**
   * Set by the write pipeline only: the open write transaction the read pipeline runs in (the
   * response of a create or update shows the rows as that transaction wrote them).
   */
  transaction?: {
    all(sql: string, bindings: readonly unknown[]): Promise<Record<string, unknown>[]>
  }
}

export interface DataManagerContract {
  load(entity: string, id: string, options?: ReadOptions): Promise<EntityJson>
  list(entity: string, options?: ListOptions): Promise<{ items: EntityJson[]; total?: number }>
  count(entity: string, filter?: unknown): Promise<number>
  /** `load` and `list` as JSON text: the same bytes as `stringifyJson` of their objects. */
  loadJson(entity: string, id: string, options?: ReadOptions): Promise<string>
  listJson(entity: string, options?: ListOptions): Promise<{ json: string; total?: number }>
  create(entity: string, body: EntityJson, options?: WriteOptions): Promise<EntityJson>
  createMany(entity: string, bodies: EntityJson[], options?: WriteOptions): Promise<EntityJson[]>
  update(entity: string, id: string, body: EntityJson, options?: WriteOptions): Promise<EntityJson>
  updateMany(entity: string, bodies: EntityJson[], options?: WriteOptions): Promise<EntityJson[]>
  delete(entity: string, id: string): Promise<void>
  deleteMany(entity: string, ids: string[]): Promise<void>
}

/**
 * The secured implementation: every call runs as `context.subject` and goes through the
 * permission hooks inside the read and write pipelines.
 */
export class DataManager implements DataManagerContract {
  constructor(readonly context: DataContext) {}

  load(entity: string, id: string, options?: ReadOptions) {
    return reader.load(this.context, entity, id, options)
  }

  list(entity: string, options?: ListOptions) {
    return reader.list(this.context, entity, options)
  }

  count(entity: string, filter?: unknown) {
    return reader.count(this.context, entity, filter)
  }

  loadJson(entity: string, id: string, options?: ReadOptions) {
    return reader.loadJson(this.context, entity, id, options)
  }

  listJson(entity: string, options?: ListOptions) {
    return reader.listJson(this.context, entity, options)
  }

  create(entity: string, body: EntityJson, options?: WriteOptions) {
    return writer.create(this.context, entity, body, options)
  }

  createMany(entity: string, bodies: EntityJson[], options?: WriteOptions) {
    return writer.createMany(this.context, entity, bodies, options)
  }

  update(entity: string, id: string, body: EntityJson, options?: WriteOptions) {
    return writer.update(this.context, entity, id, body, options)
  }

  updateMany(entity: string, bodies: EntityJson[], options?: WriteOptions) {
    return writer.updateMany(this.context, entity, bodies, options)
  }

  delete(entity: string, id: string) {
    return writer.remove(this.context, entity, id)
  }

  deleteMany(entity: string, ids: string[]) {
    return writer.deleteMany(this.context, entity, ids)
  }
}

/**
 * For system jobs only (imports, maintenance): every permission, no row-level rule. Anything
 * serving an API caller must use DataManager with the caller's permissions.
 */
export class UnconstrainedDataManager extends DataManager {
  constructor(context: Omit<DataContext, 'permissions'>) {
    super({ ...context, permissions: FULL_ACCESS })
  }
}
