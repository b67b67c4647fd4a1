/**
 * The entities part of the detailed description: a component schema per entity the caller may
 * read (named exactly as the entity), with the attributes it may view, and the per-entity
 * paths with the operations it may perform. Values are described as the entities API writes
 * them (app/engine/data/read/values.ts): enums by name, ids as strings, decimals as numbers.
 */
import type { AttributeMeta, EntityMeta, Model } from '#engine/main'
import type { Permissions } from '#security/main'
import {
  addOperation,
  errorResponse,
  ok,
  pathParam,
  ref,
  type OpenApiDocument,
  type Schema,
} from './builder.js'
import { COUNT, FILTER_PARAM, LIST_PARAMS, ONE_PARAMS } from './general.js'

/**
 * The component name of an entity: its name, with `$` (`ref$Country`) written as `.`, since
 * component names allow only `[A-Za-z0-9._-]` (entity names never contain a dot).
 */
export const schemaName = (entity: string) => entity.replaceAll('$', '.')

/** What the caller may see and do (the metadata API's viewer, plus the entity operations). */
export type EntityViewer = Pick<Permissions, 'canRead' | 'canView' | 'canModify' | 'canDo'>

const numberLimits = (a: AttributeMeta): Schema => {
  const out: Schema = {}
  const min = a.definition?.min
  const max = a.definition?.max
  if (min !== undefined && min !== '' && Number.isFinite(Number(min))) out.minimum = Number(min)
  if (max !== undefined && max !== '' && Number.isFinite(Number(max))) out.maximum = Number(max)
  return out
}

