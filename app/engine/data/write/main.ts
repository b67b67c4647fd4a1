/**
 * The write half of DataManager: `create`, `createMany`, `update`, `updateMany`, `delete`,
 * `deleteMany` for a subject (DataContext). Pipeline (reference 4.6): entity lookup (404) ->
 * CRUD permission (403) -> response fetch plan (400) -> one transaction: import graph
 * (importer.ts, relations.ts, remover.ts) with validation (400 array, nothing written), then
 * optimistic locking (409: only when the graph is valid), audit columns and version ->
 * minimal response or the `responseFetchPlan` view through the read half's `load`, read
 * before the commit.
 */
import type { EntityMeta } from '../../metadata/model.js'
import type { DataContext, EntityJson, WriteOptions } from '../data_manager.js'
import { DataError, entityNotFound, instanceNotFound } from '../errors.js'
import { load, parseId } from '../read/main.js'
import { resolvePlan } from '../read/plan.js'
import { directTransaction, type WriteClient } from '../../schema/dialects/direct_writes.js'
import { translateDriverError } from './driver_errors.js'
import { saveEntity } from './importer.js'
import { removeRow } from './remover.js'
import { isObject, newState, writeForbidden, type Id, type WriteState } from './state.js'
import { checkPostImages, checkStoredRow, findVisibleRow } from './row_security.js'
import { validationFailed } from './validate.js'
import { toIdValue } from './values.js'
import { formatId } from '../read/values.js'

function writableEntity(ctx: DataContext, name: string, operation: 'create' | 'update' | 'delete') {
  const entity = ctx.model.entity(name)
  if (!entity) throw entityNotFound(name)
  if (!ctx.permissions.canDo(entity.name, operation)) throw writeForbidden(operation, entity.name)
  return entity
}

/**
 * Runs `work` in one transaction; violations roll everything back; driver errors translated.
 * `answer` reads the response in the same transaction, before the commit: it shows the rows as
 * this request wrote them, and its refusal (e.g. a response plan the caller may not read)
 * rolls the write back too.
 */
async function inTransaction<T, R>(
  ctx: DataContext,
  operation: WriteState['operation'],
  options: WriteOptions,
  work: (s: WriteState) => Promise<T>,
  answer: (reading: DataContext, result: T) => Promise<R>
): Promise<R> {
  try {
    const client = ctx.db.connection()
    const dialect = client.dialect.name === 'postgres' ? 'pg' : 'sqlite'
    const transaction = async (trx: WriteClient) => {
      const s = newState(ctx, trx, dialect, options, operation)
      const result = await work(s)
      if (s.violations.length) throw validationFailed(s.violations)
      if (s.stale) throw s.stale
      await checkPostImages(s)
      return answer({ ...ctx, transaction: trx }, result)
    }
    // The model names the transaction's prepared statements (schema/dialects/pg_statements.ts).
    return await directTransaction(client, transaction, ctx.model)
  } catch (error) {
    throw translateDriverError(error)
  }
}

const noAnswer = async () => {}

/**
 * The created/updated entity as the response shows it (reference 2.5/2.6): without a
 * `responseFetchPlan` `_entityName`, `_instanceName`, `id` and, beyond upstream, the new
 * `version` of a versioned entity (catalogue VL9: the client's next update needs it). The
 * minimal answer of a caller who may not read the entity, or this row, is its name and id.
 */
async function respond(ctx: DataContext, entity: EntityMeta, id: Id, options: WriteOptions) {
  if (options.responseFetchPlan) {
    return load(ctx, entity.name, String(id), { fetchPlan: options.responseFetchPlan })
  }
  const bare: EntityJson = { _entityName: entity.name, id: formatId(id) }
  if (!ctx.permissions.canRead(entity.name)) return bare
  const versioned = entity.traits.has('versioned')
  const plan = versioned
    ? JSON.stringify({ extends: '_instance_name', properties: ['version'] })
    : '_instance_name'
  let full: EntityJson
  try {
    full = await load(ctx, entity.name, String(id), { fetchPlan: plan, serverPlan: true })
  } catch (error) {
    if (error instanceof DataError && error.status === 404) return bare
    throw error
  }
  const minimal: EntityJson = {}
  for (const key of ['_entityName', '_instanceName', 'id', 'version']) {
    if (full[key] !== undefined) minimal[key] = full[key]
  }
  return minimal
}

/** Responses of a bulk write, one after the other on the transaction's connection. */
async function respondAll(ctx: DataContext, entity: EntityMeta, ids: Id[], options: WriteOptions) {
  const out: EntityJson[] = []
  for (const id of ids) out.push(await respond(ctx, entity, id, options))
  return out
}

/** An unknown response plan (an empty name too) is 400, as for reads (resolvePlan). */
function checkResponsePlan(ctx: DataContext, entity: EntityMeta, options: WriteOptions) {
  if (options.responseFetchPlan !== undefined) resolvePlan(ctx, entity, options.responseFetchPlan)
}

function requireObject(body: unknown): Record<string, unknown> {
  if (!isObject(body))
    throw new DataError(
      400,
      'Cannot deserialize an entity from JSON',
      'The body must be a JSON object'
    )
  return body
}

