/**
 * Deleting one row with everything the model says goes with it (reference 2.7, 5.1):
 * composition children are deleted; rows referencing it follow their attribute's `onDelete`
 * (`cascade`: deleted, `unlink`: key cleared, `deny`: 409 Delete policy violation); link rows
 * of many-to-many attributes go with a hard delete. softDelete entities are marked
 * (deletedDate, deletedBy) instead of removed; soft-deleted referencing rows do not count.
 */
import type { AttributeMeta, EntityMeta } from '../../metadata/model.js'
import { DataError } from '../errors.js'
import { findRow, writeForbidden, type Row, type WriteState } from './state.js'
import { afterDelete, beforeDelete } from './hooks.js'

export const deletePolicyViolation = (entity: string, referencing: string) =>
  new DataError(
    409,
    'Delete policy violation',
    `Unable to delete ${entity} because there are references from ${referencing}`
  )

/** Every attribute of the model whose column references `entity`. */
function referencesTo(s: WriteState, entity: EntityMeta): [EntityMeta, AttributeMeta][] {
  const out: [EntityMeta, AttributeMeta][] = []
  for (const other of s.ctx.model.entities.values()) {
    for (const a of other.attributeList) {
      if (a.column && a.target === entity.name && a.kind !== 'datatype') out.push([other, a])
    }
  }
  return out
}

function liveReferencing(s: WriteState, other: EntityMeta, a: AttributeMeta, id: unknown) {
  const query = s.trx.from(other.table).where(a.column!, id as any)
  if (other.traits.has('softDelete')) query.whereNull('deleted_date')
  return query as unknown as Promise<Row[]>
}

async function deleteChildren(s: WriteState, entity: EntityMeta, row: Row) {
  for (const a of entity.attributeList) {
    if (a.kind !== 'composition' || a.cardinality !== 'ONE_TO_MANY' || !a.mappedBy) continue
    const child = s.ctx.model.entity(a.target!)!
    const fk = child.attributes.get(a.mappedBy)!
    for (const c of await liveReferencing(s, child, fk, row.id)) await removeRow(s, child, c)
  }
}

async function applyReferencePolicies(s: WriteState, entity: EntityMeta, row: Row) {
  for (const [other, a] of referencesTo(s, entity)) {
    const rows = await liveReferencing(s, other, a, row.id)
    if (!rows.length) continue
    if (a.onDelete === 'deny') throw deletePolicyViolation(entity.name, other.name)
    if (a.onDelete === 'cascade') {
      for (const r of rows) await removeRow(s, other, r)
    } else if (a.mandatory) {
      throw deletePolicyViolation(entity.name, other.name)
    } else {
      await s.trx
        .from(other.table)
        .where(a.column!, row.id)
        .update({ [a.column!]: null })
    }
  }
}

async function deleteLinks(s: WriteState, entity: EntityMeta, row: Row) {
  for (const other of s.ctx.model.entities.values()) {
    for (const a of other.attributeList) {
      if (!a.linkTable) continue
      if (other.name === entity.name) {
        await s.trx.from(a.linkTable.table).where(a.linkTable.ownerColumn, row.id).delete()
      }
      if (a.target === entity.name) {
        await s.trx.from(a.linkTable.table).where(a.linkTable.targetColumn, row.id).delete()
      }
    }
  }
}

/** Deletes (or soft-deletes) `row` of `entity` and what goes with it. */
export async function removeRow(s: WriteState, entity: EntityMeta, row: Row): Promise<void> {
  const key = `${entity.name}:${row.id}`
  if (s.removed.has(key)) return
  s.removed.add(key)
  if (!s.ctx.permissions.canDo(entity.name, 'delete')) throw writeForbidden('delete', entity.name)
  await beforeDelete(s, entity, row.id)
  await deleteChildren(s, entity, row)
  await applyReferencePolicies(s, entity, row)
  const soft = entity.traits.has('softDelete')
  if (soft) {
    await s.trx
      .from(entity.table)
      .where('id', row.id)
      .update({ deleted_date: s.now, deleted_by: s.user })
    await afterDelete(s, entity, row.id)
    return
  }
  await deleteLinks(s, entity, row)
  await s.trx.from(entity.table).where('id', row.id).delete()
  // Owned to-one compositions: the row held their key, so they go after it.
  for (const a of entity.attributeList) {
    if (a.kind !== 'composition' || !a.column || row[a.column] === null) continue
    const target = s.ctx.model.entity(a.target!)!
    const child = await findRow(s, target, row[a.column])
    if (child) await removeRow(s, target, child)
  }
  await afterDelete(s, entity, row.id)
}
