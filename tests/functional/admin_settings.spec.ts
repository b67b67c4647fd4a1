/**
 * Admin API, settings: every svc.* property with its type, default, effective value and source;
 * PUT stores a value (effective in the next request), DELETE removes it; validation with paths,
 * 404, 412, who may call it, and for every refused request that nothing changed.
 */
import { test } from '@japa/runner'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { engine } from '#tests/helpers/engine'
import {
  admin,
  adminState,
  setupAdminActors,
  versionOf,
  assertOutsidersRefused,
} from '#tests/helpers/admin'
import { PROPERTIES } from '#settings/properties'

const BULK = 'svc.rest.max-bulk-size'
const ANONYMOUS = 'svc.rest.anonymous-url-patterns'
const storedRow = (key: string) => db.from('mg_settings').where('key', key).first()
const put = (name: string, body: unknown, headers: Record<string, string> = {}) =>
  admin('admin', 'PUT', `settings/${name}`, body, headers)

test.group('admin API: settings', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('who may call it: 401 anonymous, 403 plain user and full-access client', async ({
    assert,
  }) => {
    const before = await adminState()
    const calls: [string, string, unknown?][] = [
      ['GET', 'settings'],
      ['GET', `settings/${BULK}`],
      ['PUT', `settings/${BULK}`, { value: 5 }],
      ['DELETE', `settings/${BULK}`],
    ]
    await assertOutsidersRefused(assert, calls)
    assert.equal(await adminState(), before)
    assert.equal((await admin('adminClient', 'GET', 'settings')).status, 200)
    assert.equal((await admin('adminClient', 'PUT', `settings/${BULK}`, { value: 5 })).status, 200)
  })

  test('GET /settings lists every registry property with its default or file value', async ({
    assert,
  }) => {
    // config/application.properties names the demo's services XML (app/services/README.md).
    const inFile: Record<string, string> = {
      'svc.rest.services-config': 'app/services/demo/services.xml',
    }
    const reply = await admin('admin', 'GET', 'settings')
    assert.equal(reply.status, 200)
    assert.equal(versionOf(reply), versionOf(await admin('admin', 'GET', 'definition')))
    const exact = PROPERTIES.filter((p) => !p.name.includes('<'))
    assert.sameMembers(
      reply.body.settings.map((s: any) => s.name),
      exact.map((p) => p.name)
    )
    for (const p of exact) {
      const shown = reply.body.settings.find((s: any) => s.name === p.name)
      assert.deepEqual(
        shown,
        {
          name: p.name,
          type: p.type,
          description: p.description,
          default: p.default,
          value: inFile[p.name] ?? p.default,
          source: p.name in inFile ? 'file' : 'default',
          stored: null,
          fallback: {
            value: inFile[p.name] ?? p.default,
            source: p.name in inFile ? 'file' : 'default',
          },
        },
        p.name
      )
    }
  })

  test('sources: file, environment and database, per-client properties listed, secrets masked', async ({
    assert,
    cleanup,
  }) => {
    const properties = (await engine()).properties
    cleanup(() => properties.loadStatic(app.configPath('application.properties'), process.env))
    const file = join(await mkdtemp(join(tmpdir(), 'mg-settings-')), 'application.properties')
    await writeFile(file, `${BULK}=50\nsvc.rest.default-max-fetch-size=70\n`)
    await properties.loadStatic(file, {
      SVC_REST_DEFAULT_MAX_FETCH_SIZE: '300',
      SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_ID: 'orders',
      SVC_AUTHSERVER_CLIENT_ORDERS_CLIENT_SECRET: '{noop}a-very-secret-value',
    })
    const stored = await put('svc.core.available-locales', { value: 'en,de' })
    assert.equal(stored.status, 200, stored.text)

    const reply = await admin('admin', 'GET', 'settings')
    const byName = new Map(reply.body.settings.map((s: any) => [s.name, s]))
    const pick = (name: string) => byName.get(name) as any
    assert.include(pick(BULK), { value: 50, source: 'file', stored: null })
    assert.include(pick('svc.rest.default-max-fetch-size'), { value: 300, source: 'env' })
    assert.deepInclude(pick('svc.core.available-locales'), {
      value: ['en', 'de'],
      source: 'database',
      stored: 'en,de',
    })
    assert.include(pick('svc.authserver.client.orders.client-id'), {
      value: 'orders',
      source: 'env',
      type: 'string',
    })
    assert.include(pick('svc.authserver.client.orders.client-secret'), {
      value: '********',
      source: 'env',
    })
    assert.notInclude(reply.text, 'a-very-secret-value')
    const one = await admin('admin', 'GET', 'settings/svc.authserver.client.orders.client-secret')
    assert.equal(one.body.value, '********')
    assert.notInclude(one.text, 'a-very-secret-value')

    // The database wins over the environment.
    await put('svc.rest.default-max-fetch-size', { value: 400 })
    const fetch = await admin('admin', 'GET', 'settings/svc.rest.default-max-fetch-size')
    assert.include(fetch.body, { value: 400, source: 'database', stored: 400 })
    // What a DELETE would fall back to: the environment's value, then the file's.
    assert.deepEqual(fetch.body.fallback, { value: 300, source: 'env' })
    const bulk = await put(BULK, { value: 60 })
    assert.deepEqual(bulk.body.setting.fallback, { value: 50, source: 'file' })
    assert.deepEqual(pick('svc.authserver.client.orders.client-secret').fallback, {
      value: '********',
      source: 'env',
    })
  })

  test('GET /settings/:name shows one property; unknown names are 404', async ({ assert }) => {
    const one = await admin('admin', 'GET', `settings/${ANONYMOUS}`)
    assert.equal(one.status, 200)
    assert.deepInclude(one.body, { name: ANONYMOUS, type: 'list', value: [], source: 'default' })
    for (const name of ['svc.nope', 'server.port', 'svc.authserver.client..client-id']) {
      const missing = await admin('admin', 'GET', `settings/${name}`)
      assert.equal(missing.status, 404, name)
      assert.equal(missing.body.error, 'Not found')
    }
  })

  test('PUT stores a value with one audit entry; the same value again changes nothing', async ({
    assert,
  }) => {
    const v0 = versionOf(await admin('admin', 'GET', 'settings'))
    const reply = await put(BULK, { value: 5 }, { 'If-Match': `"${v0}"` })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(reply.body.status, 'applied')
    assert.deepEqual(reply.body.changes, [`setting ${BULK}: set`])
    assert.include(reply.body.setting, { name: BULK, value: 5, source: 'database', stored: 5 })
    assert.equal(versionOf(reply), v0 + 1)
    assert.equal((await storedRow(BULK)).value, '5')
    assert.equal((await engine()).properties.get(BULK), 5)
    const audit = await db.from('mg_audit').orderBy('id', 'desc').first()
    assert.equal(audit.author, 'root')
    assert.deepEqual(
      (await db.from('mg_audit_elements').where('audit_id', audit.id)).map(
        (e) => `${e.section}:${e.element}`
      ),
      [`settings:${BULK}`]
    )
    assert.include((await admin('admin', 'GET', `settings/${BULK}`)).body, { value: 5 })

    const before = await adminState()
    const again = await put(BULK, { value: 5 })
    assert.equal(again.body.status, 'unchanged')
    assert.equal(versionOf(again), v0 + 1)
    assert.equal(await adminState(), before)
  })

  test('PUT ?dryRun=true plans the change and stores nothing', async ({ assert }) => {
    const before = await adminState()
    const reply = await put(`${BULK}?dryRun=true`, { value: 7 })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(reply.body.status, 'dry-run')
    assert.deepEqual(reply.body.changes, [`setting ${BULK}: set`])
    assert.include(reply.body.setting, { value: 10000, source: 'default' })
    assert.equal(await adminState(), before)
    assert.isNull(await storedRow(BULK))
  })

  test('invalid values, unknown names and bad bodies are 422 with their paths', async ({
    assert,
  }) => {
    const before = await adminState()
    const cases: [string, unknown, string, RegExp][] = [
      [BULK, { value: 'abc' }, '$.value', /integer/],
      [BULK, { value: [7] }, '$.value', /integer/],
      [ANONYMOUS, { value: '/**' }, '$.value', /open every URL/],
      [
        'svc.resource-server.anonymous-url-patterns',
        { value: ['/rest/**', '**'] },
        '$.value',
        /open/,
      ],
      ['svc.resource-server.authenticated-url-patterns', { value: 'rest/**' }, '$.value', /./],
      ['svc.rest.max-upload-size', { value: 'huge' }, '$.value', /size/],
      [
        'svc.core.available-locales',
        { value: 'en,deutsch' },
        '$.value',
        /'deutsch' is not a locale/,
      ],
      [
        'svc.authserver.authorization-code-time-to-live',
        { value: '5 minutes' },
        '$.value',
        /duration/,
      ],
      ['svc.authserver.client.x.client-secret', { value: 'clear-secret' }, '$.value', /clear/],
      ['svc.nope', { value: 1 }, '$', /unknown property 'svc\.nope'/],
      [BULK, {}, '$.value', /required/],
      [BULK, { value: null }, '$.value', /DELETE/],
      [BULK, { value: 5, extra: true }, '$.extra', /unknown/],
      [BULK, [5], '$', /object/],
    ]
    for (const [name, body, path, message] of cases) {
      const reply = await put(name, body)
      const label = `${name} ${JSON.stringify(body)}`
      assert.equal(reply.status, 422, label)
      assert.equal(reply.body.error, 'Invalid definition', label)
      const problem = reply.body.problems.find((p: any) => p.path === path)
      assert.exists(problem, `${label}: ${reply.text}`)
      assert.match(problem.message, message, label)
    }
    assert.equal(await adminState(), before)
  })

  test('DELETE removes the stored value; unknown names are 404; nothing stored: unchanged', async ({
    assert,
  }) => {
    await put(BULK, { value: 5 })
    const v1 = versionOf(await admin('admin', 'GET', 'settings'))
    const reply = await admin('admin', 'DELETE', `settings/${BULK}`, undefined, {
      'If-Match': `"${v1}"`,
    })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(reply.body.status, 'applied')
    assert.deepEqual(reply.body.changes, [`setting ${BULK}: removed`])
    assert.include(reply.body.setting, { value: 10000, source: 'default', stored: null })
    assert.equal(versionOf(reply), v1 + 1)
    assert.isNull(await storedRow(BULK))
    assert.equal((await engine()).properties.get(BULK), 10000)

    const before = await adminState()
    const again = await admin('admin', 'DELETE', `settings/${BULK}`)
    assert.equal(again.status, 200)
    assert.equal(again.body.status, 'unchanged')
    const unknown = await admin('admin', 'DELETE', 'settings/svc.nope')
    assert.equal(unknown.status, 404)
    assert.equal(await adminState(), before)
  })

  test('a stale If-Match is 412 on PUT and DELETE and changes nothing', async ({ assert }) => {
    const v0 = versionOf(await admin('admin', 'GET', 'settings'))
    await put(BULK, { value: 5 })
    const before = await adminState()
    const stale = { 'If-Match': `"${v0}"` }
    const update = await put(BULK, { value: 6 }, stale)
    assert.equal(update.status, 412)
    assert.equal(update.body.error, 'Precondition failed')
    assert.equal(versionOf(update), v0 + 1)
    const remove = await admin('admin', 'DELETE', `settings/${BULK}`, undefined, stale)
    assert.equal(remove.status, 412)
    assert.equal(await adminState(), before)
    assert.equal((await storedRow(BULK)).value, '5')
  })

  test('an anonymous URL pattern stored by PUT applies in the next request', async ({ assert }) => {
    const setup = await admin('admin', 'POST', 'definition/apply', {
      formatVersion: 1,
      entities: [{ name: 'adm_Note', attributes: [{ name: 'title', type: 'string' }] }],
      resourceRoles: [
        {
          code: 'note-reader',
          childRoles: ['rest-minimal'],
          entityPolicies: [{ entity: 'adm_Note', actions: ['read'] }],
          attributePolicies: [{ entity: 'adm_Note', attributes: ['*'], action: 'VIEW' }],
        },
      ],
      users: [{ username: 'anonymous', resourceRoles: ['note-reader'] }],
    })
    assert.equal(setup.status, 200, setup.text)
    await db.table('adm_note').insert({ id: '00000000-0000-4000-8000-000000000001', title: 'hi' })
    const anonymousRead = () => admin('anonymous', 'GET', '/rest/entities/adm_Note')
    assert.equal((await anonymousRead()).status, 401)

    const open = await put(ANONYMOUS, { value: '/rest/entities/adm_Note/**' })
    assert.equal(open.status, 200, open.text)
    const read = await anonymousRead()
    assert.equal(read.status, 200, read.text)
    assert.deepEqual(
      read.body.map((n: any) => n.title),
      ['hi']
    )

    assert.equal((await admin('admin', 'DELETE', `settings/${ANONYMOUS}`)).status, 200)
    assert.equal((await anonymousRead()).status, 401)
  })
})
