/**
 * Services API (spec 4.3, reference 6.1-6.3): listing, the XML path (the demo's
 * app/services/demo/services.xml and a replacement XML that overrides a decorated method), the
 * caller's permissions and row-level roles inside a method, anonymous access through a URL
 * pattern, and the published npm client `@haulmont/jmix-rest` calling `invokeService`.
 */
import { test } from '@japa/runner'
import { mkdir, writeFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import { JmixRestConnection } from '@haulmont/jmix-rest'
import { withProperty } from '#tests/helpers/files'
import { accessToken, grantAnonymous, makeClient } from '#tests/helpers/resource_server'
import { baseUrl, createClient, createUser } from '#tests/helpers/oauth'
import { BOOKS, S, call, callPost, dataState, setupServices, tokens } from './services_fixtures.js'

const param = (name: string, type: string | null, required = true) => ({ name, type, required })

test.group('Services API: listing and the XML path', (group) => {
  group.setup(setupServices)

  test('GET /rest/services lists both services in the reference 6.2 shape', async ({ assert }) => {
    const r = await call(S)
    assert.equal(r.status, 200)
    assert.deepEqual(
      r.body.map((s: any) => s.name),
      ['bookstoreService', 'stockService']
    )
    const greet = r.body[0].methods.filter((m: any) => m.name === 'greet')
    assert.deepEqual(greet, [
      { name: 'greet', httpMethod: 'GET', params: [param('name', 'string')] },
      { name: 'greet', httpMethod: 'POST', params: [param('name', 'string')] },
    ])
    const typed = r.body[0].methods.find((m: any) => m.name === 'countTags')
    assert.deepEqual(typed.params, [param('tags', 'bookstore_Tag[]')])
  })

  test('GET /rest/services/{name}: the XML service; 404 Service not found', async ({ assert }) => {
    const r = await call(`${S}/stockService`)
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, {
      name: 'stockService',
      methods: [
        { name: 'lowStock', httpMethod: 'GET', params: [param('threshold', 'int', false)] },
        { name: 'count', httpMethod: null, params: [] },
        {
          name: 'label',
          httpMethod: null,
          params: [param('code', null), param('note', null, false)],
        },
      ],
    })
    const missing = await call(`${S}/nope`)
    assert.equal(missing.status, 404)
    assert.deepEqual(missing.body, {
      error: 'Service not found',
      details: 'Service nope not found',
    })
  })

  test('XML methods: optional parameters, untyped parameters, both HTTP methods', async ({
    assert,
  }) => {
    const low = await call(`${S}/stockService/lowStock`)
    assert.deepEqual(
      low.body.map((i: any) => i.binCode),
      ['A-1']
    )
    const threshold = await call(`${S}/stockService/lowStock?threshold=50`)
    assert.deepEqual(
      threshold.body.map((i: any) => i.binCode),
      ['A-1', 'B-2']
    )
    assert.equal((await callPost(`${S}/stockService/lowStock`, {})).status, 404)
    assert.equal((await callPost(`${S}/stockService/count`, '')).text, '2')
    assert.equal((await call(`${S}/stockService/count`)).text, '2')
    assert.equal((await call(`${S}/stockService/label?code=A-1`)).text, 'bin A-1')
    // Untyped POST values: primitives as they are, objects as JSON values.
    const label = await callPost(`${S}/stockService/label`, { code: 7, note: 'top' })
    assert.equal(label.text, 'bin 7 (top)')
    const bad = await call(`${S}/stockService/lowStock?threshold=x`)
    assert.deepEqual(bad.body, {
      error: 'Invalid parameter value',
      details: 'Invalid parameter value for threshold',
    })
  })

  test('an XML entry wins over the decorator for the same method', async ({ assert }) => {
    const dir = join(app.tmpPath(), `services-test-${process.pid}`)
    await mkdir(dir, { recursive: true })
    const file = join(dir, 'override.xml')
    await writeFile(
      file,
      `<services xmlns="http://jmix.io/schema/rest/services">
         <service name="bookstoreService">
           <method name="greet" httpMethod="POST"><param name="name" type="int"/></method>
         </service>
         <service name="notRegistered"><method name="x"/></service>
       </services>`
    )
    try {
      await withProperty('svc.rest.services-config', file, async () => {
        const get = await call(`${S}/bookstoreService/greet?name=Ann`)
        assert.equal(get.status, 404)
        const post = await callPost(`${S}/bookstoreService/greet`, { name: 'Ann' })
        assert.equal(post.status, 400)
        assert.equal((await callPost(`${S}/bookstoreService/greet`, { name: 5 })).text, 'Hello, 5!')
        const listing = await call(S)
        // The service without a registered class is skipped; stockService lost its XML.
        assert.deepEqual(
          listing.body.map((s: any) => s.name),
          ['bookstoreService', 'stockService']
        )
        assert.deepEqual(listing.body[1].methods, [])
        const greet = listing.body[0].methods.filter((m: any) => m.name === 'greet')
        assert.deepEqual(greet, [
          { name: 'greet', httpMethod: 'POST', params: [param('name', 'int')] },
        ])
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    assert.equal((await call(`${S}/bookstoreService/greet?name=Ann`)).text, 'Hello, Ann!')
  })
})

test.group('Services API: the method runs as the caller', (group) => {
  group.setup(setupServices)

  test("a row-level role limits the method's reads", async ({ assert }) => {
    const path = `${S}/bookstoreService/booksOfGenre?genre=FICTION&since=1800-01-01`
    const full = await call(path)
    assert.deepEqual(
      full.body.map((b: any) => b.title),
      ['Dune', 'Emma']
    )
    const reader = await call(path, tokens.reader)
    assert.deepEqual(
      reader.body.map((b: any) => b.title),
      ['Emma']
    )
    const hidden = await call(`${S}/bookstoreService/book?id=${BOOKS.dune}`, tokens.reader)
    assert.equal(hidden.status, 404)
    assert.equal(hidden.body.error, 'Entity not found')
  })

  test('without read permission the data access is refused: 403, nothing changed', async ({
    assert,
  }) => {
    const before = await dataState()
    const token = (await accessToken(await makeClient({ resourceRoles: ['rest-minimal'] }))).token
    const r = await call(`${S}/bookstoreService/book?id=${BOOKS.emma}`, token)
    assert.equal(r.status, 403)
    assert.deepEqual(r.body, {
      error: 'Reading forbidden',
      details: 'Reading of the bookstore_Book is forbidden',
    })
    // Methods that touch no data still answer.
    assert.equal((await call(`${S}/bookstoreService/greet?name=x`, token)).status, 200)
    assert.equal(await dataState(), before)
  })

  test('anonymous access through a URL pattern', async ({ assert }) => {
    const path = `${S}/bookstoreService/greet?name=guest`
    assert.equal((await call(path, null)).status, 401)
    const revoke = await grantAnonymous(['rest-minimal'])
    try {
      await withProperty(
        'svc.resource-server.anonymous-url-patterns',
        '/rest/services/bookstoreService/greet',
        async () => {
          const r = await call(path, null)
          assert.equal(r.status, 200)
          assert.equal(r.text, 'Hello, guest!')
          assert.equal((await call(`${S}/bookstoreService/ping`, null)).status, 401)
        }
      )
    } finally {
      await revoke()
    }
  })

  test('the published npm client calls invokeService unchanged', async ({ assert }) => {
    const { client, secret } = await createClient({ grantTypes: ['password'] })
    const { user, password } = await createUser()
    const jmix = new JmixRestConnection(
      `services-${client.clientId}`,
      `${baseUrl()}/rest/`,
      client.clientId,
      secret
    )
    await jmix.login(user.username, password, { tokenEndpoint: `${baseUrl()}/oauth/token` })
    assert.equal(
      await jmix.invokeService('bookstoreService', 'greet', { name: 'npm' }),
      'Hello, npm!'
    )
    const quote: any = await jmix.invokeService(
      'bookstoreService',
      'quote',
      { request: { bookId: BOOKS.emma, quantity: 1 } },
      { handleAs: 'json' }
    )
    assert.equal(quote.book.title, 'Emma')
    assert.equal(quote.total, 4.25)
    assert.equal(await jmix.invokeService('stockService', 'count', null), '2')
    await assert.rejects(() => jmix.invokeService('bookstoreService', 'nope', {}))
  })
})
