/**
 * `/rest/reports/docs/openapi.(json|yaml)`: the Reports API's own OpenAPI 3.1 description
 * (upstream serves a static one for the add-on, reference 12), with our OAuth 2.1 endpoints.
 */
import { stringify } from 'yaml'

const error = { $ref: '#/components/schemas/error' }
const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((c) => [
      String(c),
      { description: String(c), content: { 'application/json': { schema: error } } },
    ])
  )
const idParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
})

const DOCUMENT_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/pdf',
  'text/html',
  'application/csv',
  'application/json',
]

const run = (summary: string, param: Record<string, unknown>) => ({
  post: {
    tags: ['Reports'],
    summary,
    parameters: [param],
    requestBody: {
      required: false,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/runBody' } } },
    },
    responses: {
      '200': {
        description: 'The document; Content-Disposition names it',
        content: Object.fromEntries(
          DOCUMENT_TYPES.map((t) => [t, { schema: { type: 'string', format: 'binary' } }])
        ),
      },
      ...errors(400, 401, 403, 404, 413, 500, 503),
    },
  },
})

function document(base: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Modelgate Reports REST API',
      version: '1.0',
      description: 'Reports flagged "Available through REST API"',
    },
    servers: [{ url: `${base}/rest/reports` }],
    security: [{ oauth2: [] }, { bearer: [] }],
    tags: [{ name: 'Reports' }],
    paths: {
      '/report': {
        get: {
          tags: ['Reports'],
          summary: 'Reports the caller may run',
          responses: {
            '200': {
              description: 'Reports',
              content: {
                'application/json': {
                  schema: { type: 'array', items: { $ref: '#/components/schemas/reportSummary' } },
                },
              },
            },
            ...errors(401, 403),
          },
        },
      },
      '/report/{id}': {
        get: {
          tags: ['Reports'],
          summary: 'A report with its templates and input parameters',
          parameters: [idParam('id', 'Report id (UUID)')],
          responses: {
            '200': {
              description: 'The report',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/report' } } },
            },
            ...errors(400, 401, 403, 404),
          },
        },
      },
      '/run/{id}': run('Runs a report', idParam('id', 'Report id (UUID)')),
      '/run/code/{code}': run('Runs a report by its code', idParam('code', 'Report code')),
      '/group/{id}': {
        get: {
          tags: ['Reports'],
          summary: 'A report group',
          parameters: [idParam('id', 'Group id (UUID)')],
          responses: {
            '200': {
              description: 'The group',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/group' } } },
            },
            ...errors(401, 403, 404),
          },
        },
      },
      '/docs/openapi.json': {
        get: {
          tags: ['Reports'],
          summary: 'This document (JSON)',
          responses: {
            '200': {
              description: 'OpenAPI',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
      '/docs/openapi.yaml': {
        get: {
          tags: ['Reports'],
          summary: 'This document (YAML)',
          responses: {
            '200': {
              description: 'OpenAPI',
              content: { 'application/yaml': { schema: { type: 'string' } } },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: { tokenUrl: `${base}/oauth2/token`, scopes: {} },
            authorizationCode: {
              authorizationUrl: `${base}/oauth2/authorize`,
              tokenUrl: `${base}/oauth2/token`,
              refreshUrl: `${base}/oauth2/token`,
              scopes: {},
            },
          },
        },
        bearer: { type: 'http', scheme: 'bearer' },
      },
      schemas: {
        error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'string' }, details: { type: 'string' } },
        },
        reportSummary: {
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            name: { type: 'string' },
            code: { type: 'string' },
            group: { type: 'string', format: 'uuid' },
          },
        },
        report: {
          allOf: [
            { $ref: '#/components/schemas/reportSummary' },
            {
              type: 'object',
              properties: {
                templates: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      code: { type: 'string' },
                      outputType: { type: 'string' },
                      default: { type: 'boolean' },
                    },
                  },
                },
                inputParameters: {
                  type: 'array',
                  items: { $ref: '#/components/schemas/inputParameter' },
                },
              },
            },
          ],
        },
        inputParameter: {
          type: 'object',
          required: ['name', 'alias', 'type', 'required', 'hidden'],
          properties: {
            name: { type: 'string' },
            alias: { type: 'string' },
            type: {
              type: 'string',
              enum: [
                'DATE',
                'TEXT',
                'ENTITY',
                'BOOLEAN',
                'NUMERIC',
                'ENTITY_LIST',
                'ENUMERATION',
                'DATETIME',
                'TIME',
              ],
            },
            required: { type: 'boolean' },
            hidden: { type: 'boolean' },
            entityMetaClass: { type: 'string' },
            enumerationClass: { type: 'string' },
            defaultValue: { type: 'string' },
          },
        },
        group: {
          type: 'object',
          required: ['id', 'title'],
          properties: {
            id: { type: 'string', format: 'uuid' },
            title: { type: 'string' },
            code: { type: 'string' },
          },
        },
        runBody: {
          type: 'object',
          properties: {
            template: {
              type: 'string',
              description: 'Template code; absent: the default template',
            },
            attachment: {
              type: 'boolean',
              description: 'Content-Disposition attachment instead of inline',
            },
            parameters: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string' },
                  value: { type: 'string' },
                  values: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
  }
}

export function reportsOpenApi(base: string, format: 'json' | 'yaml') {
  const doc = document(base.replace(/\/$/, ''))
  return format === 'json' ? JSON.stringify(doc, null, 2) : stringify(doc)
}
