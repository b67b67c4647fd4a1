/**
 * The `settings` section of the definition document: stored in mg_settings, visible through the
 * property resolver right after the import (no restart), above file and environment values.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'
import { definitions } from '#definition/main'

const item = { name: 'shop_Item', attributes: [{ name: 'code', type: 'string', length: 20 }] }
const version = async (key: 'model' | 'settings') =>
  Number((await db.from('mg_versions').where('key', key).first()).version)
const stored = async () =>
  Object.fromEntries(
    (await db.from('mg_settings').orderBy('key')).map((r) => [r.key, JSON.parse(r.value)])
  )

test.group('settings import', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    const e = await engine()
    // Back to the real static layers after tests that fake the environment.
    return () => e.properties.loadStatic(app.configPath('application.properties'))
  })

  test('settings are stored and resolved right after the import', async ({ assert }) => {
    const e = await engine()
    assert.equal(e.properties.get('svc.rest.default-max-fetch-size'), 10000)
    const result = await importDoc({
      entities: [item],
      settings: {
        'svc.rest.default-max-fetch-size': 250,
        'svc.core.available-locales': 'en,de',
        'svc.core.entitySerializationTokenRequired': true,
      },
    })
    assert.equal(result.status, 'applied')
    assert.includeMembers(result.changes, [
      'setting svc.rest.default-max-fetch-size: set',
      'setting svc.core.available-locales: set',
    ])
    assert.deepEqual(await stored(), {
      'svc.core.available-locales': 'en,de',
      'svc.core.entitySerializationTokenRequired': true,
      'svc.rest.default-max-fetch-size': 250,
    })
    assert.equal(e.properties.get('svc.rest.default-max-fetch-size'), 250)
    assert.deepEqual(e.properties.get('svc.core.available-locales'), ['en', 'de'])
    assert.isTrue(e.properties.get('svc.core.entitySerializationTokenRequired'))
    assert.equal(e.properties.source('svc.rest.default-max-fetch-size'), 'database')
  })

  test('a stored setting beats the environment; removing it (null) falls back to it', async ({
    assert,
  }) => {
    const e = await engine()
    await e.properties.loadStatic(null, {
      SVC_REST_DEFAULT_MAX_FETCH_SIZE: '300',
      SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_ID: 'env-id',
    })
    assert.equal(e.properties.get('svc.rest.default-max-fetch-size'), 300)
    await importDoc({
      settings: {
        'svc.rest.default-max-fetch-size': 500,
        'svc.authserver.client.orders.client-id': 'db-id',
      },
    })
    assert.equal(e.properties.get('svc.rest.default-max-fetch-size'), 500)
    assert.equal(e.properties.get('svc.authserver.client.orders.client-id'), 'db-id')
    await importDoc({ settings: { 'svc.rest.default-max-fetch-size': null } })
    assert.equal(e.properties.get('svc.rest.default-max-fetch-size'), 300)
    assert.equal(e.properties.source('svc.rest.default-max-fetch-size'), 'env')
    assert.notProperty(await stored(), 'svc.rest.default-max-fetch-size')
  })

  test('a settings-only change bumps the settings version, not the model version', async ({
    assert,
  }) => {
    await importDoc({ entities: [item] })
    const model = await version('model')
    const settings = await version('settings')
    const result = await importDoc({ settings: { 'svc.rest.services-config': 'services.xml' } })
    assert.equal(result.status, 'applied', 'settings were written')
    assert.deepEqual(result.changes, ['setting svc.rest.services-config: set'])
    assert.deepEqual(result.steps, [])
    assert.equal(await version('model'), model)
    assert.equal(await version('settings'), settings + 1)
    assert.equal((await engine()).model.version, model)

    const again = await importDoc({ settings: { 'svc.rest.services-config': 'services.xml' } })
    assert.equal(again.status, 'unchanged')
    assert.deepEqual(again.changes, [])
    assert.equal(await version('settings'), settings + 1)
  })

  test('a dry run lists setting changes and writes nothing', async ({ assert }) => {
    const before = await snapshotState()
    const result = await importDoc(
      { settings: { 'svc.rest.services-config': 'x.xml' } },
      { dryRun: true }
    )
    assert.equal(result.status, 'dry-run')
    assert.deepEqual(result.changes, ['setting svc.rest.services-config: set'])
    assert.equal(await snapshotState(), before)
  })

  test('an unknown setting is invalid with its path; nothing changes', async ({ assert }) => {
    const before = await snapshotState()
    const result = await importDoc({
      entities: [item],
      settings: { 'svc.rest.anonymous-url-patterns': '/a', 'svc.rest.nope': 1 },
    })
    assert.equal(result.status, 'invalid')
    assert.deepEqual(
      result.problems.map((p) => p.path),
      ["$.settings['svc.rest.nope']"]
    )
    assert.match(result.problems[0].message, /unknown property/)
    assert.equal(await snapshotState(), before)
  })

  test('a value of the wrong type is invalid: {name} = {value}')
    .with([
      { name: 'svc.rest.default-max-fetch-size', value: 'lots' },
      { name: 'svc.rest.default-max-fetch-size', value: true },
      { name: 'svc.rest.default-max-fetch-size', value: '' },
      { name: 'svc.core.entitySerializationTokenRequired', value: 'yes' },
      { name: 'svc.core.available-locales', value: 5 },
      { name: 'svc.rest.services-config', value: { file: 'x' } },
    ] as { name: string; value: unknown }[])
    .run(async ({ assert }, { name, value }) => {
      const before = await snapshotState()
      const result = await importDoc({ settings: { [name]: value } })
      assert.equal(result.status, 'invalid')
      assert.deepEqual(
        result.problems.map((p) => p.path),
        [`$.settings['${name}']`]
      )
      assert.equal(await snapshotState(), before)
    })

  test('the export includes stored settings and re-imports unchanged', async ({ assert }) => {
    await importDoc({
      entities: [item],
      settings: {
        'svc.core.available-locales': ['en', 'fr'],
        'svc.rest.default-max-fetch-size': 42,
      },
    })
    const e = await engine()
    const exported = await definitions(e).exportDocument()
    assert.deepEqual(exported.settings, {
      'svc.core.available-locales': ['en', 'fr'],
      'svc.rest.default-max-fetch-size': 42,
    })
    const before = await snapshotState()
    const result = await definitions(e).importDocument(exported)
    assert.equal(result.status, 'unchanged')
    assert.deepEqual(result.changes, [])
    assert.equal(await snapshotState(), before)
  })

  test('a settings change made by another writer is picked up on refresh', async ({ assert }) => {
    const e = await engine()
    await db
      .table('mg_settings')
      .insert({ key: 'svc.rest.default-max-fetch-size', value: '77', updated_at: new Date() })
    await db.rawQuery("update mg_versions set version = version + 1 where key = 'settings'")
    await e.refresh()
    assert.equal(e.properties.get('svc.rest.default-max-fetch-size'), 77)
  })

  test('a stored row with an invalid value is skipped; the other stored settings still apply', async ({
    assert,
  }) => {
    const e = await engine()
    await importDoc({ settings: { 'svc.rest.services-config': 'ok.xml' } })
    await db
      .table('mg_settings')
      .insert({ key: 'svc.rest.default-max-fetch-size', value: '"lots"', updated_at: new Date() })
    await db.rawQuery("update mg_versions set version = version + 1 where key = 'settings'")
    await e.refresh()
    assert.equal(e.properties.get('svc.rest.services-config'), 'ok.xml')
    assert.equal(e.properties.get('svc.rest.default-max-fetch-size'), 10000)
    assert.equal(e.properties.version, await version('settings'))
  })
})
