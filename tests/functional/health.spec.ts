import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
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

  test('GET /health/live answers while the process runs; /health/ready checks what traffic needs', async ({
    client,
    assert,
  }) => {
    const live = await client.get('/health/live')
    live.assertStatus(200)
    assert.deepEqual(live.body(), { status: 'ok' })
    assert.equal(live.header('cache-control'), 'no-store')
    const ready = await client.get('/health/ready')
    ready.assertStatus(200)
    assert.deepEqual(ready.body(), {
      status: 'ok',
      database: 'ok',
      migrations: 'ok',
      model: 'ok',
      draining: false,
    })
  })

  test('GET /health/ready is 503 while a migration is pending, 200 again once applied', async ({
    client,
    assert,
  }) => {
    const last = await db.from('adonis_schema').orderBy('id', 'desc').first()
    await db.from('adonis_schema').where('id', last.id).delete()
    try {
      const pending = await client.get('/health/ready')
      pending.assertStatus(503)
      assert.deepInclude(pending.body(), { status: 'unavailable', migrations: '1 pending' })
      // Liveness does not depend on it: restarting would not help.
      ;(await client.get('/health/live')).assertStatus(200)
    } finally {
      await db.table('adonis_schema').insert(last)
    }
    ;(await client.get('/health/ready')).assertStatus(200)
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
