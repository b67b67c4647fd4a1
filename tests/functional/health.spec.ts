import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc } from '#tests/helpers/engine'

const shop = {
  entities: [{ name: 'shop_Item', attributes: [{ name: 'title', type: 'string', length: 80 }] }],
}

test.group('health and console routes', (group) => {
  group.setup(async () => {
    await resetDatabase()
  })

  test('GET /health reports the model version this instance serves', async ({ client, assert }) => {
    const before = await client.get('/health')
    before.assertStatus(200)
    before.assertBodyContains({ status: 'ok', modelVersion: 0 })
    assert.equal(before.header('cache-control'), 'no-store')

    const result = await importDoc(shop)
    assert.equal(result.status, 'applied')
    const after = await client.get('/health')
    after.assertBodyContains({
      modelVersion: result.version,
      modelChecksum: (await engine()).model.checksum,
    })
    assert.oneOf(after.body().database, ['sqlite', 'pg'])
  })

  test('the console is served, deep links included', async ({ client, assert }) => {
    const index = await client.get('/console/')
    index.assertStatus(200)
    assert.include(index.header('content-type'), 'text/html')
    const deep = await client.get('/console/settings/anything')
    deep.assertStatus(200)
    assert.include(deep.text(), '<div id="root">')
    const root = await client.get('/').redirects(0)
    root.assertStatus(302)
    assert.equal(root.header('location'), '/console/')
  })

  test('unknown routes answer 404 in the error shape', async ({ client }) => {
    const response = await client.get('/no/such/route')
    response.assertStatus(404)
    response.assertBody({ error: 'Not found', details: 'No resource at /no/such/route' })
  })
})
