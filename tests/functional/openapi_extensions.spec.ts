/**
 * The detailed REST description's per-model extension paths (issue 22, app/openapi/extensions.ts):
 * a path per registered service method (its HTTP methods, a parameter per declared type) and per
 * named query of an entity the caller may read, regenerated when a query changes, still valid
 * and still exactly the routed operations.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { admin, setupAdminActors } from '#tests/helpers/admin'
import {
  assertValidOpenApi,
  demoDocument,
  documentedOperations,
  getDoc,
  matchesRoute,
  routedOperations,
} from '#tests/helpers/openapi'

const DETAILED = '/rest/docs/openapiDetailed.json'
const BOOK_REF = { $ref: '#/components/schemas/bookstore_Book' }

const CHEAP = {
  entity: 'bookstore_Book',
  name: 'cheapInGenres',
  sort: 'price',
  filter: {
    conditions: [
      { property: 'price', operator: '<', value: ':max' },
      { property: 'genre', operator: 'in', value: ':genres' },
    ],
  },
  params: [
    { name: 'max', type: 'decimal' },
    { name: 'genres', type: 'enum[]', enum: 'com.example.bookstore.Genre' },
  ],
}

const param = (op: any, name: string) => op.parameters?.find((p: any) => p.name === name)

test.group('OpenAPI: services and named queries in the detailed document', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await applyDoc(await demoDocument())
  })

  test('every demo service method has its path, HTTP methods and typed parameters', async ({
    assert,
  }) => {
    const reply = await getDoc('admin', DETAILED)
    assert.equal(reply.status, 200)
    await assertValidOpenApi(reply.body)
    const paths = reply.body.paths
    const greet = paths['/services/bookstoreService/greet']
    assert.sameMembers(Object.keys(greet), ['get', 'post'])
    assert.deepInclude(greet.get.parameters, {
      name: 'name',
      in: 'query',
      required: true,
      schema: { type: 'string' },
    })
    assert.deepEqual(greet.post.requestBody.content['application/json'].schema.required, ['name'])
    assert.properties(greet.get.responses, ['200', '204', '400', '401', '403', '404'])

    const addDays = paths['/services/bookstoreService/addDays']
    assert.deepEqual(Object.keys(addDays), ['get'])
    assert.deepEqual(param(addDays.get, 'day').schema, { type: 'string', format: 'date' })
    assert.deepEqual(param(addDays.get, 'days').schema, { type: 'integer', format: 'int32' })

    const echo =
      paths['/services/bookstoreService/echo'].post.requestBody.content['application/json'].schema
    assert.deepEqual(echo.properties.ref, { type: 'string', format: 'uuid' })
    assert.deepEqual(echo.properties.count, { type: 'integer', format: 'int64' })
    assert.deepEqual(echo.properties.when, { type: 'string', format: 'date-time' })

    const genre = param(paths['/services/bookstoreService/booksOfGenre'].get, 'genre').schema
    assert.includeMembers(genre.enum, ['FICTION'])

    const describe = paths['/services/bookstoreService/describeBook']
    assert.deepEqual(Object.keys(describe), ['post'])
    const body = describe.post.requestBody.content['application/json'].schema
    assert.deepEqual(body.properties.book, BOOK_REF)
    // GET passes an entity list as JSON text.
    const tags = param(paths['/services/bookstoreService/countTags'].get, 'tags')
    assert.deepEqual(tags.content['application/json'].schema, {
      type: 'array',
      items: { $ref: '#/components/schemas/bookstore_Tag' },
    })
    const quote =
      paths['/services/bookstoreService/quote'].post.requestBody.content['application/json'].schema
    assert.equal(quote.properties.request.title, 'QuoteRequest')
    assert.isFalse(paths['/services/bookstoreService/ping'].post.requestBody.required)

    // XML: GET only, an optional parameter.
    const low = paths['/services/stockService/lowStock']
    assert.deepEqual(Object.keys(low), ['get'])
    assert.containsSubset(param(low.get, 'threshold'), {
      required: false,
      schema: { type: 'integer' },
    })
    assert.sameMembers(Object.keys(paths['/services/stockService/label']), ['get', 'post'])
  })

  test('a query created through the admin API shows on the next request, typed', async ({
    assert,
  }) => {
    const before = (await getDoc('admin', DETAILED)).body
    assert.notProperty(before.paths, '/queries/bookstore_Book/cheapInGenres')
    const created = await admin('admin', 'POST', 'queries', CHEAP)
    assert.equal(created.status, 201, created.text)

    const doc = (await getDoc('admin', DETAILED)).body
    await assertValidOpenApi(doc)
    const run = doc.paths['/queries/bookstore_Book/cheapInGenres']
    assert.sameMembers(Object.keys(run), ['get', 'post'])
    assert.containsSubset(param(run.get, 'max'), { required: true, schema: { type: 'number' } })
    const genres = param(run.get, 'genres')
    assert.containsSubset(genres, { required: true, style: 'form', explode: true })
    assert.equal(genres.schema.type, 'array')
    assert.includeMembers(genres.schema.items.enum, ['FICTION'])
    assert.isDefined(param(run.get, 'limit'))
    assert.deepEqual(run.get.responses['200'].content['application/json'].schema, {
      type: 'array',
      items: BOOK_REF,
    })
    const post = run.post.requestBody.content['application/json'].schema
    assert.sameMembers(post.required, ['max', 'genres'])
    const count = doc.paths['/queries/bookstore_Book/cheapInGenres/count']
    assert.sameMembers(Object.keys(count), ['get', 'post'])
    assert.isUndefined(param(count.get, 'limit'))
    assert.deepEqual(count.get.responses['200'].content['application/json'].schema, {
      type: 'integer',
      minimum: 0,
    })

    // Changed (a parameter renamed) and deleted: each shows on the next request.
    const changed = await admin('admin', 'PUT', 'queries/bookstore_Book/cheapInGenres', {
      ...CHEAP,
      filter: { conditions: [{ property: 'price', operator: '<', value: ':ceiling' }] },
      params: [{ name: 'ceiling', type: 'decimal' }],
    })
    assert.equal(changed.status, 200, changed.text)
    const after = (await getDoc('admin', DETAILED)).body
    const names = after.paths['/queries/bookstore_Book/cheapInGenres'].get.parameters.map(
      (p: any) => p.name
    )
    assert.include(names, 'ceiling')
    assert.notInclude(names, 'max')
    const removed = await admin('admin', 'DELETE', 'queries/bookstore_Book/cheapInGenres')
    assert.oneOf(removed.status, [200, 204])
    const gone = (await getDoc('admin', DETAILED)).body
    assert.notProperty(gone.paths, '/queries/bookstore_Book/cheapInGenres')
  })

  test('queries of entities the caller may not read are left out', async ({ assert }) => {
    const created = await admin('admin', 'POST', 'queries', { ...CHEAP, name: 'cheapForAll' })
    assert.equal(created.status, 201, created.text)
    const plain = await getDoc('plain', DETAILED)
    assert.equal(plain.status, 200)
    await assertValidOpenApi(plain.body)
    assert.notProperty(plain.body.paths, '/queries/bookstore_Book/cheapForAll')
    assert.notProperty(plain.body.components.schemas, 'bookstore_Book')
    // Services are listed for every caller; an entity parameter it may not read is generic.
    const describe = plain.body.paths['/services/bookstoreService/describeBook']
    const body = describe.post.requestBody.content['application/json'].schema
    assert.deepEqual(body.properties.book, { $ref: '#/components/schemas/entity' })
    const full = (await getDoc('admin', DETAILED)).body
    assert.property(full.paths, '/queries/bookstore_Book/cheapForAll')
  })

  test('with services and queries, the documented paths are still exactly the routed ones', async ({
    assert,
  }) => {
    const doc = (await getDoc('admin', DETAILED)).body
    assert.isAbove(
      Object.keys(doc.paths).filter((p) => p.startsWith('/queries/bookstore')).length,
      0
    )
    // The services and queries areas (other areas: openapi_rest.spec.ts).
    const mine = (ops: Set<string>) =>
      new Set([...ops].filter((op) => / \/(services|queries)(\/|$)/.test(op)))
    const routed = mine(routedOperations('/rest'))
    const general = mine(
      documentedOperations((await getDoc('admin', '/rest/docs/openapi.json')).body)
    )
    const detailed = mine(documentedOperations(doc))
    assert.isAbove(routed.size, 8)
    assert.deepEqual(
      [...routed].filter((op) => !general.has(op) && !detailed.has(op)),
      []
    )
    assert.deepEqual(
      [...general, ...detailed].filter((op) => !matchesRoute(op, routed)),
      []
    )
    const ids = Object.values<any>(doc.paths).flatMap((item) =>
      Object.values<any>(item).map((op) => op.operationId)
    )
    assert.equal(new Set(ids).size, ids.length)
  })
})
