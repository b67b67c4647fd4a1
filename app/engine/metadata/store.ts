/**
 * Reads the model's system rows (mg_entities, mg_attributes, mg_enums, ...) as a definition;
 * ./store_write.ts writes them.
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type {
  AttributeDefinition,
  EntityDefinition,
  EnumDefinition,
  FetchPlanDefinition,
  ModelDefinition,
} from './types.js'
import { normalizeModel } from './normalize.js'
import { tableNameFor } from './naming.js'
import { dbBoolean } from '#changes/db_values'

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
