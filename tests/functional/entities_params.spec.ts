/**
 * Entities API details not covered by entities_read*.spec.ts / entities_write*.spec.ts (issue 4
 * items 1-2; reference 2.1-2.6, 3.1, 16): HEAD, OPTIONS, `search`/`count` route precedence,
 * `returnNulls`, `view`/`responseView`, `responseFetchPlan` on update, a configured maximum page
 * size, `returnCount`, bulk update all-or-nothing, enums by name, to-many filter paths.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { importDoc } from '#tests/helpers/engine'
import { bearer, raw } from '#tests/helpers/resource_server'
import {
  E,
  IDS,
  currentToken,
  get,
  loadDemo,
  post,
  q,
  seedBasics,
} from '#tests/helpers/entities_read'
import { createOrder, loadWriteDemo, row, send } from '#tests/functional/entities_write_fixtures'

const cond = (property: string, operator: string, value?: unknown) =>
  value === undefined ? { property, operator } : { property, operator, value }
const filter = (...conditions: unknown[]) => ({ conditions })
const call = (method: string, path: string, headers: Record<string, string> = {}, body = '') =>
  raw(path, { method, headers: { ...bearer(currentToken()), ...headers }, body })
const json = (method: string, path: string, body: unknown) =>
  call(method, path, { 'Content-Type': 'application/json' }, JSON.stringify(body))
const allow = (header: string | undefined) => (header ?? '').split(/\s*,\s*/).sort()

async function numbers(body: unknown, path = 'search') {
  const response = await post(`${E}/bookstore_Order/${path}`, body)
  if (response.status !== 200) throw new Error(`${response.status} ${response.text}`)
  return path === 'search' ? response.body.map((o: any) => o.number).sort() : response.body
}

