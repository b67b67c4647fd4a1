/**
 * Named queries (README "Queries API"): their shape and their table `mg_queries`. A query is a
 * search filter (app/engine/query) over one entity whose string values `:name` stand for typed
 * parameters, with an optional sort, fetch plan, limit and offset.
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

export const PARAM_TYPES = [
  'string',
  'int',
  'long',
  'double',
  'decimal',
  'boolean',
  'date',
  'time',
  'dateTime',
  'uuid',
  'enum',
  'entity',
] as const
export type BaseParamType = (typeof PARAM_TYPES)[number]
/** A declared type: a datatype, or an array of one (`string[]`, bound to `in` / `notIn`). */
export type ParamType = BaseParamType | `${BaseParamType}[]`

/** `X` of `X[]` (and of `X`), and whether the type is an array. */
export function baseType(type: string): { base: string; array: boolean } {
  return type.endsWith('[]')
    ? { base: type.slice(0, -2), array: true }
    : { base: type, array: false }
}

/** Whether `type` is a declarable parameter type. */
export function isParamType(type: string): type is ParamType {
  return (PARAM_TYPES as readonly string[]).includes(baseType(type).base)
}

export interface QueryParam {
  name: string
  type: ParamType
  /** The enum of an `enum` parameter. */
  enum?: string
  /** The entity of an `entity` parameter (its value is an id of that entity). */
  entity?: string
}

export interface NamedQuery {
  entity: string
  name: string
  /** Fetch plan name; default `_base`. */
  fetchPlan?: string
  filter: unknown
  sort?: string
  limit?: number
  offset?: number
  params: QueryParam[]
}

/** The name of the built-in query every entity has (case-insensitive, cannot be defined). */
export const ALL_QUERY = 'all'

/** A query in its canonical form (fixed key order, absent optionals left out): stored, exported. */
export function normalizeQuery(q: Partial<NamedQuery> & { entity: string; name: string }) {
  const query: NamedQuery = {
    entity: q.entity,
    name: q.name,
    ...(q.fetchPlan !== undefined ? { fetchPlan: q.fetchPlan } : {}),
    filter: q.filter ?? { conditions: [] },
    ...(q.sort !== undefined ? { sort: q.sort } : {}),
    ...(q.limit !== undefined ? { limit: q.limit } : {}),
    ...(q.offset !== undefined ? { offset: q.offset } : {}),
    params: (q.params ?? []).map((p) => ({
      name: p.name,
      type: p.type,
      ...(p.enum !== undefined ? { enum: p.enum } : {}),
      ...(p.entity !== undefined ? { entity: p.entity } : {}),
    })),
  }
  return query
}

export const queryKey = (q: { entity: string; name: string }) => `${q.entity}/${q.name}`

function fromRow(row: { entity: string; name: string; definition: string }): NamedQuery {
  return normalizeQuery({ ...JSON.parse(row.definition), entity: row.entity, name: row.name })
}

/** Every stored query, by entity then name. */
export async function loadQueries(client: QueryClientContract): Promise<NamedQuery[]> {
  const rows = await client.from('mg_queries').orderBy('entity').orderBy('name').select('*')
  return rows.map(fromRow)
}

export async function loadEntityQueries(client: QueryClientContract, entity: string) {
  const rows = await client.from('mg_queries').where('entity', entity).orderBy('name').select('*')
  return rows.map(fromRow)
}

export async function findQuery(client: QueryClientContract, entity: string, name: string) {
  const row = await client.from('mg_queries').where({ entity, name }).first()
  return row ? fromRow(row) : null
}

export async function saveQuery(client: QueryClientContract, query: NamedQuery) {
  const { entity, name, ...rest } = normalizeQuery(query)
  const values = { definition: JSON.stringify(rest), updated_at: new Date() }
  const updated = await client.from('mg_queries').where({ entity, name }).update(values)
  const count = Array.isArray(updated) ? Number(updated[0]) : Number(updated)
  if (!count) await client.table('mg_queries').insert({ entity, name, ...values })
}

export async function deleteQuery(client: QueryClientContract, entity: string, name: string) {
  await client.from('mg_queries').where({ entity, name }).delete()
}
