import { describe, expect, it } from 'vitest'
import {
  describeSchema,
  groupOperations,
  requestUrl,
  serverPrefix,
  type OpenApiDoc,
} from './reference'

const doc: OpenApiDoc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  servers: [{ url: 'http://localhost:8080/rest' }],
  tags: [{ name: 'Entities' }, { name: 'bookstore_Book' }],
  paths: {
    '/entities/{entityName}': {
      get: { tags: ['Entities'], operationId: 'a', summary: 'List', responses: {} },
    },
    '/entities/bookstore_Book/{entityId}': {
      get: { tags: ['bookstore_Book'], operationId: 'b', summary: 'Read one', responses: {} },
      delete: { tags: ['bookstore_Book'], operationId: 'c', summary: 'Delete', responses: {} },
    },
  },
}

describe('api reference helpers', () => {
  it('groups operations by tag and filters them', () => {
    expect(groupOperations(doc).map((g) => [g.tag, g.operations.length])).toEqual([
      ['Entities', 1],
      ['bookstore_Book', 2],
    ])
    expect(groupOperations(doc, 'delete').map((g) => g.operations.map((o) => o.method))).toEqual([
      ['delete'],
    ])
  })

  it('describes schemas in one line', () => {
    expect(describeSchema({ $ref: '#/components/schemas/bookstore_Book' })).toBe('bookstore_Book')
    expect(describeSchema({ type: 'array', items: { $ref: '#/components/schemas/x_Y' } })).toBe(
      'x_Y[]'
    )
    expect(describeSchema({ type: 'integer', format: 'int32', minimum: 1, maximum: 5 })).toBe(
      'integer (int32) 1..5'
    )
    expect(describeSchema({ type: 'string', maxLength: 13 })).toBe('string max 13 chars')
  })

  it('builds same-origin request URLs with encoded parameters', () => {
    const params = [
      { name: 'entityId', in: 'path' as const, required: true },
      { name: 'fetchPlan', in: 'query' as const },
      { name: 'limit', in: 'query' as const },
    ]
    expect(serverPrefix(doc)).toBe('/rest')
    expect(
      requestUrl('/rest', '/entities/x/{entityId}', params, { entityId: 'a b', fetchPlan: '_base' })
    ).toBe('/rest/entities/x/a%20b?fetchPlan=_base')
    expect(requestUrl('/rest', '/entities/x/{entityId}', params, {})).toBeNull()
  })
})
