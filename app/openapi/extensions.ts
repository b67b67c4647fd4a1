/**
 * The detailed document's per-model paths of the application developer's extensions: one path
 * per registered service method (`/services/<service>/<method>`, its HTTP methods, a parameter
 * per declared type) and per named query of an entity the caller may read
 * (`/queries/<entity>/<query>` and `/count`, GET with query-string parameters and POST with a
 * JSON body). Listed in DETAILED_SECTIONS (documents.ts).
 */
import type { Model } from '#engine/main'
import type { NamedQuery, QueryParam } from '#engine/queries/store'
import { isSessionParam } from '#engine/queries/params'
import type { ServiceEntry } from '#services/catalogue'
import type { ParamDeclaration, ParamType as ServiceParamType } from '#services/types'
import {
  addOperation,
  errorResponse,
  ok,
  type Json,
  type OpenApiDocument,
  type Schema,
} from './builder.js'
import { LIST_PARAMS } from './general.js'
import { schemaName, type EntityViewer } from './entities.js'

/** What the detailed document describes besides the model: services and stored queries. */
export interface Extensions {
  services: ServiceEntry[]
  queries: NamedQuery[]
}

const GENERIC_ENTITY: Schema = { $ref: '#/components/schemas/entity' }

/** The schema of a datatype value as the services and queries APIs read it. */
export function datatypeValue(type: string): Schema {
  switch (type) {
    case 'string':
      return { type: 'string' }
    case 'int':
      return { type: 'integer', format: 'int32' }
    case 'long':
      return { type: 'integer', format: 'int64' }
    case 'double':
      return { type: 'number', format: 'double' }
    case 'decimal':
      return { type: 'number' }
    case 'boolean':
      return { type: 'boolean' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'time':
      return { type: 'string', format: 'local-time' }
    case 'dateTime':
      return { type: 'string', format: 'date-time' }
    case 'uuid':
      return { type: 'string', format: 'uuid' }
    case 'fileRef':
      return { type: 'string', description: 'A file reference of the files API' }
    default:
      return { type: 'string' }
  }
}

function entityRef(model: Model, viewer: EntityViewer, entity: string): Schema {
  return model.entity(entity) && viewer.canRead(entity)
    ? { $ref: `#/components/schemas/${schemaName(entity)}` }
    : GENERIC_ENTITY
}

function enumValue(model: Model, fqn: string): Schema {
  const values = model.enums.get(fqn)?.values.map((v) => v.name)
  return values?.length
    ? { type: 'string', enum: values, description: `Enum ${fqn}` }
    : { type: 'string', description: `Enum ${fqn}` }
}

/** A service parameter's value; `json`: passed as JSON (GET: as JSON text). */
function serviceValue(
  model: Model,
  viewer: EntityViewer,
  type: ServiceParamType | undefined
): { schema: Schema; json: boolean } {
  if (type === undefined) return { schema: {}, json: false }
  if (typeof type === 'string') return { schema: datatypeValue(type), json: false }
  if ('enum' in type) return { schema: enumValue(model, type.enum), json: false }
  if ('entity' in type) return { schema: entityRef(model, viewer, type.entity), json: true }
  if ('entities' in type) {
    return { schema: { type: 'array', items: entityRef(model, viewer, type.entities) }, json: true }
  }
  const title = type.name ?? 'object'
  return { schema: { type: 'object', title, additionalProperties: true }, json: true }
}

const RESULT: Json = {
  description: 'The result: a simple value as text, anything else as JSON',
  content: {
    'text/plain': { schema: { type: 'string' } },
    'application/json': { schema: { description: 'Entities, collections, structured values' } },
  },
}

function queryParameter(name: string, required: boolean, schema: Schema, json: boolean): Json {
  const base = { name, in: 'query', required }
  if (json) return { ...base, content: { 'application/json': { schema } } }
  if (schema.type === 'array') return { ...base, schema, style: 'form', explode: true }
  return { ...base, schema: Object.keys(schema).length ? schema : { type: 'string' } }
}

function bodyOf(properties: Record<string, Schema>, required: string[]): Schema {
  const body: Schema = { type: 'object', properties, additionalProperties: false }
  if (required.length) body.required = required
  return body
}

/** Marks the request body optional when no parameter is required. */
function optionalBody(doc: OpenApiDocument, path: string, required: string[]) {
  const body = doc.paths[path]?.post?.requestBody as Json | undefined
  if (body && !required.length) body.required = false
}

function addMethod(doc: OpenApiDocument, model: Model, viewer: EntityViewer, entry: ServiceEntry) {
  const seen = new Set<string>()
  for (const method of entry.methods) {
    if (seen.has(method.name)) continue // an overload of the XML: one path per name
    const overloads = entry.methods.filter((m) => m.name === method.name)
    seen.add(method.name)
    const path = `/services/${entry.name}/${encodeURIComponent(method.name)}`
    const params: ParamDeclaration[] = overloads.flatMap((m) => m.params)
    const byName = new Map(params.map((p) => [p.name, p]))
    const required = [...byName.values()]
      .filter((p) =>
        overloads.every((m) => m.params.some((q) => q.name === p.name && q.required !== false))
      )
      .map((p) => p.name)
    const verbs = new Set(overloads.flatMap((m) => m.httpMethods ?? ['GET', 'POST']))
    const summary = `${entry.name}.${method.name}(${[...byName.keys()].join(', ')})`
    const responses = {
      200: RESULT,
      204: ok('No result'),
      400: errorResponse('Invalid parameter value'),
      404: errorResponse('Service method not found'),
    }
    const values = [...byName.values()].map((p) => ({ p, ...serviceValue(model, viewer, p.type) }))
    if (verbs.has('GET')) {
      addOperation(doc, 'get', path, {
        tag: 'Services',
        summary: `${summary}, arguments in the query string`,
        params: values.map(({ p, schema, json }) =>
          queryParameter(p.name, required.includes(p.name), schema, json)
        ),
        responses,
      })
    }
    if (verbs.has('POST')) {
      const properties = Object.fromEntries(values.map(({ p, schema }) => [p.name, schema]))
      addOperation(doc, 'post', path, {
        tag: 'Services',
        summary: `${summary}, arguments as a JSON object`,
        body: bodyOf(properties, required),
        responses,
      })
      optionalBody(doc, path, required)
    }
  }
}

/** One path per registered service method (every caller may call /rest/services). */
export function addServices(
  doc: OpenApiDocument,
  model: Model,
  viewer: EntityViewer,
  ext: Extensions
) {
  const entries = [...ext.services].sort((a, b) => a.name.localeCompare(b.name))
  for (const entry of entries) addMethod(doc, model, viewer, entry)
}

/** A query parameter's value (`X[]`: an array of X). */
function queryValue(model: Model, viewer: EntityViewer, p: QueryParam): Schema {
  const array = p.type.endsWith('[]')
  const type = array ? p.type.slice(0, -2) : p.type
  let schema: Schema
  if (type === 'enum') schema = enumValue(model, p.enum ?? '')
  else if (type === 'entity') {
    const idType = model.entity(p.entity ?? '')?.idType
    schema = {
      ...(idType === 'uuid'
        ? { type: 'string', format: 'uuid' }
        : idType === 'long'
          ? datatypeValue('long')
          : { type: 'string' }),
      description: `An id of ${p.entity ?? ''}`,
    }
    if (!viewer.canRead(p.entity ?? '')) schema.description = 'An entity id'
  } else schema = datatypeValue(type)
  return array ? { type: 'array', items: schema } : schema
}

function addQuery(doc: OpenApiDocument, model: Model, viewer: EntityViewer, q: NamedQuery) {
  const declared = q.params.filter((p) => !isSessionParam(p.name))
  const names = new Set(declared.map((p) => p.name))
  const options = LIST_PARAMS.filter((p) => !names.has(String(p.name)))
  const values = declared.map((p) => ({ name: p.name, schema: queryValue(model, viewer, p) }))
  const required = values.map((v) => v.name)
  const inQuery = values.map((v) => queryParameter(v.name, true, v.schema, false))
  const body = bodyOf(Object.fromEntries(values.map((v) => [v.name, v.schema])), required)
  const one = { $ref: `#/components/schemas/${schemaName(q.entity)}` }
  const base = `/queries/${q.entity}/${encodeURIComponent(q.name)}`
  for (const count of [false, true]) {
    const path = count ? `${base}/count` : base
    const result = count
      ? {
          description: 'The number of instances',
          content: {
            'application/json': { schema: { type: 'integer', minimum: 0 } },
            'text/plain': { schema: { type: 'string', pattern: '^[0-9]+$' } },
          },
        }
      : ok(`${q.entity} instances`, { type: 'array', items: one })
    const responses = {
      200: result,
      400: errorResponse('Query parameter not found, or invalid'),
      404: errorResponse('Query not found'),
    }
    const what = count
      ? `Count ${q.entity} of query ${q.name}`
      : `Run query ${q.name} of ${q.entity}`
    addOperation(doc, 'get', path, {
      tag: 'Queries',
      summary: `${what}, parameters in the query string`,
      params: [...inQuery, ...(count ? [] : options)],
      responses,
    })
    addOperation(doc, 'post', path, {
      tag: 'Queries',
      summary: `${what}, parameters in the body`,
      params: count ? [] : options,
      body,
      responses,
    })
    optionalBody(doc, path, required)
  }
}

/** Two paths per stored query of an entity the caller may read (in the current model). */
export function addQueries(
  doc: OpenApiDocument,
  model: Model,
  viewer: EntityViewer,
  ext: Extensions
) {
  for (const q of ext.queries) {
    if (!model.entity(q.entity) || !viewer.canRead(q.entity)) continue
    addQuery(doc, model, viewer, q)
  }
}
