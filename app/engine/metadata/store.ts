/**
 * Reads and writes the model's system rows (mg_entities, mg_attributes, mg_enums, ...). The
 * whole model is rewritten inside the caller's transaction whenever it changes, which keeps the
 * rows and the snapshot trivially identical.
 */
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import type {
  AttributeDefinition,
  EntityDefinition,
  EnumDefinition,
  FetchPlanDefinition,
  ModelDefinition,
} from './types.js'
import { normalizeModel } from './normalize.js'
import { tableNameFor } from './naming.js'
import { Model } from './model.js'
import { dbBoolean } from '#changes/db_values'

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v))
const parse = (v: string | null) => (v === null || v === undefined ? undefined : JSON.parse(v))
const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v)
const num = (v: unknown) => (v === null || v === undefined ? undefined : Number(v))

/** Child rows by their parent's id, in their order (one pass, not one filter per parent). */
function byParent(rows: any[], key: string): Map<unknown, any[]> {
  const groups = new Map<unknown, any[]>()
  for (const row of rows) {
    const group = groups.get(row[key])
    if (group) group.push(row)
    else groups.set(row[key], [row])
  }
  return groups
}

export async function loadModelDefinition(client: QueryClientContract): Promise<ModelDefinition> {
  // Sequential on purpose: `client` may be a transaction, i.e. one connection.
  const rows = async (table: string) => client.from(table).orderBy('position').orderBy('id')
  const enumRows = await rows('mg_enums')
  const valueRows = byParent(await rows('mg_enum_values'), 'enum_id')
  const entityRows = await rows('mg_entities')
  const attributeRows = byParent(await rows('mg_attributes'), 'entity_id')
  const indexRows = byParent(await rows('mg_indexes'), 'entity_id')
  const planRows = await rows('mg_fetch_plans')
  const enums: EnumDefinition[] = enumRows.map((e) => ({
    name: e.name,
    caption: parse(e.caption),
    description: opt(e.description),
    values: (valueRows.get(e.id) ?? []).map((v) => ({
      name: v.name,
      id: v.value_id,
      caption: parse(v.caption),
    })),
  }))
  const entities: EntityDefinition[] = entityRows.map((e) => ({
    name: e.name,
    table: e.table_name === tableNameFor(e.name) ? undefined : e.table_name,
    caption: parse(e.caption),
    description: opt(e.description),
    idType: e.id_type,
    traits: parse(e.traits),
    instanceName: opt(e.instance_name),
    attributes: (attributeRows.get(e.id) ?? []).map(attributeFromRow),
    indexes: (indexRows.get(e.id) ?? []).map((i) => ({
      attributes: parse(i.attributes),
      unique: dbBoolean(i.is_unique),
      name: opt(i.name),
    })),
  }))
  const fetchPlans: FetchPlanDefinition[] = planRows.map((p) => ({
    entity: p.entity_name,
    name: p.name,
    extends: opt(p.extends),
    properties: parse(p.properties),
  }))
  return normalizeModel({ enums, entities, fetchPlans })
}

function attributeFromRow(a: any): AttributeDefinition {
  const minMax = (v: string | null) =>
    v === null ? undefined : Number.isNaN(Number(v)) ? v : Number(v)
  return {
    name: a.name,
    type: a.type,
    length: num(a.length),
    precision: num(a.precision),
    scale: num(a.scale),
    mandatory: dbBoolean(a.mandatory),
    unique: dbBoolean(a.is_unique),
    min: minMax(a.min_value),
    max: minMax(a.max_value),
    pattern: opt(a.pattern),
    enum: opt(a.enum_name),
    target: opt(a.target),
    cardinality: opt(a.cardinality),
    mappedBy: opt(a.mapped_by),
    linkTable: opt(a.link_table),
    onDelete: opt(a.on_delete),
    transient: dbBoolean(a.transient),
    readOnly: dbBoolean(a.read_only),
    caption: parse(a.caption),
    description: opt(a.description),
  }
}

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

/**
 * Replaces all model rows with `definition` (normalized). Runs inside the caller's transaction.
 * A few statements per table, whatever the model's size (not one per entity).
 */
export async function writeModelDefinition(
  trx: TransactionClientContract,
  definition: ModelDefinition
) {
  const model = new Model(0, definition)
  for (const table of [
    'mg_fetch_plans',
    'mg_indexes',
    'mg_attributes',
    'mg_entities',
    'mg_enum_values',
    'mg_enums',
  ]) {
    await trx.from(table).delete()
  }
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
    'mg_entities',
    definition.entities.map((e, position) => {
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
    })
  )
  const entityIds = await idsByName(trx, 'mg_entities')
  await insertAll(
    trx,
    'mg_attributes',
    definition.entities.flatMap((e) =>
      e.attributes.map((a, i) => ({
        entity_id: entityIds.get(e.name),
        name: a.name,
        column_name: model.entity(e.name)!.attributes.get(a.name)!.column,
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
    )
  )
  await insertAll(
    trx,
    'mg_indexes',
    definition.entities.flatMap((e) =>
      (e.indexes ?? []).map((index, i) => ({
        entity_id: entityIds.get(e.name),
        name: index.name ?? null,
        attributes: JSON.stringify(index.attributes),
        is_unique: !!index.unique,
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
