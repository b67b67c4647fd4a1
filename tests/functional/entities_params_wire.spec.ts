/**
 * Entities API parameters on the wire (reference 1, 2.1-2.4, 3.2-3.3): query-string values with
 * raw commas as axios sends them, an empty fetch plan name, inline plans with references by name
 * and dotted paths. Content negotiation (406): entities_accept.spec.ts.
 */
import { test } from '@japa/runner'
import { E, IDS, get, loadDemo, post, seedBasics } from '#tests/helpers/entities_read'
import { createOrder, loadWriteDemo, send } from '#tests/functional/entities_write_fixtures'
import { axiosQuery as qs } from '#tests/helpers/query_string'

const JSON_UTF8 = 'application/json;charset=UTF-8'

const cond = (property: string, operator: string, value: unknown) => ({
  property,
  operator,
  value,
})
const numbers = (body: any[]) => body.map((o) => o.number)
const ref = (entity: string, instanceName: string, id: string) => ({
  _entityName: entity,
  _instanceName: instanceName,
  id,
})
const alice = ref('bookstore_Customer', 'Alice', IDS.alice)
const order1 = (extra: Record<string, unknown>) => ({
  ...ref('bookstore_Order', 'ORD-2024-000001 (Alice)', IDS.order1),
  ...extra,
})

test.group('Entities API: raw commas in query-string values', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
  })

  test('sort with two keys', async ({ assert }) => {
    for (const sort of ['customer.name,-number', 'customer.name, -number']) {
      const path = `${E}/bookstore_Order?${qs({ sort })}`
      assert.include(path, 'name,')
      const response = await get(path)
      assert.equal(response.status, 200, response.text)
      assert.equal(response.headers['content-type'], JSON_UTF8)
      assert.deepEqual(numbers(response.body), [
        'ORD-2024-000003',
        'ORD-2024-000001',
        'ORD-2024-000002',
      ])
    }
    const books = await get(`${E}/bookstore_Book?sort=-currency.name,-title`)
    assert.deepEqual(
      books.body.map((b: any) => b.title),
      ['Dune', '100% Pure_Fun']
    )
  })

  test('GET search and search/count with a filter of two conditions', async ({ assert }) => {
    const filter = {
      conditions: [
        cond('customer.name', '=', 'Alice'),
        { group: 'OR', conditions: [cond('status', '=', 'SHIPPED'), cond('amount', '>', 100)] },
      ],
    }
    const path = `${E}/bookstore_Order/search?${qs({ filter, returnCount: true, sort: 'date,number' })}`
    assert.include(path, '%7D,%7B')
    const search = await get(path)
    assert.equal(search.status, 200, search.text)
    assert.equal(search.headers['content-type'], JSON_UTF8)
    assert.equal(search.headers['x-total-count'], '1')
    assert.deepEqual(numbers(search.body), ['ORD-2024-000003'])

    const count = await get(`${E}/bookstore_Order/search/count?${qs({ filter })}`)
    assert.equal(count.status, 200, count.text)
    assert.equal(count.headers['content-type'], JSON_UTF8)
    assert.equal(count.text, '1')
  })

  test('an inline fetch plan on load and list', async ({ assert }) => {
    const fetchPlan = { entity: 'bookstore_Book', properties: ['title', 'isbn'] }
    const load = await get(`${E}/bookstore_Book/${IDS.book1}?${qs({ fetchPlan })}`)
    assert.equal(load.status, 200, load.text)
    assert.equal(load.headers['content-type'], JSON_UTF8)
    assert.deepEqual(load.body, {
      ...ref('bookstore_Book', 'Dune (Penguin)', IDS.book1),
      title: 'Dune',
      isbn: '9780441013593',
    })
    const list = await get(`${E}/bookstore_Book?${qs({ fetchPlan, sort: 'title' })}`)
    assert.equal(list.status, 200, list.text)
    assert.deepEqual(
      list.body.map((b: any) => Object.keys(b)),
      [
        ['_entityName', '_instanceName', 'id', 'title', 'isbn'],
        ['_entityName', '_instanceName', 'id', 'title', 'isbn'],
      ]
    )
  })
})

test.group('Entities API: raw commas in parameters of writes', (group) => {
  group.setup(() => loadWriteDemo())

  test('an inline responseFetchPlan', async ({ assert }) => {
    const id = await createOrder()
    const plan = { properties: ['number', 'note', 'version'] }
    const response = await send(
      'PUT',
      `${E}/bookstore_Order/${id}?${qs({ responseFetchPlan: plan })}`,
      {
        note: 'commas',
      }
    )
    assert.equal(response.status, 200, response.text)
    assert.match(response.headers['content-type']!, /^application\/json/)
    assert.deepEqual(Object.keys(response.body), [
      '_entityName',
      '_instanceName',
      'id',
      'number',
      'note',
      'version',
    ])
    assert.include(response.body, { id, note: 'commas', version: 2 })
  })
})

