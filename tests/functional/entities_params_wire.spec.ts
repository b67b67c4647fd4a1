/**
 * Entities API parameters on the wire (reference 1, 2.1-2.4, 3.2-3.3): query-string values with
 * raw commas as axios sends them, an empty fetch plan name, inline plans with references by name
 * and dotted paths. Content negotiation (406): entities_accept.spec.ts.
 */
import { test } from '@japa/runner'
import { E, IDS, get, loadDemo, seedBasics } from '#tests/helpers/entities_read'
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
