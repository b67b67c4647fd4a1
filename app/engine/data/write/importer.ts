/**
 * The import graph (spec 4.2 rules 1-7, reference 4.4-4.6): one entity object of the request
 * is merged into its row. Absent keys stay untouched; to-one references by {id}; owned to-one
 * compositions are saved before the row (it holds their key), collections after it
 * (relations.ts). Violations are collected; once there is one, nothing more is written and the
 * caller rolls the transaction back.
 */
import { randomUUID } from 'node:crypto'
import type { AttributeMeta, EntityMeta } from '../../metadata/model.js'
import { conflict, instanceNotFound } from '../errors.js'
import { saveCollection } from './relations.js'
import { checkSecurityToken, findVisibleRow, mayWrite, notePostImage } from './row_security.js'
import { removeRow } from './remover.js'
import { afterSave, beforeSave } from './hooks.js'
import {
  META_KEYS,
  findRow,
  isObject,
  referenceMissing,
  writeForbidden,
  writesStopped,
  type Id,
  type Row,
  type WriteState,
} from './state.js'
import { checkMandatory, checkUnique, checkValue, joinPath, mustBeUnique } from './validate.js'
import { cannotDeserialize, toDbValue, toIdValue } from './values.js'
import { isPlainValue } from '../../schema/dialects/direct_writes.js'
import type { StatementShape } from '../../schema/dialects/statement_shapes.js'

export interface SaveTarget {
  /** The stored row being updated; null: create. */
  existing: Row | null
  /** Back-reference of a composition child: set automatically, ignored in the body. */
  backRef?: { attribute: string; value: Id }
  /** Expected version from `If-Match` (root only). */
  ifMatch?: number
}

const notObject = (a: AttributeMeta) =>
  cannotDeserialize(
    '',
    `Attribute '${a.name}' refers to an entity. Property value must be a JSON object literal`
  )

/** The key of a new row: the body's id (uuid/string ids), a new UUID, or the database's. */
function newId(entity: EntityMeta, body: Row): Id | undefined {
  if (body.id !== undefined && body.id !== null) {
    const id = toIdValue(entity.idType, body.id)
    if (id === undefined) throw cannotDeserialize(`Invalid id ${JSON.stringify(body.id)}`)
    return id
  }
  return entity.idType === 'uuid' ? randomUUID() : undefined
}

async function toOneReference(s: WriteState, a: AttributeMeta, value: unknown) {
  if (value === null) return null
  if (!isObject(value)) throw notObject(a)
  const target = s.ctx.model.entity(a.target!)!
  const id = toIdValue(target.idType, value.id)
  // Soft-deleted targets are found: import loads with soft deletion off (reference 2.5). A row
  // hidden from the caller by a row-level rule is missing, as for a read.
  if (id === undefined || !(await findVisibleRow(s, target, id, true)))
    throw referenceMissing(s, a.name)
  return id
}

/** An owned to-one composition: the child is created or updated; a replaced child goes. */
async function toOneComposition(
  s: WriteState,
  a: AttributeMeta,
  value: unknown,
  existing: Row | null,
  path: string,
  after: (() => Promise<void>)[]
) {
  const target = s.ctx.model.entity(a.target!)!
  const previous = existing?.[a.column!] ?? null
  let childId: Id | null = null
  if (value !== null) {
    if (!isObject(value)) throw notObject(a)
    // Rule 5: with an id the child is updated, without one a new child replaces the old one.
    const id = value.id === undefined ? undefined : toIdValue(target.idType, value.id)
    const own = id !== undefined && previous !== null && String(previous) === String(id)
    const row = own ? await findVisibleRow(s, target, id) : null
    // An existing row that is not this owner's child belongs to another owner (or is hidden):
    // never taken over (catalogue MA11, as for collections).
    if (!row && id !== undefined && (await findRow(s, target, id, true)))
      throw instanceNotFound(target.name, String(id))
    childId = await saveEntity(s, target, row ? { ...value, id } : value, joinPath(path, a.name), {
      existing: row,
    })
  }
  if (previous !== null && String(previous) !== String(childId)) {
    after.push(async () => {
      const old = await findRow(s, target, previous)
      if (old) await removeRow(s, target, old)
    })
  }
  return childId
}

/** A sent `version` must be a whole number (catalogue VL4: strings and null are refused). */
function sentVersion(body: Row, entity: EntityMeta): number | undefined {
  if (!('version' in body)) return undefined
  // A version that is not a whole number is a malformed request, not a conflict.
  if (!(Number.isSafeInteger(body.version) && body.version >= 0))
    throw cannotDeserialize(`Invalid version ${JSON.stringify(body.version)} of ${entity.name}`)
  return body.version
}

/**
 * Version check: the stored version the update is bound to. A stale one is noted on the state
 * (409 unless validation fails: reference 4.6 validates before saving); a lost race at the
 * update itself is a conflict too (writeRow).
 */
function expectedVersion(
  s: WriteState,
  body: Row,
  target: SaveTarget,
  entity: EntityMeta
): number | undefined {
  if (!entity.traits.has('versioned') || !target.existing) return undefined
  const current = Number(target.existing.version)
  const sent = sentVersion(body, entity) ?? target.ifMatch
  if (sent !== undefined && sent !== current) {
    s.stale ??= conflict(
      `Row was updated or deleted by another transaction: ${entity.name} ${target.existing.id} has version ${current}, not ${sent}`
    )
  }
  return current
}

/** An insert's SQL depends only on the table and the (sorted) columns. */
function insertShape(entity: EntityMeta, row: Row): StatementShape | null {
  const columns = Object.keys(row).sort()
  const values = columns.map((c) => row[c])
  if (!values.every(isPlainValue)) return null
  return { key: `insert ${entity.table} ${columns.join(',')}`, bindings: values }
}

