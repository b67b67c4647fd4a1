/**
 * The Services and Queries areas of the general description (generic placeholders). What the
 * detailed description adds per registered service method and named query belongs in a
 * DetailedSection (documents.ts).
 */
import {
  addOperation,
  errorResponse,
  ok,
  pathParam,
  type OpenApiDocument,
  type Schema,
} from './builder.js'
import { LIST_PARAMS } from './general.js'

const ANY_OBJECT: Schema = { type: 'object', additionalProperties: true }
const ANY: Schema = { description: 'The result: any JSON value (entities, a value, nothing)' }
const service = pathParam('serviceName', 'The service name')
const method = pathParam('methodName', 'The method name')
const entity = pathParam('entityName', 'The entity name')
const query = pathParam('queryName', 'The query name')
const notFound = errorResponse('Not found')

export function services(doc: OpenApiDocument) {
  const tag = 'Services'
  addOperation(doc, 'get', '/services', {
    tag,
    summary: 'Every service the caller may invoke',
    responses: { 200: ok('Services', { type: 'array', items: ANY_OBJECT }) },
  })
  addOperation(doc, 'get', '/services/{serviceName}', {
    tag,
    summary: 'One service with its methods',
    params: [service],
    responses: { 200: ok('The service', ANY_OBJECT), 404: notFound },
  })
  addOperation(doc, 'get', '/services/{serviceName}/{methodName}', {
    tag,
    summary: 'Invoke a method, arguments in the query string',
    params: [service, method],
    responses: { 200: ok('The result', ANY), 204: ok('No result'), 404: notFound },
  })
  addOperation(doc, 'post', '/services/{serviceName}/{methodName}', {
    tag,
    summary: 'Invoke a method, arguments as a JSON object',
    params: [service, method],
    body: ANY_OBJECT,
    responses: { 200: ok('The result', ANY), 204: ok('No result'), 404: notFound },
  })
}

export function queries(doc: OpenApiDocument) {
  const tag = 'Queries'
  addOperation(doc, 'get', '/queries/{entityName}', {
    tag,
    summary: 'The named queries of an entity',
    params: [entity],
    responses: { 200: ok('Queries', { type: 'array', items: ANY_OBJECT }), 404: notFound },
  })
  for (const count of [false, true]) {
    const path = `/queries/{entityName}/{queryName}${count ? '/count' : ''}`
    const result = count
      ? ok('The count', { type: 'integer', minimum: 0 })
      : ok('The instances', { type: 'array', items: { $ref: '#/components/schemas/entity' } })
    addOperation(doc, 'get', path, {
      tag,
      summary: count ? 'Count what a query returns' : 'Run a query, parameters in the query string',
      params: [entity, query, ...(count ? [] : LIST_PARAMS)],
      responses: { 200: result, 400: errorResponse('Invalid parameters'), 404: notFound },
    })
    addOperation(doc, 'post', path, {
      tag,
      summary: count ? 'Count what a query returns' : 'Run a query, parameters in the body',
      params: [entity, query, ...(count ? [] : LIST_PARAMS)],
      body: ANY_OBJECT,
      responses: { 200: result, 400: errorResponse('Invalid parameters'), 404: notFound },
    })
  }
}
