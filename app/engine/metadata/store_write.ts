/**
 * Writes the model's system rows inside the caller's transaction. Given the model the rows hold
 * now, only what differs is written: an entity whose definition is unchanged keeps its rows (a
 * new attribute on one entity of 200 rewrites that entity's rows, not 4,000); enums and fetch
 * plans, which are small, are rewritten whole. Without it, everything is rewritten. Either way
 * the rows read back as `definition` (loadModelDefinition), which keeps the rows and the
 * snapshot identical.
 */
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { EntityDefinition, ModelDefinition } from './types.js'
import { Model } from './model.js'

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v))

/** Inserts rows in statements of at most 400 rows (both dialects' parameter limits). */
async function insertAll(trx: TransactionClientContract, table: string, rows: object[]) {
  for (let i = 0; i < rows.length; i += 400)
    await trx.table(table).multiInsert(rows.slice(i, i + 400))
}

/** The ids the rows of `table` got, by name (names are unique in both tables). */
async function idsByName(trx: TransactionClientContract, table: string) {
  const rows = await trx.from(table).select('id', 'name')
  return new Map(rows.map((r) => [r.name as string, r.id]))
}

function entityRow(model: Model, e: EntityDefinition, position: number) {
  const meta = model.entity(e.name)!
  return {
    name: e.name,
    table_name: meta.table,
    id_type: meta.idType,
    traits: JSON.stringify(e.traits ?? []),
    instance_name: e.instanceName ?? null,
    caption: json(e.caption),
    description: e.description ?? null,
    position,
  }
}

function attributeRows(model: Model, e: EntityDefinition, entityId: unknown) {
  const meta = model.entity(e.name)!
  return e.attributes.map((a, i) => ({
    entity_id: entityId,
    name: a.name,
    column_name: meta.attributes.get(a.name)!.column,
    type: a.type,
    length: a.length ?? null,
    precision: a.precision ?? null,
    scale: a.scale ?? null,
    mandatory: !!a.mandatory,
    is_unique: !!a.unique,
    min_value: a.min === undefined ? null : String(a.min),
    max_value: a.max === undefined ? null : String(a.max),
    pattern: a.pattern ?? null,
    enum_name: a.enum ?? null,
    target: a.target ?? null,
    cardinality: a.cardinality ?? null,
    mapped_by: a.mappedBy ?? null,
    link_table: a.linkTable ?? null,
    on_delete: a.onDelete ?? null,
    transient: !!a.transient,
    read_only: !!a.readOnly,
    caption: json(a.caption),
    description: a.description ?? null,
    position: i,
  }))
}

function indexRows(e: EntityDefinition, entityId: unknown) {
  return (e.indexes ?? []).map((index, i) => ({
    entity_id: entityId,
    name: index.name ?? null,
    attributes: JSON.stringify(index.attributes),
    is_unique: !!index.unique,
    position: i,
  }))
}

async function writeEnumsAndPlans(trx: TransactionClientContract, definition: ModelDefinition) {
  for (const table of ['mg_fetch_plans', 'mg_enum_values', 'mg_enums'])
    await trx.from(table).delete()
  await insertAll(
    trx,
    'mg_enums',
    definition.enums.map((e, position) => ({
      name: e.name,
      caption: json(e.caption),
      description: e.description ?? null,
      position,
    }))
  )
  const enumIds = await idsByName(trx, 'mg_enums')
  await insertAll(
    trx,
    'mg_enum_values',
    definition.enums.flatMap((e) =>
      e.values.map((v, i) => ({
        enum_id: enumIds.get(e.name),
        name: v.name,
        value_id: v.id,
        caption: json(v.caption),
        position: i,
      }))
    )
  )
  await insertAll(
    trx,
    'mg_fetch_plans',
    definition.fetchPlans.map((p, position) => ({
      entity_name: p.entity,
      name: p.name,
      extends: p.extends ?? null,
      properties: JSON.stringify(p.properties),
      position,
    }))
  )
}

/**
 * Brings the model rows to `definition` (normalized). `previous`: the definition the rows hold
 * now (read in the same transaction); entities equal in both keep their rows.
 */
export async function writeModelDefinition(
  trx: TransactionClientContract,
  definition: ModelDefinition,
  previous?: ModelDefinition
) {
  const model = new Model(0, definition)
  await writeEnumsAndPlans(trx, definition)
  const before = new Map((previous?.entities ?? []).map((e) => [e.name, JSON.stringify(e)]))
  const stored = previous
    ? new Map(
        (await trx.from('mg_entities').select('id', 'name', 'position')).map((r) => [r.name, r])
      )
    : new Map()
  if (!previous)
    for (const table of ['mg_indexes', 'mg_attributes', 'mg_entities'])
      await trx.from(table).delete()

  const wanted = new Set(definition.entities.map((e) => e.name))
  const gone = [...stored.values()].filter((r) => !wanted.has(r.name)).map((r) => r.id)
  const changed: EntityDefinition[] = []
  for (const [position, e] of definition.entities.entries()) {
    const row = stored.get(e.name)
    if (row && before.get(e.name) === JSON.stringify(e)) {
      // Unchanged: only its place in the list may have moved.
      if (Number(row.position) !== position)
        await trx.from('mg_entities').where('id', row.id).update({ position })
      continue
    }
    if (row) gone.push(row.id)
    changed.push(e)
  }
  for (let i = 0; i < gone.length; i += 400) {
    const ids = gone.slice(i, i + 400)
    await trx.from('mg_indexes').whereIn('entity_id', ids).delete()
    await trx.from('mg_attributes').whereIn('entity_id', ids).delete()
    await trx.from('mg_entities').whereIn('id', ids).delete()
  }
  const positions = new Map(definition.entities.map((e, i) => [e.name, i]))
  await insertAll(
    trx,
    'mg_entities',
    changed.map((e) => entityRow(model, e, positions.get(e.name)!))
  )
  const ids = changed.length ? await idsByName(trx, 'mg_entities') : new Map()
  await insertAll(
    trx,
    'mg_attributes',
    changed.flatMap((e) => attributeRows(model, e, ids.get(e.name)))
  )
  await insertAll(
    trx,
    'mg_indexes',
    changed.flatMap((e) => indexRows(e, ids.get(e.name)))
  )
}