/** An update by id (and version): the table, the columns in order, the version clause. */
function updateShape(
  entity: EntityMeta,
  row: Row,
  id: Id,
  version: number | undefined
): StatementShape | null {
  const columns = Object.keys(row)
  const values = columns.map((c) => row[c])
  if (!values.every(isPlainValue)) return null
  const where = version === undefined ? [id] : [id, version]
  return {
    key: `update ${entity.table} ${columns.join(',')} ${version !== undefined}`,
    bindings: [...values, ...where],
  }
}

async function writeRow(
  s: WriteState,
  entity: EntityMeta,
  row: Row,
  id: Id | undefined,
  target: SaveTarget,
  version: number | undefined
): Promise<Id> {
  const audited = entity.traits.has('audited')
  if (!target.existing) {
    if (id !== undefined) row.id = id
    if (entity.traits.has('versioned')) row.version = 1
    if (audited) {
      Object.assign(row, { created_by: s.user, created_date: s.now })
      Object.assign(row, { last_modified_by: s.user, last_modified_date: s.now })
    }
    const result = await s.trx.run(
      () => s.trx.table(entity.table).insert(row).returning('id'),
      insertShape(entity, row)
    )
    const first = result[0] as unknown
    return id ?? (isObject(first) ? (first.id as Id) : (first as Id))
  }
  if (audited) Object.assign(row, { last_modified_by: s.user, last_modified_date: s.now })
  const key = target.existing.id as Id
  if (version !== undefined) row.version = version + 1
  if (Object.keys(row).length === 0) return key
  const build = () => {
    const query = s.trx.from(entity.table).where('id', key)
    if (version !== undefined) query.where('version', version)
    return query.update(row)
  }
  const affected = await s.trx.run(build, updateShape(entity, row, key, version))
  const count = Array.isArray(affected) ? affected.length : Number(affected)
  if (count !== 1) throw conflict(`${entity.name} ${target.existing.id} was changed concurrently`)
  return target.existing.id
}

/** Merges one entity object into its row (created when `target.existing` is null); its id. */
export async function saveEntity(
  s: WriteState,
  entity: EntityMeta,
  body: Row,
  path: string,
  target: SaveTarget
): Promise<Id> {
  const isNew = !target.existing
  if (!s.ctx.permissions.canDo(entity.name, isNew ? 'create' : 'update')) {
    throw writeForbidden(isNew ? 'create' : 'update', entity.name)
  }
  checkSecurityToken(s, entity, body, target.existing)
  const id = isNew ? newId(entity, body) : (target.existing!.id as Id)
  // Lifecycle hooks (hooks.ts) may change the values or refuse; none once writes stopped.
  if (!writesStopped(s)) body = await beforeSave(s, entity, body, id, isNew, path)
  const row: Row = {}
  const after: (() => Promise<void>)[] = []
  const collections: [AttributeMeta, unknown][] = []
  for (const [key, value] of Object.entries(body)) {
    if (META_KEYS.has(key)) continue
    const a = entity.attributes.get(key)
    if (!a) throw cannotDeserialize(`Unknown attribute '${key}' of entity ${entity.name}`)
    // Server-managed, computed and read-only attributes are ignored (reference 4.4).
    if (a.system || a.transient || a.readOnly) continue
    if (target.backRef?.attribute === a.name) continue
    if (!mayWrite(s, entity, a, value, target.existing)) continue
    const attrPath = joinPath(path, a.name)
    if (a.kind === 'datatype') {
      row[a.column!] = toDbValue(s.ctx.model, a, value, s.dialect)
      s.violations.push(...checkValue(a, value, attrPath))
    } else if (a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY') {
      collections.push([a, value])
    } else if (!a.column) {
      // Inverse to-one side (mappedBy): the other row holds the key, as for a one-to-many.
      if (value !== null && !isObject(value)) throw notObject(a)
      if (a.kind === 'association' && a.mappedBy) collections.push([a, value ? [value] : []])
    } else if (a.kind === 'composition') {
      row[a.column] = await toOneComposition(s, a, value, target.existing, path, after)
    } else {
      row[a.column] = await toOneReference(s, a, value)
    }
  }
  if (target.backRef) {
    row[entity.attributes.get(target.backRef.attribute)!.column!] = target.backRef.value
  }
  if (isNew && id !== undefined) row.id = id
  s.violations.push(...checkMandatory(entity, row, isNew, path))
  delete row.id
  const version = expectedVersion(s, body, target, entity)
  s.violations.push(...(await checkUnique(s.trx, entity, row, target.existing, id, path)))
  // A given key of a new row must be free (soft-deleted rows still hold theirs).
  if (isNew && body.id !== undefined && body.id !== null && (await findRow(s, entity, id!, true)))
    s.violations.push(mustBeUnique(joinPath(path, 'id'), id))
  if (writesStopped(s)) {
    // Keep validating the nested collections (against the stored children); nothing is
    // written any more.
    const storedId = isNew ? null : (target.existing!.id as Id)
    for (const [a, value] of collections) await saveCollection(s, a, value, storedId, path)
    return id ?? 0
  }
  const savedId = await writeRow(s, entity, row, id, target, version)
  notePostImage(s, entity, savedId, isNew ? 'create' : 'update')
  for (const [a, value] of collections) await saveCollection(s, a, value, savedId, path)
  for (const step of after) await step()
  if (!writesStopped(s)) await afterSave(s, entity, body, savedId, isNew)
  return savedId
}
