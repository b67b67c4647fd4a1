/**
 * Admin API, the model endpoints as a whole: who may call them (401 anonymous, 403 without the
 * admin policy) and a stale If-Match (412) on every kind of write; nothing changes either way.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors, versionOf } from '#tests/helpers/admin'
import { NOTE, PLAN, STATUS, noteAndTask, ok } from './admin_model_fixtures.js'

test.group('admin API: model access and concurrency', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('who may call the model endpoints: 401 anonymous, 403 plain and full-access', async ({
    assert,
  }) => {
    await noteAndTask(false)
    await ok(admin('admin', 'POST', 'enums', STATUS), 201)
    await ok(admin('admin', 'POST', 'fetch-plans', PLAN), 201)
    const endpoints: [string, string, unknown?][] = [
      ['GET', 'entities'],
      ['GET', 'entities/adm_Note'],
      ['POST', 'entities', { ...NOTE, name: 'adm_Other' }],
      ['PUT', 'entities/adm_Note', { ...NOTE, attributes: [] }],
      ['DELETE', 'entities/adm_Task'],
      ['POST', 'entities/adm_Note/attributes', { name: 'extra', type: 'int' }],
      ['PUT', 'entities/adm_Note/attributes/body', { name: 'text', type: 'text' }],
      ['DELETE', 'entities/adm_Note/attributes/body'],
      ['PUT', 'entities/adm_Note/indexes', [{ attributes: ['title'] }]],
      ['GET', 'enums'],
      ['POST', 'enums', { ...STATUS, name: 'adm.Other' }],
      ['GET', 'enums/adm.Status'],
      ['PUT', 'enums/adm.Status', { values: [] }],
      ['DELETE', 'enums/adm.Status'],
      ['GET', 'fetch-plans'],
      ['POST', 'fetch-plans', { ...PLAN, name: 'other' }],
      ['GET', 'fetch-plans/adm_Note/note-brief'],
      ['PUT', 'fetch-plans/adm_Note/note-brief', { properties: ['title'] }],
      ['DELETE', 'fetch-plans/adm_Note/note-brief'],
    ]
    const before = await adminState()
    for (const [actor, status] of [
      ['anonymous', 401],
      ['plain', 403],
      ['fullAccess', 403],
    ] as const)
      for (const [method, path, body] of endpoints) {
        const reply = await admin(actor, method, path, body)
        assert.equal(reply.status, status, `${actor} ${method} ${path}`)
        assert.properties(reply.body, ['error', 'details'])
      }
    assert.equal(await adminState(), before)
    for (const [method, path] of endpoints.filter(([m]) => m === 'GET'))
      assert.equal((await admin('adminClient', method, path)).status, 200, path)
  })

  test('a stale If-Match is 412 on every kind of write and changes nothing', async ({ assert }) => {
    const v0 = versionOf(await admin('admin', 'GET', 'entities'))
    await noteAndTask(false)
    const before = await adminState()
    const stale = { 'If-Match': `"${v0}"` }
    const writes: [string, string, unknown?][] = [
      ['POST', 'entities', { ...NOTE, name: 'adm_Other' }],
      ['PUT', 'entities/adm_Note', NOTE],
      ['DELETE', 'entities/adm_Task'],
      ['POST', 'entities/adm_Note/attributes', { name: 'extra', type: 'int' }],
      ['PUT', 'entities/adm_Note/attributes/body', { name: 'text', type: 'text' }],
      ['DELETE', 'entities/adm_Note/attributes/body'],
      ['PUT', 'entities/adm_Note/indexes', []],
      ['POST', 'enums', STATUS],
      ['POST', 'fetch-plans', PLAN],
    ]
    for (const [method, path, body] of writes) {
      const reply = await admin('admin', method, path, body, stale)
      assert.equal(reply.status, 412, `${method} ${path}`)
      assert.equal(reply.body.error, 'Precondition failed')
      assert.equal(versionOf(reply), v0 + 2)
    }
    assert.equal(await adminState(), before)
    const fresh = await admin('admin', 'DELETE', 'entities/adm_Task', undefined, {
      'If-Match': `"${v0 + 2}"`,
    })
    assert.equal(fresh.status, 200, fresh.text)
  })
})
