/**
 * The admin API's own description (`/admin/api/openapi.json|yaml`): every route of
 * start/routes/admin*.ts, one line each (tests/functional/openapi_admin.spec.ts proves the table
 * and the router agree). A new admin route is one more line here.
 */
import {
  addOperation,
  errorResponse,
  ok,
  pathParam,
  type Method,
  type OpenApiDocument,
  type Schema,
} from './builder.js'

type Route = readonly [Method, string, string]

const OBJECT: Schema = { type: 'object', additionalProperties: true }
/** Actions that read no body. */
const BODILESS = /\/(?:activate|deactivate|secret|revoke-tokens)$/

export const ADMIN_ROUTES: Record<string, readonly Route[]> = {
  Definition: [
    ['get', '/definition', 'The whole application definition (ETag: its version)'],
    ['post', '/definition/plan', 'Plan importing a definition (dry run)'],
    ['post', '/definition/apply', 'Apply a definition'],
  ],
  Model: [
    ['get', '/entities', 'List entities'],
    ['post', '/entities', 'Create an entity'],
    ['get', '/entities/{name}', 'One entity'],
    ['put', '/entities/{name}', 'Replace an entity'],
    ['delete', '/entities/{name}', 'Delete an entity'],
    ['post', '/entities/{name}/attributes', 'Add an attribute'],
    ['put', '/entities/{name}/attributes/{attribute}', 'Replace an attribute'],
    ['delete', '/entities/{name}/attributes/{attribute}', 'Delete an attribute'],
    ['put', '/entities/{name}/indexes', 'Replace the indexes'],
    ['get', '/enums', 'List enums'],
    ['post', '/enums', 'Create an enum'],
    ['get', '/enums/{name}', 'One enum'],
    ['put', '/enums/{name}', 'Replace an enum'],
    ['delete', '/enums/{name}', 'Delete an enum'],
    ['get', '/fetch-plans', 'List fetch plans'],
    ['post', '/fetch-plans', 'Create a fetch plan'],
    ['get', '/fetch-plans/{entity}/{name}', 'One fetch plan'],
    ['put', '/fetch-plans/{entity}/{name}', 'Replace a fetch plan'],
    ['delete', '/fetch-plans/{entity}/{name}', 'Delete a fetch plan'],
    ['get', '/queries', 'List named queries'],
    ['post', '/queries', 'Create a named query'],
    ['get', '/queries/{entity}/{name}', 'One named query'],
    ['put', '/queries/{entity}/{name}', 'Replace a named query'],
    ['delete', '/queries/{entity}/{name}', 'Delete a named query'],
  ],
  Security: ['resource-roles', 'row-level-roles'].flatMap((kind): Route[] => [
    ['get', `/${kind}`, `List ${kind}`],
    ['post', `/${kind}`, `Create a ${kind.slice(0, -1)}`],
    ['get', `/${kind}/{code}`, `One ${kind.slice(0, -1)}`],
    ['put', `/${kind}/{code}`, `Replace a ${kind.slice(0, -1)}`],
    ['delete', `/${kind}/{code}`, `Delete a ${kind.slice(0, -1)}`],
    ['post', `/${kind}/{code}/copy`, `Copy a ${kind.slice(0, -1)}`],
  ]),
  Accounts: [
    ['get', '/users', 'List users'],
    ['post', '/users', 'Create a user'],
    ['get', '/users/{username}', 'One user'],
    ['patch', '/users/{username}', 'Change a user'],
    ['post', '/users/{username}/deactivate', 'Deactivate a user'],
    ['post', '/users/{username}/activate', 'Activate a user'],
    ['post', '/users/{username}/password', "Set a user's password"],
    ['put', '/users/{username}/roles', "Replace a user's roles"],
  ],
  Clients: [
    ['get', '/clients', 'List OAuth clients'],
    ['post', '/clients', 'Register a client (its secret is shown once)'],
    ['get', '/clients/{clientId}', 'One client'],
    ['put', '/clients/{clientId}', 'Replace a client'],
    ['delete', '/clients/{clientId}', 'Delete a client'],
    ['post', '/clients/{clientId}/secret', "Rotate a client's secret"],
    ['post', '/clients/{clientId}/revoke-tokens', "Revoke a client's tokens"],
  ],
  Settings: [
    ['get', '/settings', 'List settings'],
    ['get', '/settings/{name}', 'One setting'],
    ['put', '/settings/{name}', 'Set a setting'],
    ['delete', '/settings/{name}', 'Reset a setting'],
    ['get', '/url-test', 'The URL patterns in force'],
    ['post', '/url-test', 'Test which pattern a URL matches'],
    ['get', '/messages', 'Locales with translations'],
    ['get', '/messages/{locale}', 'Translations of a locale'],
    ['put', '/messages/{locale}', 'Replace the translations of a locale'],
  ],
  Reports: [
    ['get', '/reports', 'List reports and groups'],
    ['post', '/reports', 'Create a report'],
    ['get', '/reports/executions', 'The report execution history'],
    ['get', '/reports/{id}', 'One report'],
    ['put', '/reports/{id}', 'Replace a report'],
    ['patch', '/reports/{id}', 'Change top-level keys of a report (the REST flag)'],
    ['delete', '/reports/{id}', 'Delete a report'],
    ['get', '/reports/{id}/templates/{code}/file', 'Download a template file'],
    ['put', '/reports/{id}/templates/{code}/file', 'Upload a template file (raw bytes)'],
    ['post', '/reports/{id}/preview', "Preview a band's rows"],
    ['post', '/reports/{id}/run', 'Run a report as the admin'],
  ],
  History: [
    ['get', '/changelog', 'The schema changelog'],
    ['get', '/audit', 'The audit trail'],
    ['get', '/audit/{id}', 'One audit entry'],
  ],
  Inspect: [
    ['get', '/permissions', 'Effective permissions of a user or client'],
    ['get', '/row-preview', 'Rows a user or client may read'],
    ['post', '/row-preview', 'Rows a user or client may read (draft roles in the body)'],
  ],
  Documentation: [
    ['get', '/openapi.json', 'This description, JSON'],
    ['get', '/openapi.yaml', 'This description, YAML'],
  ],
}

export function buildAdmin(): OpenApiDocument {
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Modelgate admin API',
      version: '1.0',
      description: 'Configure the application at runtime (a token with the admin.api policy)',
    },
    tags: [],
    paths: {},
    components: {
      schemas: {
        error: {
          type: 'object',
          properties: { error: { type: 'string' }, details: {} },
          required: ['error'],
        },
      },
    },
  }
  for (const [tag, routes] of Object.entries(ADMIN_ROUTES)) {
    doc.tags.push({ name: tag, description: `${tag} administration` })
    for (const [method, path, summary] of routes) {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => pathParam(m[1], m[1]))
      const write = method !== 'get' && method !== 'delete'
      const type = path.endsWith('.yaml') ? 'application/yaml' : 'application/json'
      addOperation(doc, method, path, {
        tag,
        summary,
        params,
        body: write && !BODILESS.test(path) ? OBJECT : undefined,
        responses: {
          200: ok(summary, OBJECT, type),
          400: errorResponse('Invalid request'),
          404: errorResponse('Not found'),
        },
      })
    }
  }
  return doc
}
