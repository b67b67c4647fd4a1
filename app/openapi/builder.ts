/**
 * Small builders of OpenAPI 3.1 pieces shared by the documents of this wing: operations with
 * their standard error answers, parameters, references, the `{error, details}` schema.
 */

export type Json = Record<string, unknown>
export type Schema = Json

/** An OpenAPI document as this wing builds it (paths keyed by path, then by method). */
export interface OpenApiDocument {
  openapi: '3.1.0'
  info: Json
  servers?: Json[]
  security?: Json[]
  tags: { name: string; description: string }[]
  paths: Record<string, Record<string, Json>>
  components: { schemas: Record<string, Schema>; securitySchemes?: Json; parameters?: Json }
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

/** `{error, details}`: every error answer of the REST and admin APIs. */
export const ERROR_SCHEMA: Schema = {
  type: 'object',
  properties: { error: { type: 'string' }, details: { type: 'string' } },
  required: ['error'],
}

export const errorResponse = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: ref('error') } },
})

export const jsonContent = (schema: Schema): Json => ({ 'application/json': { schema } })

export const ok = (description: string, schema?: Schema, contentType = 'application/json') =>
  schema ? { description, content: { [contentType]: { schema } } } : { description }

export function pathParam(name: string, description: string): Json {
  return { name, in: 'path', required: true, description, schema: { type: 'string' } }
}

export function queryParam(name: string, description: string, schema: Schema = {}): Json {
  return { name, in: 'query', required: false, description, schema: { type: 'string', ...schema } }
}

/** A stable, unique operationId from the method and the path (`get_entities_entityName`). */
export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/[{}]/g, '').replace(/[^A-Za-z0-9_]/g, '_'))
  return [method, ...words].join('_')
}

export interface OperationSpec {
  tag: string
  summary: string
  params?: Json[]
  body?: Schema
  /** Content types of the body; JSON when absent. */
  bodyContent?: Json
  responses: Record<string, Json>
  deprecated?: boolean
  /** The operation has no security requirement (never used by the REST API today). */
  open?: boolean
}

/** Adds one operation; 401 (and 403 unless given) are added to every protected operation. */
export function addOperation(
  doc: OpenApiDocument,
  method: Method,
  path: string,
  op: OperationSpec
) {
  const responses: Record<string, Json> = { ...op.responses }
  if (!op.open) {
    responses['401'] ??= errorResponse('No valid access token')
    responses['403'] ??= errorResponse('The caller lacks the permission')
  }
  const operation: Json = {
    tags: [op.tag],
    summary: op.summary,
    operationId: operationId(method, path),
    responses,
  }
  if (op.params?.length) operation.parameters = op.params
  if (op.body || op.bodyContent) {
    operation.requestBody = { required: true, content: op.bodyContent ?? jsonContent(op.body!) }
  }
  if (op.deprecated) operation.deprecated = true
  if (op.open) operation.security = []
  doc.paths[path] ??= {}
  doc.paths[path][method] = operation
}

/** The security schemes of the REST and admin documents: OAuth 2.1 on our endpoints, bearer. */
export function securitySchemes(base: string): Json {
  const tokenUrl = `${base}/oauth2/token`
  return {
    oauth2: {
      type: 'oauth2',
      description: 'OAuth 2.1: client credentials, or authorization code with PKCE',
      flows: {
        clientCredentials: { tokenUrl, scopes: {} },
        authorizationCode: { authorizationUrl: `${base}/oauth2/authorize`, tokenUrl, scopes: {} },
      },
    },
    bearer: { type: 'http', scheme: 'bearer', description: 'An access token of /oauth2/token' },
  }
}

export const SECURITY = [{ oauth2: [] }, { bearer: [] }]

/** A new, empty document. */
export function newDocument(title: string, version: string, description: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title, version, description },
    tags: [],
    paths: {},
    components: { schemas: { error: ERROR_SCHEMA } },
  }
}

/**
 * The document as served: the cached one with the server URL and the security schemes of
 * `base` (the configured base URL or the request's origin). `prefix` is the API's path.
 */
export function forServer(doc: OpenApiDocument, base: string, prefix: string): OpenApiDocument {
  return {
    openapi: doc.openapi,
    info: doc.info,
    servers: [{ url: `${base}${prefix}` }],
    security: SECURITY,
    tags: doc.tags,
    paths: doc.paths,
    components: { ...doc.components, securitySchemes: securitySchemes(base) },
  }
}
