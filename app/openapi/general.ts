/**
 * The general description of the REST API (`/rest/docs/openapi.*`, spec 4.1): every route the
 * server has under /rest, with generic `{entityName}` placeholders. One function per API area,
 * listed in GENERAL_AREAS (documents.ts).
 */
import {
  addOperation,
  errorResponse,
  ok,
  pathParam,
  queryParam,
  type OpenApiDocument,
  type Schema,
} from './builder.js'

const ENTITY: Schema = {
  type: 'object',
  description: 'An entity instance (`_entityName`, `_instanceName`, `id` and its attributes)',
  properties: { _entityName: { type: 'string' }, _instanceName: { type: 'string' } },
  additionalProperties: true,
}
const ENTITIES: Schema = { type: 'array', items: { $ref: '#/components/schemas/entity' } }
const ANY_OBJECT: Schema = { type: 'object', additionalProperties: true }
const ANY_ARRAY: Schema = { type: 'array', items: ANY_OBJECT }
const TEXT_MAP: Schema = { type: 'object', additionalProperties: { type: 'string' } }

export const entityName = pathParam('entityName', 'The entity name, e.g. `bookstore_Book`')
export const entityId = pathParam('entityId', 'The instance id')
const fetchPlan = queryParam('fetchPlan', 'A named fetch plan, or an inline one as JSON')
const returnNulls = queryParam('returnNulls', 'Include null attributes', { type: 'boolean' })
/** Paging, sorting and count parameters of the list and search endpoints. */
export const LIST_PARAMS = [
  fetchPlan,
  queryParam('limit', 'Maximum number of instances', { type: 'integer', minimum: 0 }),
  queryParam('offset', 'Instances to skip', { type: 'integer', minimum: 0 }),
  queryParam('sort', 'Attributes to sort by; `-` before one sorts descending'),
  returnNulls,
  queryParam('returnCount', 'Add the `X-Total-Count` header', { type: 'boolean' }),
]
export const FILTER_PARAM = queryParam('filter', 'The filter as JSON (conditions)')
export const ONE_PARAMS = [fetchPlan, returnNulls]
const SEARCH_BODY: Schema = {
  type: 'object',
  properties: {
    filter: ANY_OBJECT,
    fetchPlan: {},
    limit: { type: 'integer' },
    offset: { type: 'integer' },
    sort: { type: 'string' },
    returnNulls: { type: 'boolean' },
    returnCount: { type: 'boolean' },
  },
}
export const COUNT: Schema = { type: 'integer', minimum: 0 }
const notFound = errorResponse('The entity or instance does not exist')

export function entities(doc: OpenApiDocument) {
  doc.components.schemas.entity = ENTITY
  const tag = 'Entities'
  const base = '/entities/{entityName}'
  addOperation(doc, 'get', base, {
    tag,
    summary: 'List instances',
    params: [entityName, ...LIST_PARAMS],
    responses: { 200: ok('The instances', ENTITIES), 404: notFound },
  })
  addOperation(doc, 'post', base, {
    tag,
    summary: 'Create one instance (object) or several (array)',
    params: [entityName],
    body: { oneOf: [ENTITY, ENTITIES] },
    responses: { 201: ok('The created instance(s)', ANY_OBJECT), 400: errorResponse('Invalid') },
  })
  addOperation(doc, 'put', base, {
    tag,
    summary: 'Update several instances (array with ids)',
    params: [entityName],
    body: ENTITIES,
    responses: { 200: ok('The updated instances', ENTITIES), 404: notFound },
  })
  addOperation(doc, 'delete', base, {
    tag,
    summary: 'Delete several instances (array of ids or objects)',
    params: [entityName],
    body: ANY_ARRAY,
    responses: { 204: ok('Deleted'), 404: notFound },
  })
  const one = `${base}/{entityId}`
  addOperation(doc, 'get', one, {
    tag,
    summary: 'Read one instance',
    params: [entityName, entityId, ...ONE_PARAMS],
    responses: { 200: ok('The instance', ENTITY), 404: notFound },
  })
  addOperation(doc, 'put', one, {
    tag,
    summary: 'Update one instance',
    params: [entityName, entityId],
    body: ENTITY,
    responses: { 200: ok('The updated instance', ENTITY), 404: notFound },
  })
  addOperation(doc, 'delete', one, {
    tag,
    summary: 'Delete one instance',
    params: [entityName, entityId],
    responses: { 204: ok('Deleted'), 404: notFound },
  })
  for (const [suffix, what, schema] of [
    ['search', 'Search instances', ENTITIES],
    ['search/count', 'Count instances', COUNT],
  ] as const) {
    const path = `${base}/${suffix}`
    const params = suffix === 'search' ? LIST_PARAMS : []
    addOperation(doc, 'get', path, {
      tag,
      summary: `${what} with a filter in the query string`,
      params: [entityName, FILTER_PARAM, ...params],
      responses: { 200: ok(what, schema), 400: errorResponse('Invalid filter'), 404: notFound },
    })
    addOperation(doc, 'post', path, {
      tag,
      summary: `${what} with a filter in the body`,
      params: [entityName],
      body: SEARCH_BODY,
      responses: { 200: ok(what, schema), 400: errorResponse('Invalid filter'), 404: notFound },
    })
  }
}

