/**
 * To-many attributes of the import graph (spec 4.2 rules 3-6, reference 4.5):
 * - one-to-many composition: items with a known id are updated, the others created with the
 *   back-reference set; stored children absent from the array are deleted; every item gets the
 *   union of the items' keys (rule 6: a key missing from one item is null there);
 * - one-to-many association (and the inverse side of a one-to-one): the other rows' foreign key
 *   is set for the listed rows and cleared for the others (a mandatory key cannot be cleared:
 *   violation). That is an update of those rows: it needs the update permission on their
 *   entity and its key attribute, passes their row-level update rules, and bumps their
 *   `version` and audit columns;
 * - many-to-many: the link rows are rewritten (targets are never deleted).
 * Once validation failed (or a version is stale) items are still validated against the stored
 * children, and nothing is written.
 */
import type { AttributeMeta, EntityMeta, LinkTableMeta } from '../../metadata/model.js'
import { attributeForbidden, instanceNotFound } from '../errors.js'
import { saveEntity } from './importer.js'
import {
  allowedIds,
  checkStoredRow,
  checkStoredRows,
  findVisibleRow,
  notePostImage,
} from './row_security.js'
import { removeRow } from './remover.js'
import {
  findRow,
  isObject,
  referenceMissing,
  writeForbidden,
  writesStopped,
  type Id,
  type Row,
  type WriteState,
} from './state.js'
import { joinPath, violation } from './validate.js'
import { cannotDeserialize, toIdValue } from './values.js'

const notArray = (a: AttributeMeta) =>
  cannotDeserialize(
    '',
    `Attribute '${a.name}' refers to a collection. Property value must be a JSON array literal`
  )

function items(a: AttributeMeta, value: unknown): Row[] {
  if (value === null) return []
  if (!Array.isArray(value)) throw notArray(a)
  for (const item of value) {
    if (!isObject(item)) throw cannotDeserialize(`Items of '${a.name}' must be JSON objects`)
  }
  return value as Row[]
}

