/**
 * The admin API's own description (`/admin/api/openapi.json|yaml`): valid OpenAPI 3.1, every
 * routed /admin/api operation in it and nothing else, admins only.
 */
import { test } from '@japa/runner'
import { parse } from 'yaml'
import { resetDatabase } from '#tests/helpers/database'
import { setupAdminActors } from '#tests/helpers/admin'
import { baseUrl } from '#tests/helpers/oauth'
import {
  assertValidOpenApi,
  documentedOperations,
  getDoc,
  routedOperations,
} from '#tests/helpers/openapi'

test.group('OpenAPI: admin API description', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('is valid OpenAPI 3.1 and lists exactly the routed operations', async ({ assert }) => {
    const reply = await getDoc('admin', '/admin/api/openapi.json')
    assert.equal(reply.status, 200)
    assert.match(reply.headers.get('content-type')!, /^application\/json/)
    await assertValidOpenApi(reply.body)
    assert.equal(reply.body.openapi, '3.1.0')
    assert.deepEqual(reply.body.servers, [{ url: `${baseUrl()}/admin/api` }])
    assert.equal(
      reply.body.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl,
      `${baseUrl()}/oauth2/token`
    )
    const routed = routedOperations('/admin/api')
    const documented = documentedOperations(reply.body)
    assert.deepEqual(
      [...routed].filter((op) => !documented.has(op)),
      []
    )
    assert.deepEqual(
      [...documented].filter((op) => !routed.has(op)),
      []
    )
    assert.isAbove(routed.size, 50)
  })

  test('YAML is served as application/yaml', async ({ assert }) => {
    const reply = await getDoc('adminClient', '/admin/api/openapi.yaml', {
      Accept: 'application/yaml',
    })
    assert.equal(reply.status, 200)
    assert.match(reply.headers.get('content-type')!, /^application\/yaml/)
    const doc = parse(reply.text)
    await assertValidOpenApi(doc)
    assert.deepEqual(doc, (await getDoc('admin', '/admin/api/openapi.json')).body)
  })

  test('only administrators read it', async ({ assert }) => {
    assert.equal((await getDoc('anonymous', '/admin/api/openapi.json')).status, 401)
    assert.equal((await getDoc('plain', '/admin/api/openapi.json')).status, 403)
    assert.equal((await getDoc('fullAccess', '/admin/api/openapi.yaml')).status, 403)
  })
})