/** Create, or update when the body names an existing row (import: "load by id, create if absent"). */
async function createOne(s: WriteState, entity: EntityMeta, body: unknown, path: string) {
  const object = requireObject(body)
  const id =
    object.id === undefined || object.id === null ? undefined : toIdValue(entity.idType, object.id)
  const existing = id === undefined ? null : await findVisibleRow(s, entity, id)
  if (existing && !s.ctx.permissions.canDo(entity.name, 'update'))
    throw writeForbidden('update', entity.name)
  if (existing) await checkStoredRow(s, entity, existing, 'update')
  return saveEntity(s, entity, object, path, { existing })
}

export async function create(
  ctx: DataContext,
  entityName: string,
  body: EntityJson,
  options: WriteOptions = {}
) {
  const entity = writableEntity(ctx, entityName, 'create')
  checkResponsePlan(ctx, entity, options)
  return inTransaction(
    ctx,
    'create',
    options,
    (s) => createOne(s, entity, body, ''),
    (reading, id) => respond(reading, entity, id, options)
  )
}

export async function createMany(
  ctx: DataContext,
  entityName: string,
  bodies: EntityJson[],
  options: WriteOptions = {}
) {
  const entity = writableEntity(ctx, entityName, 'create')
  checkResponsePlan(ctx, entity, options)
  checkBatch(ctx, bodies.length)
  return inTransaction(
    ctx,
    'create',
    options,
    async (s) => {
      const out: Id[] = []
      for (const [i, body] of bodies.entries())
        out.push(await createOne(s, entity, body, `entities[${i}]`))
      return out
    },
    (reading, ids) => respondAll(reading, entity, ids, options)
  )
}

async function updateOne(s: WriteState, entity: EntityMeta, id: Id, body: unknown, path: string) {
  const object = requireObject(body)
  const existing = await findVisibleRow(s, entity, id)
  if (!existing) throw instanceNotFound(entity.name, String(id))
  await checkStoredRow(s, entity, existing, 'update')
  // The URL id overrides any id in the body (reference 2.6).
  return saveEntity(s, entity, { ...object, id }, path, { existing, ifMatch: s.options.ifMatch })
}

export async function update(
  ctx: DataContext,
  entityName: string,
  id: string,
  body: EntityJson,
  options: WriteOptions = {}
) {
  const entity = writableEntity(ctx, entityName, 'update')
  const key = parseId(entity, id)
  checkResponsePlan(ctx, entity, options)
  return inTransaction(
    ctx,
    'update',
    options,
    (s) => updateOne(s, entity, key, body, ''),
    (reading, saved) => respond(reading, entity, saved, options)
  )
}

/** Bulk requests are bounded (catalogue AZ9): `svc.rest.max-bulk-size` entities per request. */
function checkBatch(ctx: DataContext, size: number) {
  if (size > ctx.maxBulkSize)
    throw new DataError(
      413,
      'Too many entities',
      `A bulk request may carry at most ${ctx.maxBulkSize} entities, not ${size}`
    )
}

const missingId = () =>
  new DataError(
    400,
    'Required attribute id is not presented',
    'Required attribute id is not presented'
  )

export async function updateMany(
  ctx: DataContext,
  entityName: string,
  bodies: EntityJson[],
  options: WriteOptions = {}
) {
  const entity = writableEntity(ctx, entityName, 'update')
  checkResponsePlan(ctx, entity, options)
  checkBatch(ctx, bodies.length)
  const work = async (s: WriteState) => {
    const out: Id[] = []
    for (const [i, body] of bodies.entries()) {
      const object = requireObject(body)
      if (object.id === undefined || object.id === null) throw missingId()
      const id = parseId(entity, String(object.id))
      // The same row twice would make the result depend on the order (catalogue AZ6).
      if (out.some((known) => String(known) === String(id)))
        throw new DataError(400, 'Invalid entities', `Entity ${entity.name} ${id} is listed twice`)
      out.push(await updateOne(s, entity, id, object, `entities[${i}]`))
    }
    return out
  }
  return inTransaction(ctx, 'update', { ...options, ifMatch: undefined }, work, (reading, ids) =>
    respondAll(reading, entity, ids, options)
  )
}

async function deleteOne(s: WriteState, entity: EntityMeta, id: string) {
  const row = await findVisibleRow(s, entity, parseId(entity, id))
  if (!row) throw instanceNotFound(entity.name, id)
  await checkStoredRow(s, entity, row, 'delete')
  await removeRow(s, entity, row)
}

export async function remove(ctx: DataContext, entityName: string, id: string) {
  const entity = writableEntity(ctx, entityName, 'delete')
  await inTransaction(ctx, 'delete', {}, (s) => deleteOne(s, entity, id), noAnswer)
}
export { remove as delete }

/**
 * Bulk delete, all or nothing (upstream deletes one by one; here a hidden, forbidden or missing
 * row anywhere refuses the whole batch, catalogue AZ8).
 */
export async function deleteMany(ctx: DataContext, entityName: string, ids: unknown[]) {
  const entity = writableEntity(ctx, entityName, 'delete')
  checkBatch(ctx, ids.length)
  const keys = ids.map((item) => {
    const id = isObject(item) ? item.id : item
    if (id === undefined || id === null || (typeof id !== 'string' && typeof id !== 'number'))
      throw missingId()
    return String(id)
  })
  const work = async (s: WriteState) => {
    for (const id of keys) await deleteOne(s, entity, id)
  }
  await inTransaction(ctx, 'delete', {}, work, noAnswer)
}