/** Rule 6: every item carries the union of the items' keys (absent -> null, collections -> []). */
function withUnionOfKeys(child: EntityMeta, list: Row[]): Row[] {
  const keys = new Set(list.flatMap((item) => Object.keys(item)))
  keys.delete('id')
  keys.delete('version')
  return list.map((item) => {
    const full: Row = { ...item }
    for (const key of keys) {
      if (key in full) continue
      const a = child.attributes.get(key)
      const many = a && (a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY')
      full[key] = many ? [] : null
    }
    return full
  })
}

async function referencedIds(s: WriteState, a: AttributeMeta, list: Row[]) {
  const target = s.ctx.model.entity(a.target!)!
  const ids: Id[] = []
  for (const item of list) {
    const id = toIdValue(target.idType, item.id)
    if (id === undefined || !(await findVisibleRow(s, target, id, true)))
      throw referenceMissing(s, a.name)
    if (!ids.some((known) => String(known) === String(id))) ids.push(id)
  }
  return ids
}

async function composition(
  s: WriteState,
  a: AttributeMeta,
  list: Row[],
  parentId: Id | null,
  path: string
) {
  const child = s.ctx.model.entity(a.target!)!
  const fk = child.attributes.get(a.mappedBy!)!.column!
  const stored: Row[] = []
  if (parentId !== null) {
    const query = s.trx.from(child.table).where(fk, parentId as any)
    if (child.traits.has('softDelete')) query.whereNull('deleted_date')
    // Children hidden from the caller are neither updated nor deleted (catalogue AZ19).
    const visible = allowedIds(s, child, 'read')
    if (visible) query.whereIn('id', visible)
    stored.push(...(await query))
  }
  const kept = new Set<string>()
  const full = withUnionOfKeys(child, list)
  for (const [i, item] of full.entries()) {
    const id =
      item.id === undefined || item.id === null ? undefined : toIdValue(child.idType, item.id)
    if (item.id !== undefined && item.id !== null && id === undefined) {
      throw cannotDeserialize(`Invalid id ${JSON.stringify(item.id)} in '${a.name}'`)
    }
    const existing =
      id === undefined ? null : (stored.find((r) => String(r.id) === String(id)) ?? null)
    // A known id that is not one of this parent's visible children: another parent's child or a
    // hidden one; never moved or overwritten (catalogue MA11).
    if (!existing && id !== undefined && (await findRow(s, child, id, true)))
      throw instanceNotFound(child.name, String(id))
    if (existing) {
      kept.add(String(existing.id))
      await checkStoredRow(s, child, existing, 'update')
    }
    await saveEntity(s, child, item, `${joinPath(path, a.name)}[${i}]`, {
      existing,
      backRef: { attribute: a.mappedBy!, value: parentId ?? 0 },
    })
  }
  if (writesStopped(s)) return
  for (const row of stored) {
    if (kept.has(String(row.id))) continue
    await checkStoredRow(s, child, row, 'delete')
    await removeRow(s, child, row)
  }
}

async function oneToManyAssociation(
  s: WriteState,
  a: AttributeMeta,
  ids: Id[],
  parentId: Id,
  path: string
) {
  const target = s.ctx.model.entity(a.target!)!
  const back = target.attributes.get(a.mappedBy!)!
  const fk = back.column!
  const live = (q: ReturnType<WriteState['trx']['from']>) =>
    target.traits.has('softDelete') ? q.whereNull('deleted_date') : q
  const unlinked = live(
    s.trx
      .from(target.table)
      .where(fk, parentId as any)
      .select('id')
  )
  if (ids.length) unlinked.whereNotIn('id', ids as any[])
  // Only rows the caller can see are unlinked; hidden members stay (catalogue AZ19).
  const visible = allowedIds(s, target, 'read')
  if (visible) unlinked.whereIn('id', visible)
  const toUnlink: Id[] = (await unlinked).map((r: Row) => r.id)
  if (back.mandatory && toUnlink.length) {
    s.violations.push(
      violation(
        joinPath(path, a.name),
        `${a.target}.${back.name} is mandatory: ${toUnlink.length} row(s) cannot be unlinked`,
        'jakarta.validation.constraints.NotNull.message',
        null
      )
    )
    return
  }
  // Rows already linked to this parent are left as they are (no version bump).
  const toLink: Id[] = ids.length
    ? (
        await s.trx
          .from(target.table)
          .whereIn('id', ids as any[])
          .where((q) => q.whereNull(fk).orWhereNot(fk, parentId as any))
          .select('id')
      ).map((r: Row) => r.id)
    : []
  await setKey(s, target, back, toUnlink, null)
  await setKey(s, target, back, toLink, parentId)
}

/**
 * Sets the foreign key of `ids` (rows of `target`) as an update of theirs: the caller's update
 * permissions on the entity, the key attribute and the stored rows, then `version` + 1 and the
 * audit columns; the rows as left are checked by the post-image check.
 */
async function setKey(
  s: WriteState,
  target: EntityMeta,
  back: AttributeMeta,
  ids: Id[],
  value: Id | null
) {
  if (!ids.length) return
  if (!s.ctx.permissions.canDo(target.name, 'update')) throw writeForbidden('update', target.name)
  if (s.ctx.permissions.attribute(target.name, back.name) !== 2)
    throw attributeForbidden(target.name, back.name)
  await checkStoredRows(s, target, ids, 'update')
  const row: Row = { [back.column!]: value }
  if (target.traits.has('audited'))
    Object.assign(row, { last_modified_by: s.user, last_modified_date: s.now })
  await s.trx
    .from(target.table)
    .whereIn('id', ids as any[])
    .update(row)
  if (target.traits.has('versioned'))
    await s.trx
      .from(target.table)
      .whereIn('id', ids as any[])
      .increment('version', 1)
  for (const id of ids) notePostImage(s, target, id, 'update')
}

/** The link table of a many-to-many attribute, seen from its entity (owner column first). */
function linkOf(s: WriteState, a: AttributeMeta): LinkTableMeta {
  if (a.linkTable) return a.linkTable
  const owning = s.ctx.model.entity(a.target!)!.attributes.get(a.mappedBy!)!.linkTable!
  return { table: owning.table, ownerColumn: owning.targetColumn, targetColumn: owning.ownerColumn }
}

export async function saveCollection(
  s: WriteState,
  a: AttributeMeta,
  value: unknown,
  parentId: Id | null,
  path: string
) {
  const list = items(a, value)
  if (a.kind === 'composition' && a.cardinality === 'ONE_TO_MANY') {
    return composition(s, a, list, parentId, path)
  }
  let ids = await referencedIds(s, a, list)
  if (parentId === null || writesStopped(s)) return
  if (a.cardinality !== 'MANY_TO_MANY') return oneToManyAssociation(s, a, ids, parentId, path)
  const link = linkOf(s, a)
  const unlink = s.trx.from(link.table).where(link.ownerColumn, parentId as any)
  const visible = allowedIds(s, s.ctx.model.entity(a.target!)!, 'read')
  if (visible) unlink.whereIn(link.targetColumn, visible)
  if (ids.length) unlink.whereNotIn(link.targetColumn, ids as any[])
  await unlink.delete()
  // Links that already exist are kept; only the missing ones are inserted.
  const linked = new Set(
    (
      await s.trx
        .from(link.table)
        .where(link.ownerColumn, parentId as any)
        .select(link.targetColumn)
    ).map((r: Row) => String(r[link.targetColumn]))
  )
  ids = ids.filter((id) => !linked.has(String(id)))
  if (ids.length) {
    await s.trx
      .table(link.table)
      .multiInsert(ids.map((id) => ({ [link.ownerColumn]: parentId, [link.targetColumn]: id })))
  }
}