test.group('Entities API: parameters and routes (reads)', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
  })

  test('HEAD: GET headers without a body, 404 too; OPTIONS: Allow per route', async ({
    assert,
  }) => {
    const head = await call('HEAD', `${E}/bookstore_Customer/${IDS.alice}`)
    assert.equal(head.status, 200)
    assert.match(head.headers['content-type']!, /^application\/json/)
    assert.equal(head.text, '')
    const missing = await call('HEAD', `${E}/bookstore_Customer/${IDS.order1}`)
    assert.equal(missing.status, 404)
    assert.equal(missing.text, '')
    const search = await call(
      'HEAD',
      `${E}/bookstore_Order/search?${q({ filter: filter(), returnCount: 'true', limit: '1' })}`
    )
    assert.equal(search.status, 200)
    assert.equal(search.headers['x-total-count'], '3')
    assert.equal(search.text, '')

    const expected: Record<string, string[]> = {
      '': ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'],
      [`/${IDS.alice}`]: ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT'],
      // As Spring's Allow: the union of every mapping whose pattern matches, and PUT/DELETE
      // of `:id` do match `search` (see the precedence test).
      '/search': ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'],
      '/search/count': ['GET', 'HEAD', 'OPTIONS', 'POST'],
    }
    for (const [suffix, methods] of Object.entries(expected)) {
      const options = await call('OPTIONS', `${E}/bookstore_Customer${suffix}`)
      assert.equal(options.status, 200, suffix)
      assert.deepEqual(allow(options.headers.allow), methods, suffix)
      assert.equal(options.text, '')
    }
    // No PATCH mapping: upstream answers 405, and nothing changes.
    const patch = await call('PATCH', `${E}/bookstore_Customer/${IDS.alice}`)
    assert.equal(patch.status, 405)
    assert.equal((await row('bookstore_customer', IDS.alice)).name, 'Alice')
  })

  test('route precedence: search wins over :id for GET/POST only; count is an id', async ({
    assert,
  }) => {
    await db.table('ref_country').multiInsert([
      { id: 'search', name: 'Searchland', alpha3: 'SRC' },
      { id: 'count', name: 'Countland', alpha3: 'CNT' },
    ])
    // GET .../search is the search route (no filter: not the entity `search`).
    const search = await get(`${E}/ref$Country/search`)
    assert.notEqual(search.status, 200)
    assert.notEqual(search.body?.name, 'Searchland')
    // `count` is literal only after `search`: .../count is the entity with id `count`.
    const byId = await get(`${E}/ref$Country/count`)
    assert.equal(byId.status, 200)
    assert.equal(byId.body.name, 'Countland')
    const counted = await get(`${E}/ref$Country/search/count?${q({ filter: filter() })}`)
    assert.equal(counted.text, '4')
    // PUT and DELETE have no `search` route: they reach the entity whose id is `search`.
    const put = await json('PUT', `${E}/ref$Country/search`, { name: 'Renamed' })
    assert.equal(put.status, 200, put.text)
    assert.equal((await row('ref_country', 'search')).name, 'Renamed')
    assert.equal((await call('DELETE', `${E}/ref$Country/count`)).status, 204)
    assert.isNull(await row('ref_country', 'count'))
  })

  test('returnNulls on list and search; view alias on list and search; empty view', async ({
    assert,
  }) => {
    const plain = await get(`${E}/bookstore_Customer?sort=name`)
    assert.notProperty(plain.body[1], 'phone')
    const list = await get(`${E}/bookstore_Customer?sort=name&returnNulls=true`)
    assert.include(list.body[1], { name: 'Bob', phone: null, birthDate: null })
    const bySearch = await post(`${E}/bookstore_Customer/search`, {
      filter: filter(cond('name', '=', 'Bob')),
      returnNulls: true,
      view: '_instance_name',
    })
    assert.deepEqual(bySearch.body, [
      { _entityName: 'bookstore_Customer', _instanceName: 'Bob', id: IDS.bob, name: 'Bob' },
    ])
    const viewed = await get(
      `${E}/bookstore_Order?${q({ view: 'order-with-lines', sort: 'number' })}`
    )
    assert.lengthOf(viewed.body[0].lines, 2)
    assert.equal(viewed.body[0].customer._instanceName, 'Alice')
    const getSearch = await get(
      `${E}/bookstore_Customer/search?${q({ filter: filter(), view: '_instance_name', sort: 'name' })}`
    )
    assert.deepEqual(Object.keys(getSearch.body[0]), ['_entityName', '_instanceName', 'id', 'name'])
    // The old client writes an unset option as `view=`: the default plan, as upstream.
    const empty = await get(`${E}/bookstore_Customer/${IDS.bob}?view=`)
    assert.equal(empty.status, 200, empty.text)
    assert.equal(empty.body.email, 'bob@example.com')
  })

  test('configured maximum page size: default page, above it 400', async ({ assert }) => {
    await importDoc({ settings: { 'svc.rest.default-max-fetch-size': 2 } })
    try {
      const page = await get(`${E}/bookstore_Order?returnCount=true&sort=number`)
      assert.equal(page.status, 200)
      assert.lengthOf(page.body, 2, 'no limit: the maximum is the default page size')
      assert.equal(page.headers['x-total-count'], '3')
      assert.equal((await get(`${E}/bookstore_Order?limit=2`)).status, 200)
      // limit=0 is "no limit" upstream (not an empty page): the default page.
      assert.lengthOf((await get(`${E}/bookstore_Order?limit=0`)).body, 2)
      for (const response of [
        await get(`${E}/bookstore_Order?limit=3`),
        await get(`${E}/bookstore_Order/search?${q({ filter: filter(), limit: '3' })}`),
        await post(`${E}/bookstore_Order/search`, { filter: filter(), limit: 3 }),
      ]) {
        assert.equal(response.status, 400)
        assert.equal(response.body.error, 'The value of limit exceeded')
      }
    } finally {
      await importDoc({ settings: { 'svc.rest.default-max-fetch-size': null } })
    }
    assert.equal((await get(`${E}/bookstore_Order?limit=3`)).status, 200)
  })

  test('returnCount: total ignores paging, exposed for CORS; absent when false', async ({
    assert,
  }) => {
    // Cross-origin access is opt-in (config/cors.ts); the header is exposed once allowed.
    const origin = 'http://localhost:5173'
    await importDoc({ settings: { 'svc.cors.allowed-origins': origin } })
    try {
      const beyond = await get(`${E}/bookstore_Order?returnCount=true&offset=10`, {
        Origin: origin,
      })
      assert.deepEqual(beyond.body, [])
      assert.equal(beyond.headers['x-total-count'], '3')
      const exposed = String(beyond.headers['access-control-expose-headers']).toLowerCase()
      assert.include(exposed, 'x-total-count')
    } finally {
      await importDoc({ settings: { 'svc.cors.allowed-origins': null } })
    }
    const off = await get(`${E}/bookstore_Order?returnCount=false`)
    assert.notProperty(off.headers, 'x-total-count')
  })

  test('enums by constant name in filters; a stored id is not a name', async ({ assert }) => {
    assert.deepEqual(await numbers({ filter: filter(cond('status', 'in', ['PAID', 'SHIPPED'])) }), [
      'ORD-2024-000001',
      'ORD-2024-000003',
    ])
    assert.deepEqual(await numbers({ filter: filter(cond('status', 'notIn', ['PAID'])) }), [
      'ORD-2024-000002',
      'ORD-2024-000003',
    ])
    const books = await post(`${E}/bookstore_Book/search`, {
      filter: filter(cond('genre', '=', 'FICTION')),
    })
    assert.deepEqual(
      books.body.map((b: any) => `${b.title}:${b.genre}`),
      ['Dune:FICTION']
    )
    const byId = await post(`${E}/bookstore_Order/search`, {
      filter: filter(cond('status', '=', 'P')),
    })
    assert.equal(byId.status, 400)
    assert.deepEqual(byId.body, {
      error: 'Cannot parse entities filter',
      details: 'Cannot parse enum value: P',
    })
  })

  test('filters through to-many relations: exists semantics, no duplicate rows', async ({
    assert,
  }) => {
    // Order 1 has two lines with quantity >= 1: it appears (and counts) once.
    const any = { filter: filter(cond('lines.quantity', '>=', 1)), returnCount: true }
    const response = await post(`${E}/bookstore_Order/search`, any)
    assert.deepEqual(response.body.map((o: any) => o.number).sort(), [
      'ORD-2024-000001',
      'ORD-2024-000002',
    ])
    assert.equal(response.headers['x-total-count'], '2')
    assert.equal(await numbers(any, 'search/count'), 2)
    // `<>` on a to-many path: some line whose book is not Dune (order 2 has only Dune).
    assert.deepEqual(await numbers({ filter: filter(cond('lines.book.title', '<>', 'Dune')) }), [
      'ORD-2024-000001',
    ])
    // Both conditions on the same collection, in an OR group, with an enum path.
    const either = {
      group: 'OR',
      conditions: [cond('lines.quantity', '=', 2), cond('customer.name', '=', 'Bob')],
    }
    assert.deepEqual(await numbers({ filter: filter(either, cond('status', '<>', 'NEW')) }), [
      'ORD-2024-000001',
    ])
    // From the "one" side to the orders of a customer (inverse one-to-many).
    const customers = await post(`${E}/bookstore_Customer/search`, {
      filter: filter(cond('orders.status', '=', 'SHIPPED')),
    })
    assert.deepEqual(
      customers.body.map((c: any) => c.name),
      ['Alice']
    )
  })
})

