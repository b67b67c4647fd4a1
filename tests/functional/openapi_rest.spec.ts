/**
 * The generated REST descriptions (spec 4.1, 5.6; app/openapi): valid OpenAPI 3.1, every /rest
 * route documented and nothing else, per-caller entity schemas with the model's constraints,
 * regenerated after a model change, YAML, anonymous access only when the pattern opens it.
 */
import { test } from '@japa/runner'
import { parse } from 'yaml'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { admin, setupAdminActors } from '#tests/helpers/admin'
import { baseUrl } from '#tests/helpers/oauth'
import {
  assertValidOpenApi,
  demoDocument,
  documentedOperations,
  getDoc,
  matchesRoute,
  routedOperations,
} from '#tests/helpers/openapi'

const GENERAL = '/rest/docs/openapi.json'
const DETAILED = '/rest/docs/openapiDetailed.json'
const REPORTS = '/rest/reports/docs/openapi.json'

test.group('OpenAPI: REST descriptions', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await applyDoc(await demoDocument())
  })

  test('the general document is valid OpenAPI 3.1 with our OAuth endpoints', async ({ assert }) => {
    const reply = await getDoc('plain', GENERAL)
    assert.equal(reply.status, 200)
    assert.match(reply.headers.get('content-type')!, /^application\/json/)
    await assertValidOpenApi(reply.body)
    assert.equal(reply.body.openapi, '3.1.0')
    assert.deepEqual(reply.body.servers, [{ url: `${baseUrl()}/rest` }])
    const flows = reply.body.components.securitySchemes.oauth2.flows
    assert.equal(flows.clientCredentials.tokenUrl, `${baseUrl()}/oauth2/token`)
    assert.equal(flows.authorizationCode.authorizationUrl, `${baseUrl()}/oauth2/authorize`)
    assert.deepEqual(reply.body.components.securitySchemes.bearer, {
      type: 'http',
      scheme: 'bearer',
      description: 'An access token of /oauth2/token',
    })
    assert.includeMembers(
      reply.body.tags.map((t: any) => t.name),
      ['Entities', 'Files', 'Metadata', 'Messages', 'User Session']
    )
  })

  test('the server URL follows svc.server.base-url', async ({ assert }) => {
    const set = await admin('admin', 'PUT', 'settings/svc.server.base-url', {
      value: 'https://api.example.com/',
    })
    assert.equal(set.status, 200)
    try {
      const doc = (await getDoc('admin', DETAILED)).body
      assert.deepEqual(doc.servers, [{ url: 'https://api.example.com/rest' }])
      const flows = doc.components.securitySchemes.oauth2.flows
      assert.equal(flows.authorizationCode.tokenUrl, 'https://api.example.com/oauth2/token')
    } finally {
      assert.equal((await admin('admin', 'DELETE', 'settings/svc.server.base-url')).status, 200)
    }
    const back = (await getDoc('admin', GENERAL)).body
    assert.deepEqual(back.servers, [{ url: `${baseUrl()}/rest` }])
  })

  test('every routed /rest path is documented, and nothing else', async ({ assert }) => {
    const routed = routedOperations('/rest')
    const general = documentedOperations((await getDoc('admin', GENERAL)).body)
    const detailed = documentedOperations((await getDoc('admin', DETAILED)).body)
    // The Reports API has its own document, relative to /rest/reports.
    const reportsDoc = (await getDoc('admin', REPORTS)).body
    await assertValidOpenApi(reportsDoc)
    const reports = new Set(
      [...documentedOperations(reportsDoc)].map((op) => op.replace(' ', ' /reports'))
    )
    const documented = new Set([...general, ...detailed, ...reports])
    const missing = [...routed].filter((op) => !documented.has(op))
    assert.deepEqual(missing, [])
    const unrouted = [...documented].filter((op) => !matchesRoute(op, routed))
    assert.deepEqual(unrouted, [])
    assert.isAbove(routed.size, 30)
  })

  test('the detailed document for the demo carries the entity constraints', async ({ assert }) => {
    const reply = await getDoc('admin', DETAILED)
    assert.equal(reply.status, 200)
    await assertValidOpenApi(reply.body)
    const schemas = reply.body.components.schemas
    const demo = (await demoDocument()) as { entities: { name: string }[] }
    for (const { name } of demo.entities) {
      assert.isDefined(schemas[name.replaceAll('$', '.')], name)
      assert.property(reply.body.paths, `/entities/${name}/{entityId}`)
    }
    const book = schemas.bookstore_Book
    assert.equal(book.title, 'bookstore_Book')
    assert.includeMembers(book.required, ['id', 'version', 'title', 'isbn', 'price'])
    assert.notInclude(book.required, 'pageCount')
    assert.containsSubset(book.properties.isbn, {
      type: 'string',
      maxLength: 13,
      pattern: '^97[89][0-9]{10}$',
    })
    assert.containsSubset(book.properties.pageCount, {
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 10000,
    })
    assert.deepEqual(book.properties.id, { type: 'string', format: 'uuid', readOnly: true })
    assert.isTrue(book.properties.createdDate.readOnly)
    assert.equal(book.properties.createdDate.format, 'date-time')
    assert.deepEqual(book.properties._entityName.const, 'bookstore_Book')
    const order = schemas.bookstore_Order
    assert.equal(order.properties.status.type, 'string')
    assert.isAbove(order.properties.status.enum.length, 1)
    assert.deepEqual(order.properties.customer, { $ref: '#/components/schemas/bookstore_Customer' })
    assert.deepEqual(schemas.bookstore_OrderLine.properties.discounts.items, {
      $ref: '#/components/schemas/bookstore_OrderLineDiscount',
    })
    assert.deepEqual(schemas.bookstore_Address.properties.country, {
      $ref: '#/components/schemas/ref.Country',
    })
    const ops = Object.keys(reply.body.paths['/entities/bookstore_Book/{entityId}'])
    assert.sameMembers(ops, ['get', 'put', 'delete'])
  })

  test('YAML is served as application/yaml, also for Accept: application/yaml', async ({
    assert,
  }) => {
    for (const [path, json] of [
      ['/rest/docs/openapi.yaml', GENERAL],
      ['/rest/docs/openapiDetailed.yaml', DETAILED],
    ]) {
      for (const accept of [undefined, 'application/yaml']) {
        const reply = await getDoc('admin', path, accept ? { Accept: accept } : {})
        assert.equal(reply.status, 200)
        assert.match(reply.headers.get('content-type')!, /^application\/yaml/)
        const doc = parse(reply.text)
        await assertValidOpenApi(doc)
        assert.deepEqual(doc, (await getDoc('admin', json)).body)
      }
    }
  })

  test('a model change shows in the detailed document on the next request', async ({ assert }) => {
    const before = (await getDoc('admin', DETAILED)).body
    assert.notProperty(before.components.schemas, 'bookstore_Shelf')
    const created = await admin('admin', 'POST', 'entities', {
      name: 'bookstore_Shelf',
      attributes: [{ name: 'label', type: 'string', length: 40, mandatory: true }],
    })
    assert.equal(created.status, 201)
    const added = await admin('admin', 'POST', 'entities/bookstore_Book/attributes', {
      name: 'shelfMark',
      type: 'string',
      length: 12,
      pattern: '^[A-Z]{2}[0-9]+$',
    })
    assert.oneOf(added.status, [200, 201])
    const after = await getDoc('admin', DETAILED)
    await assertValidOpenApi(after.body)
    const shelf = after.body.components.schemas.bookstore_Shelf
    assert.containsSubset(shelf.properties.label, { type: 'string', maxLength: 40 })
    assert.include(shelf.required, 'label')
    assert.property(after.body.paths, '/entities/bookstore_Shelf')
    assert.containsSubset(after.body.components.schemas.bookstore_Book.properties.shelfMark, {
      type: 'string',
      maxLength: 12,
      pattern: '^[A-Z]{2}[0-9]+$',
    })
  })
})