export function files(doc: OpenApiDocument) {
  const tag = 'Files'
  addOperation(doc, 'post', '/files', {
    tag,
    summary: 'Upload a file (multipart `file` part, or the raw body with `name`)',
    params: [queryParam('name', 'File name (raw body)'), queryParam('storageName', 'Storage')],
    bodyContent: {
      'multipart/form-data': {
        schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
      },
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
    },
    responses: {
      201: ok('The file reference', {
        type: 'object',
        properties: { fileRef: { type: 'string' }, name: { type: 'string' } },
      }),
      400: errorResponse('Invalid upload'),
    },
  })
  addOperation(doc, 'get', '/files', {
    tag,
    summary: 'Download a file',
    params: [
      { ...queryParam('fileRef', 'The file reference'), required: true },
      queryParam('attachment', 'Content-Disposition attachment', { type: 'boolean' }),
    ],
    responses: {
      200: ok('The content', { type: 'string', format: 'binary' }, 'application/octet-stream'),
      404: errorResponse('No such file'),
    },
  })
}

export function metadata(doc: OpenApiDocument) {
  const tag = 'Metadata'
  const get = (path: string, summary: string, deprecated = false) =>
    addOperation(doc, 'get', path, {
      tag,
      summary,
      deprecated,
      params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => pathParam(m[1], m[1])),
      responses: { 200: ok(summary, ANY_OBJECT), 404: errorResponse('Not found') },
    })
  get('/metadata/entities', 'Metadata of every entity')
  get('/metadata/entities/{entityName}', 'Metadata of one entity')
  for (const plans of ['fetchPlans', 'views']) {
    const old = plans === 'views'
    get(`/metadata/entities/{entityName}/${plans}`, 'Fetch plans of one entity', old)
    get(`/metadata/entities/{entityName}/${plans}/{fetchPlanName}`, 'One fetch plan', old)
  }
  get('/metadata/enums', 'Every enum')
  get('/metadata/enums/{enumClassName}', 'One enum')
  get('/metadata/datatypes', 'Every datatype')
}

export function messages(doc: OpenApiDocument) {
  const tag = 'Messages'
  for (const [path, summary] of [
    ['/messages/entities', 'Captions of every entity and attribute'],
    ['/messages/entities/{entityName}', 'Captions of one entity'],
    ['/messages/enums', 'Captions of every enum value'],
    ['/messages/enums/{enumClassName}', 'Captions of one enum'],
  ]) {
    addOperation(doc, 'get', path, {
      tag,
      summary,
      params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => pathParam(m[1], m[1])),
      responses: { 200: ok(summary, TEXT_MAP), 404: errorResponse('Not found') },
    })
  }
}

export function userSession(doc: OpenApiDocument) {
  const tag = 'User Session'
  addOperation(doc, 'get', '/userInfo', {
    tag,
    summary: 'The caller',
    responses: { 200: ok('The user', ANY_OBJECT) },
  })
  addOperation(doc, 'get', '/permissions', {
    tag,
    summary: "The caller's permissions",
    responses: { 200: ok('Permissions', ANY_OBJECT) },
  })
  addOperation(doc, 'get', '/capabilities', {
    tag,
    summary: 'Optional features of this server',
    responses: { 200: ok('Capabilities', ANY_OBJECT) },
  })
  addOperation(doc, 'get', '/version', {
    tag,
    summary: 'Product version',
    responses: { 200: ok('Version', { type: 'string' }, 'text/plain') },
  })
  addOperation(doc, 'put', '/user-session/locale', {
    tag,
    summary: "Set the session's locale (from Accept-Language)",
    responses: { 200: ok('Set') },
  })
}

export function documentation(doc: OpenApiDocument) {
  for (const name of ['openapi', 'openapiDetailed']) {
    for (const [ext, type] of [
      ['json', 'application/json'],
      ['yaml', 'application/yaml'],
    ]) {
      addOperation(doc, 'get', `/docs/${name}.${ext}`, {
        tag: 'Documentation',
        summary: name === 'openapi' ? 'This description' : 'The detailed description',
        responses: { 200: ok('OpenAPI 3.1 document', { type: 'object' }, type) },
      })
    }
  }
}