test.group('Entities API: fetch plan parameters', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
  })

  test('an empty fetchPlan is a plan not found (RestControllerUtils.getFetchPlan)', async ({
    assert,
  }) => {
    const notFound = {
      error: 'Fetch plan not found',
      details: 'Fetch plan  for entity bookstore_Order not found',
    }
    const filter = qs({ filter: { conditions: [] } })
    for (const path of [
      `${E}/bookstore_Order?fetchPlan=`,
      `${E}/bookstore_Order/${IDS.order1}?fetchPlan=`,
      `${E}/bookstore_Order/${IDS.order1}?fetchPlan=&view=_local`,
      `${E}/bookstore_Order/search?${filter}&fetchPlan=`,
    ]) {
      const response = await get(path)
      assert.equal(response.status, 400, path)
      assert.match(response.headers['content-type']!, /^application\/json/, path)
      assert.deepEqual(response.body, notFound, path)
    }
    // POST search: upstream's unwrapped FetchPlanNotFoundException is a 500; ours the same 400.
    const body = await post(`${E}/bookstore_Order/search`, { filter: {}, fetchPlan: '' })
    assert.equal(body.status, 400)
    assert.deepEqual(body.body, notFound)
    // An empty `view` (the old client's unset option) is no plan: `_base`, as the releases that
    // read `view` answered (2.0: isNullOrEmpty; 2.8 ignores the parameter).
    for (const path of [
      `${E}/bookstore_Order/${IDS.order1}`,
      `${E}/bookstore_Order/${IDS.order1}?view=`,
    ]) {
      const base = await get(path)
      assert.equal(base.status, 200, path)
      assert.equal(base.headers['content-type'], JSON_UTF8)
      assert.include(base.body.customer, { ...alice, email: 'alice@example.com' }, path)
      assert.equal(base.body.number, 'ORD-2024-000001', path)
    }
  })

  test('inline: a reference by name only gets an empty nested plan (FetchPlanBuilder)', async ({
    assert,
  }) => {
    for (const customer of ['customer', { name: 'customer' }]) {
      const fetchPlan = { properties: ['number', customer] }
      const response = await get(`${E}/bookstore_Order/${IDS.order1}?${qs({ fetchPlan })}`)
      assert.equal(response.status, 200, response.text)
      assert.equal(response.headers['content-type'], JSON_UTF8)
      assert.deepEqual(response.body, order1({ number: 'ORD-2024-000001', customer: alice }))
    }
    const lines = await post(`${E}/bookstore_Order/search`, {
      filter: { conditions: [cond('number', '=', 'ORD-2024-000001')] },
      fetchPlan: { properties: ['lines'] },
    })
    assert.equal(lines.status, 200, lines.text)
    assert.deepEqual(lines.body[0].lines.map((l: any) => [l._entityName, l._instanceName]).sort(), [
      ['bookstore_OrderLine', '100% Pure_Fun x 1'],
      ['bookstore_OrderLine', 'Dune x 2'],
    ])
    assert.deepEqual(
      lines.body[0].lines.map((l: any) => Object.keys(l)),
      [
        ['_entityName', '_instanceName', 'id'],
        ['_entityName', '_instanceName', 'id'],
      ]
    )
  })

  test('inline: dotted paths build the nested plans', async ({ assert }) => {
    const load = (properties: unknown[]) =>
      get(`${E}/bookstore_Order/${IDS.order1}?${qs({ fetchPlan: { properties } })}`)
    const email = await load(['number', 'customer.email'])
    assert.equal(email.status, 200, email.text)
    assert.deepEqual(
      email.body,
      order1({ number: 'ORD-2024-000001', customer: { ...alice, email: 'alice@example.com' } })
    )
    // Merged with the same reference given otherwise, in either order.
    const merged = await load([
      'customer.email',
      { name: 'customer', fetchPlan: { properties: ['birthDate'] } },
      'customer',
    ])
    assert.deepEqual(merged.body.customer, {
      ...alice,
      email: 'alice@example.com',
      birthDate: '1990-05-06',
    })
    // Two levels, through a collection.
    const deep = await load(['lines.book.title', 'lines.quantity'])
    assert.equal(deep.status, 200, deep.text)
    const line = deep.body.lines.find((l: any) => l.quantity === 2)
    assert.deepEqual(line, {
      _entityName: 'bookstore_OrderLine',
      _instanceName: 'Dune x 2',
      id: line.id,
      book: { ...ref('bookstore_Book', 'Dune (Penguin)', IDS.book1), title: 'Dune' },
      quantity: 2,
    })
    // Unknown names are ignored (a known reference keeps its empty plan, as upstream).
    const unknown = await load(['number', 'nope.x', 'customer.nope'])
    assert.equal(unknown.status, 200, unknown.text)
    assert.deepEqual(unknown.body, order1({ number: 'ORD-2024-000001', customer: alice }))
    // A path through a datatype attribute: upstream's IllegalStateException (500); ours a 400.
    const text = JSON.stringify({ properties: ['number.length'] })
    const invalid = await get(`${E}/bookstore_Order/${IDS.order1}?${qs({ fetchPlan: text })}`)
    assert.equal(invalid.status, 400)
    assert.deepEqual(invalid.body, { error: 'Invalid FetchPlan definition', details: text })
  })
})