test.group('Entities API: parameters of writes', (group) => {
  group.setup(() => loadWriteDemo())

  test('responseView on create; responseFetchPlan and responseView on update', async ({
    assert,
  }) => {
    const created = await send('POST', `${E}/bookstore_Tag?responseView=_local`, { name: 'rv' })
    assert.equal(created.status, 201, created.text)
    assert.deepEqual(Object.keys(created.body), ['_entityName', '_instanceName', 'id', 'name'])
    const bulk = await send('POST', `${E}/bookstore_Tag?responseFetchPlan=_local`, [
      { name: 'b1', color: '#111111' },
    ])
    assert.equal(bulk.body[0].color, '#111111')

    const id = await createOrder()
    const minimal = await send('PUT', `${E}/bookstore_Order/${id}`, { note: 'one' })
    assert.deepEqual(Object.keys(minimal.body), ['_entityName', '_instanceName', 'id', 'version'])
    const full = await send('PUT', `${E}/bookstore_Order/${id}?responseFetchPlan=_local`, {
      note: 'two',
    })
    assert.equal(full.status, 200, full.text)
    assert.include(full.body, { id, note: 'two', version: 3, status: 'NEW' })
    assert.notProperty(full.body, 'lines')
    const legacy = await send('PUT', `${E}/bookstore_Order/${id}?responseView=order-with-lines`, {
      note: 'three',
    })
    assert.lengthOf(legacy.body.lines, 2)
    assert.equal(legacy.body.customer._instanceName, 'Ann')
    const inline = { properties: ['note'] }
    const bulkUpdate = await send(
      'PUT',
      `${E}/bookstore_Order?${q({ responseFetchPlan: inline })}`,
      [{ id, note: 'four' }]
    )
    assert.equal(bulkUpdate.status, 200, bulkUpdate.text)
    assert.equal(bulkUpdate.body[0].note, 'four')
    assert.equal((await row('bookstore_order', id)).version, 5)
  })

  test('bulk update: a violation in the last element changes no row', async ({ assert }) => {
    const [a, b, c] = [await createOrder(), await createOrder(), await createOrder()]
    const before = await db.from('bookstore_order').whereIn('id', [a, b, c]).orderBy('id')
    const response = await send('PUT', `${E}/bookstore_Order`, [
      { id: a, note: 'first', status: 'PAID' },
      { id: b, amount: 1 },
      { id: c, number: 'not an order number' },
    ])
    assert.equal(response.status, 400)
    assert.deepEqual(
      response.body.map((v: any) => [v.path, v.invalidValue]),
      [['entities[2].number', 'not an order number']]
    )
    const after = await db.from('bookstore_order').whereIn('id', [a, b, c]).orderBy('id')
    assert.deepEqual(after, before)
  })
})
