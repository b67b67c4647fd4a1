/**
 * Custom controllers (spec 4.4): the demo's BookstoreController under /api/bookstore
 * (start/routes/custom.ts). Protected by default, public by explicit choice, the URL pattern
 * properties still apply, data access as the caller (403, row-level roles, denied attributes
 * left out), and the start-up list of routes no pattern protects.
 */
import { test } from '@japa/runner'
import { openRoutes } from '#controllers/custom/routing'
import { withProperty } from '#tests/helpers/files'
import { accessToken, grantAnonymous, makeClient } from '#tests/helpers/resource_server'
import { BOOKS, call, dataState, setupServices, tokens } from './services_fixtures.js'

const API = '/api/bookstore'
const tokenOf = async (resourceRoles: string[]) =>
  (await accessToken(await makeClient({ resourceRoles }))).token

test.group('Custom controllers', (group) => {
  group.setup(setupServices)

  test('protected by default: 401 without a valid token in the Authorization header', async ({
    assert,
  }) => {
    const none = await call(`${API}/books/${BOOKS.emma}`, null)
    assert.equal(none.status, 401)
    assert.match(String(none.headers['www-authenticate']), /^Bearer realm="modelgate"/)
    assert.equal((await call(`${API}/summary`, 'not-a-token')).status, 401)
    const inQuery = await call(`${API}/summary?access_token=${tokens.full}`, null)
    assert.equal(inQuery.status, 401)
  })

  test('the caller reads through DataManager; the controller shapes the answer', async ({
    assert,
  }) => {
    const r = await call(`${API}/books/${BOOKS.emma}`)
    assert.equal(r.status, 200)
    assert.equal(r.headers['cache-control'], 'no-store')
    assert.equal(r.body._entityName, 'bookstore_Book')
    assert.equal(r.body.title, 'Emma')
    assert.equal(r.body.price, 4.25)
    const summary = await call(`${API}/summary`)
    assert.equal(summary.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(summary.text, '4 books')
  })

  test("the caller's row-level role and attribute permissions apply", async ({ assert }) => {
    assert.equal((await call(`${API}/summary`, tokens.reader)).text, '2 books')
    const hidden = await call(`${API}/books/${BOOKS.dune}`, tokens.reader)
    assert.equal(hidden.status, 404)
    assert.deepEqual(hidden.body, { message: 'No such book' })
    const titles = await call(`${API}/books/${BOOKS.emma}`, await tokenOf(['book-titles']))
    assert.equal(titles.status, 200, titles.text)
    assert.equal(titles.body.title, 'Emma')
    assert.notProperty(titles.body, 'price')
    assert.notProperty(titles.body, 'isbn')
  })

  test('without read permission: 403 in the upstream body, nothing changed', async ({ assert }) => {
    const before = await dataState()
    const token = await tokenOf(['rest-minimal'])
    for (const path of [`${API}/books/${BOOKS.emma}`, `${API}/summary`]) {
      const r = await call(path, token)
      assert.equal(r.status, 403, path)
      assert.deepEqual(r.body, {
        error: 'Reading forbidden',
        details: 'Reading of the bookstore_Book is forbidden',
      })
    }
    assert.equal(await dataState(), before)
  })

  test('a public route is an explicit choice; the URL pattern properties still apply', async ({
    assert,
  }) => {
    const open = await call(`${API}/opening-hours`, null)
    assert.equal(open.status, 200)
    assert.deepEqual(open.body, { weekdays: '09:00-18:00', saturday: '10:00-14:00' })
    await withProperty(
      'svc.resource-server.authenticated-url-patterns',
      '/rest/**,/api/bookstore/opening-hours',
      async () => {
        assert.equal((await call(`${API}/opening-hours`, null)).status, 401)
        assert.equal((await call(`${API}/opening-hours`)).status, 200)
      }
    )
  })

  test('anonymous callers through an anonymous URL pattern run as the anonymous user', async ({
    assert,
  }) => {
    const revoke = await grantAnonymous(['bookstore-reader'])
    try {
      await withProperty(
        'svc.resource-server.anonymous-url-patterns',
        '/api/bookstore/summary',
        async () => {
          const r = await call(`${API}/summary`, null)
          assert.equal(r.status, 200)
          assert.equal(r.text, '4 books')
          assert.equal((await call(`${API}/books/${BOOKS.emma}`, null)).status, 401)
        }
      )
    } finally {
      await revoke()
    }
  })

  test('the start-up log lists the routes no pattern or protected group covers', async ({
    assert,
  }) => {
    const open = openRoutes()
    assert.include(open, 'GET,HEAD /api/bookstore/opening-hours')
    assert.include(open, 'GET,HEAD /health')
    assert.notInclude(open, 'GET,HEAD /api/bookstore/books/:id')
    assert.isFalse(open.some((route) => route.includes(' /rest/')))
    await withProperty(
      'svc.resource-server.authenticated-url-patterns',
      '/rest/**,/api/**',
      async () => assert.notInclude(openRoutes(), 'GET,HEAD /api/bookstore/opening-hours')
    )
  })
})
