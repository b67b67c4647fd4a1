/**
 * Running named queries (reference 2.8) through DataManager as the caller: the query's filter
 * with the request's parameter values, its sort and fetch plan, the request's limit/offset
 * first, then the query's, then the max fetch size (DataManager answers 400 `The value of limit
 * exceeded` above it). Entity, attribute and row-level permissions apply as in a search.
 */
import type { DataManager, ListOptions } from '../data/data_manager.js'
import { DataError, entityNotFound, fetchPlanNotFound, forbidden } from '../data/errors.js'
import {
  convertValue,
  invalidParameterValue,
  parameterNotFound,
  sessionValues,
  substitute,
} from './params.js'
import {
  ALL_QUERY,
  baseType,
  findQuery,
  loadEntityQueries,
  type NamedQuery,
  type ParamType,
} from './store.js'

const JAVA_TYPES: Record<string, string> = {
  string: 'java.lang.String',
  int: 'java.lang.Integer',
  long: 'java.lang.Long',
  double: 'java.lang.Double',
  decimal: 'java.math.BigDecimal',
  boolean: 'java.lang.Boolean',
  date: 'java.time.LocalDate',
  time: 'java.time.LocalTime',
  dateTime: 'java.time.LocalDateTime',
  uuid: 'java.util.UUID',
}

/** The listing's type: a Java type name, an enum's or an entity's name; `[]` for arrays. */
function javaType(type: ParamType, enumName?: string, entity?: string): string {
  const { base, array } = baseType(type)
  const name = base === 'enum' ? enumName! : base === 'entity' ? entity! : JAVA_TYPES[base]
  return array ? `${name}[]` : name
}

export const queryNotFound = (entity: string, name: string) =>
  new DataError(404, 'Query not found', `Query with name ${name} for entity ${entity} not found`)

function entityOf(data: DataManager, name: string) {
  const entity = data.context.model.entity(name)
  if (!entity) throw entityNotFound(name)
  return entity
}

/** A query as `GET /rest/queries/{entity}` lists it (upstream descriptor, plus `filter`/`sort`). */
export function describeQuery(q: NamedQuery) {
  const plan = q.fetchPlan ?? '_base'
  return {
    name: q.name,
    jpql: null,
    entityName: q.entity,
    viewName: plan,
    fetchPlanName: plan,
    limit: q.limit ?? null,
    offset: q.offset ?? null,
    cacheable: false,
    anonymousAllowed: false,
    params: q.params.map((p) => ({ name: p.name, type: javaType(p.type, p.enum, p.entity) })),
    filter: q.filter,
    sort: q.sort ?? null,
  }
}

/** The stored queries of `entity`; 404 for an unknown entity, 403 without read permission. */
export async function listQueries(data: DataManager, entityName: string) {
  const entity = entityOf(data, entityName)
  if (!data.context.permissions.canRead(entity.name)) throw forbidden('read', entity.name)
  return (await loadEntityQueries(data.context.db.connection(), entity.name)).map(describeQuery)
}

/** The query `name` of `entity` (the built-in `all` in any case); 404, or 403 without read. */
export async function resolveQuery(data: DataManager, entityName: string, name: string) {
  const entity = entityOf(data, entityName)
  // Before the lookup: a caller who may not read the entity learns nothing of its queries.
  if (!data.context.permissions.canRead(entity.name)) throw forbidden('read', entity.name)
  if (name.toLowerCase() === ALL_QUERY) {
    const all: NamedQuery = {
      entity: entity.name,
      name: ALL_QUERY,
      fetchPlan: '_instance_name',
      filter: null,
      params: [],
    }
    return all
  }
  const query = await findQuery(data.context.db.connection(), entity.name, name)
  if (!query) throw queryNotFound(entity.name, name)
  return query
}

/** The query's filter with the request's values (`values`: name -> query-string or body value). */
export function boundFilter(data: DataManager, query: NamedQuery, values: Record<string, unknown>) {
  // Caller parameters first: the request never supplies them (declared ones cannot be named so).
  const bound = new Map<string, unknown>(sessionValues(data.context.subject))
  for (const param of query.params) {
    let raw = Object.hasOwn(values, param.name) ? values[param.name] : undefined
    const array = baseType(param.type).array
    if (!array && Array.isArray(raw) && typeof raw[0] === 'string') raw = raw[0] // repeated in a query string
    if (raw === undefined || raw === null) throw parameterNotFound(param.name)
    const value = convertValue(data.context.model, param, raw)
    if (value === undefined) throw invalidParameterValue(param.name)
    bound.set(param.name, value)
  }
  return query.filter === null ? undefined : substitute(query.filter, bound)
}

/** Runs the query: the page of entities (and the total with `returnCount`). */
export async function runQuery(
  data: DataManager,
  query: NamedQuery,
  values: Record<string, unknown>,
  request: ListOptions
) {
  const filter = boundFilter(data, query, values)
  const plan = request.fetchPlan ?? query.fetchPlan ?? '_base'
  // Named fetch plans only (reference 2.8).
  if (typeof plan !== 'string' || plan.trimStart().startsWith('{'))
    throw fetchPlanNotFound(query.entity, typeof plan === 'string' ? plan : JSON.stringify(plan))
  return data.list(query.entity, {
    filter,
    sort: query.sort,
    fetchPlan: plan,
    returnNulls: request.returnNulls,
    limit: request.limit ?? query.limit,
    offset: request.offset ?? query.offset,
    returnCount: request.returnCount,
  })
}

/** The number of rows the query finds for the caller. */
export function countQuery(data: DataManager, query: NamedQuery, values: Record<string, unknown>) {
  return data.count(query.entity, boundFilter(data, query, values))
}