test.group('OpenAPI: who may read the descriptions', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await applyDoc(await demoDocument())
  })

  test('without a token the descriptions answer 401 by default', async ({ assert }) => {
    for (const path of [GENERAL, DETAILED, '/rest/docs/openapiDetailed.yaml']) {
      const reply = await getDoc('anonymous', path)
      assert.equal(reply.status, 401)
    }
  })

  test('the pattern /rest/docs/* opens them; anonymous sees only what its role opens', async ({
    assert,
  }) => {
    const role = await admin('admin', 'POST', 'resource-roles', {
      code: 'docs-book-reader',
      name: 'Books only',
      scopes: ['API'],
      entityPolicies: [{ entity: 'bookstore_Book', actions: ['read'] }],
      attributePolicies: [
        { entity: 'bookstore_Book', attributes: ['title', 'isbn'], action: 'VIEW' },
      ],
    })
    assert.equal(role.status, 201)
    const roles = await admin('admin', 'PUT', 'users/anonymous/roles', {
      resourceRoles: ['docs-book-reader'],
    })
    assert.equal(roles.status, 200)
    const setting = await admin('admin', 'PUT', 'settings/svc.rest.anonymous-url-patterns', {
      value: '/rest/docs/*',
    })
    assert.equal(setting.status, 200)

    const general = await getDoc('anonymous', GENERAL)
    assert.equal(general.status, 200)
    const detailed = await getDoc('anonymous', DETAILED)
    assert.equal(detailed.status, 200)
    await assertValidOpenApi(detailed.body)
    const entities = Object.keys(detailed.body.components.schemas).filter((n) => n.includes('_'))
    assert.deepEqual(entities, ['bookstore_Book'])
    assert.sameMembers(Object.keys(detailed.body.components.schemas.bookstore_Book.properties), [
      '_entityName',
      '_instanceName',
      'title',
      'isbn',
    ])
    const bookOps = Object.keys(detailed.body.paths['/entities/bookstore_Book/{entityId}'])
    assert.deepEqual(bookOps, ['get'])
    assert.notProperty(detailed.body.paths, '/entities/bookstore_Order')
    // The entities API itself stays closed: the pattern opens the descriptions only.
    const data = await getDoc('anonymous', '/rest/entities/bookstore_Book')
    assert.equal(data.status, 401)
  })
})