/** The JSON schema of a datatype attribute's value. */
function datatypeSchema(model: Model, entity: EntityMeta, a: AttributeMeta): Schema {
  const d = a.definition
  switch (a.datatype) {
    case 'string': {
      const s: Schema = { type: 'string' }
      if (a.name === 'id') return s
      if (d?.length) s.maxLength = d.length
      if (d?.pattern) s.pattern = d.pattern
      return s
    }
    case 'text':
      return d?.pattern ? { type: 'string', pattern: d.pattern } : { type: 'string' }
    case 'uuid':
      return { type: 'string', format: 'uuid' }
    case 'int':
      return { type: 'integer', format: 'int32', ...numberLimits(a) }
    case 'long':
      // Ids are strings in entity JSON (reference 4.1), other longs numbers.
      return a.name === 'id' && entity.idType === 'long'
        ? { type: 'string', pattern: '^-?[0-9]+$' }
        : { type: 'integer', format: 'int64', ...numberLimits(a) }
    case 'double':
      return { type: 'number', format: 'double', ...numberLimits(a) }
    case 'decimal':
      return { type: 'number', ...numberLimits(a) }
    case 'boolean':
      return { type: 'boolean' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'time':
      return { type: 'string', format: 'local-time', description: 'Local time, HH:mm:ss[.SSS]' }
    case 'dateTime':
      return {
        type: 'string',
        format: 'local-date-time',
        description: 'Local date and time without offset, yyyy-MM-ddTHH:mm:ss[.SSS]',
      }
    case 'offsetDateTime':
      return { type: 'string', format: 'date-time' }
    case 'enum': {
      const values = model.enums.get(d?.enum ?? '')?.values.map((v) => v.name) ?? []
      return { type: 'string', enum: values, description: `Enum ${d?.enum ?? ''}` }
    }
    case 'file':
      return { type: 'string', description: 'A file reference of the files API' }
    case 'json':
      return { description: 'Any JSON value' }
    default:
      return { type: 'string' }
  }
}

/** The schema of one attribute, or null when the caller may not see it (or its target). */
function attributeSchema(
  model: Model,
  entity: EntityMeta,
  a: AttributeMeta,
  viewer: EntityViewer
): Schema | null {
  if (a.transient || !viewer.canView(entity.name, a.name)) return null
  let schema: Schema
  if (a.kind === 'datatype') schema = datatypeSchema(model, entity, a)
  else {
    if (!a.target || !model.entity(a.target) || !viewer.canRead(a.target)) return null
    const many = a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY'
    schema = many ? { type: 'array', items: ref(schemaName(a.target)) } : ref(schemaName(a.target))
    if (a.kind === 'composition') schema = { ...schema, description: 'Composition' }
  }
  if (a.system || a.readOnly || !viewer.canModify(entity.name, a.name)) {
    schema = { ...schema, readOnly: true }
  }
  const caption = a.definition?.description
  if (caption && !schema.description) schema.description = caption
  return schema
}

/** The component schema of an entity, as the caller may see it. */
export function entitySchema(model: Model, entity: EntityMeta, viewer: EntityViewer): Schema {
  const properties: Record<string, Schema> = {
    _entityName: { type: 'string', const: entity.name, readOnly: true },
    _instanceName: { type: 'string', readOnly: true },
  }
  const required: string[] = []
  for (const a of entity.attributeList) {
    const schema = attributeSchema(model, entity, a, viewer)
    if (!schema) continue
    properties[a.name] = schema
    if (a.mandatory) required.push(a.name)
  }
  const out: Schema = { type: 'object', title: entity.name, properties }
  if (entity.definition.description) out.description = entity.definition.description
  if (required.length) out.required = required
  return out
}

/** Per-entity paths, with only the operations the caller may perform. */
function entityPaths(doc: OpenApiDocument, entity: EntityMeta, viewer: EntityViewer) {
  const name = entity.name
  const tag = name
  const one = ref(schemaName(name))
  const list: Schema = { type: 'array', items: one }
  const base = `/entities/${name}`
  const id = pathParam('entityId', `The ${name} id`)
  const notFound = errorResponse('Not found')
  const can = (op: 'create' | 'update' | 'delete') => viewer.canDo(name, op)
  addOperation(doc, 'get', base, {
    tag,
    summary: `List ${name}`,
    params: LIST_PARAMS,
    responses: { 200: ok(`${name} instances`, list) },
  })
  if (can('create')) {
    addOperation(doc, 'post', base, {
      tag,
      summary: `Create ${name}`,
      body: { oneOf: [one, list] },
      responses: { 201: ok('Created', { oneOf: [one, list] }), 400: errorResponse('Invalid') },
    })
  }
  addOperation(doc, 'get', `${base}/{entityId}`, {
    tag,
    summary: `Read one ${name}`,
    params: [id, ...ONE_PARAMS],
    responses: { 200: ok(name, one), 404: notFound },
  })
  if (can('update')) {
    addOperation(doc, 'put', `${base}/{entityId}`, {
      tag,
      summary: `Update one ${name}`,
      params: [id],
      body: one,
      responses: { 200: ok('Updated', one), 400: errorResponse('Invalid'), 404: notFound },
    })
  }
  if (can('delete')) {
    addOperation(doc, 'delete', `${base}/{entityId}`, {
      tag,
      summary: `Delete one ${name}`,
      params: [id],
      responses: { 204: ok('Deleted'), 404: notFound },
    })
  }
  for (const [suffix, schema] of [
    ['search', list],
    ['search/count', COUNT],
  ] as const) {
    const params = suffix === 'search' ? [FILTER_PARAM, ...LIST_PARAMS] : [FILTER_PARAM]
    addOperation(doc, 'get', `${base}/${suffix}`, {
      tag,
      summary: `${suffix === 'search' ? 'Search' : 'Count'} ${name}`,
      params,
      responses: { 200: ok(suffix, schema), 400: errorResponse('Invalid filter') },
    })
  }
}

/** Adds every entity the caller may read: its tag, component schema and paths. */
export function addEntities(doc: OpenApiDocument, model: Model, viewer: EntityViewer) {
  const names = [...model.entities.keys()].sort()
  for (const name of names) {
    const entity = model.entity(name)!
    if (!viewer.canRead(name)) continue
    doc.tags.push({ name, description: `${name}: entity CRUD operations` })
    doc.components.schemas[schemaName(name)] = entitySchema(model, entity, viewer)
    entityPaths(doc, entity, viewer)
  }
}
