/**
 * Entities API reads (reference 2.1, 2.2, 4.1-4.3): load by id and list against the demo
 * application, upstream JSON shapes, value formats, fetch plans, paging and errors.
 * Search and count: entities_read_search.spec.ts.
 */
import { test } from '@japa/runner'
import { E, IDS, currentToken, get, loadDemo, q, seedBasics } from '#tests/helpers/entities_read'
import { bearer, raw } from '#tests/helpers/resource_server'

test.group('Entities API: load by id', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
  })

  test('default _base: meta keys first, id as string, upstream value formats', async ({
    assert,
  }) => {
    const response = await get(`${E}/bookstore_Book/${IDS.book1}`)
    assert.equal(response.status, 200)
    assert.match(response.headers['content-type']!, /^application\/json;charset=UTF-8/)
    assert.deepEqual(response.body, {
      _entityName: 'bookstore_Book',
      _instanceName: 'Dune (Penguin)',
      id: IDS.book1,
      title: 'Dune',
      isbn: '9780441013593',
      genre: 'FICTION',
      publicationDate: '1965-08-01',
      pageCount: 412,
      price: 12.5,
      weightKg: 0.5,
      inPrint: true,
      cover: 'fs://2024/01/02/abc.jpg?name=dune.jpg',
      metadata: { series: 'Dune', n: 1 },
      version: 1,
      publisher: {
        _entityName: 'bookstore_Publisher',
        _instanceName: 'Penguin',
        id: IDS.publisher,
        name: 'Penguin',
        foundedOn: '1935-07-30',
      },
    })
    assert.deepEqual(Object.keys(response.body).slice(0, 3), ['_entityName', '_instanceName', 'id'])
  })

  test('dates, times, offset date-times, longs, booleans, json; nulls omitted', async ({
    assert,
  }) => {
    const response = await get(`${E}/bookstore_Customer/${IDS.alice}`)
    assert.equal(response.status, 200)
    assert.deepEqual(response.body, {
      _entityName: 'bookstore_Customer',
      _instanceName: 'Alice',
      id: IDS.alice,
      name: 'Alice',
      email: 'alice@example.com',
      birthDate: '1990-05-06',
      preferredContactTime: '09:30:00',
      newsletter: false,
      loyaltyPoints: 1200,
      preferences: { theme: 'dark' },
      version: 1,
      createdBy: 'admin',
      createdDate: '2024-02-03T04:05:06.789Z',
    })
  })

  test('returnNulls=true writes every plan attribute, null included', async ({ assert }) => {
    const response = await get(`${E}/bookstore_Customer/${IDS.bob}?returnNulls=true`)
    assert.equal(response.status, 200)
    assert.include(response.body, { phone: null, birthDate: null, externalRef: null })
    assert.property(response.body, 'deletedDate')
    assert.isNull(response.body.deletedDate)
  })

  test('string and long ids; the to-one instance name pattern', async ({ assert }) => {
    const country = await get(`${E}/ref$Country/DE`)
    assert.equal(country.status, 200)
    assert.deepEqual(country.body, {
      _entityName: 'ref$Country',
      _instanceName: 'Germany',
      id: 'DE',
      name: 'Germany',
      alpha3: 'DEU',
      euMember: true,
    })
    const order = await get(`${E}/bookstore_Order/${IDS.order1}`)
    assert.equal(order.body._instanceName, 'ORD-2024-000001 (Alice)')
    assert.equal(order.body.status, 'PAID')
    assert.equal(order.body.amount, 49.99)
    assert.equal(order.body.placedAt, '2024-03-01T10:00:00.000Z')
    assert.equal(order.body.date, '2024-03-01')
    // _base carries the instance name's reference with the target's _base.
    assert.equal(order.body.customer.name, 'Alice')
    assert.notProperty(order.body, 'lines')
  })

  test('named fetch plan: nested references and collections', async ({ assert }) => {
    const response = await get(`${E}/bookstore_Order/${IDS.order1}?fetchPlan=order-full`)
    assert.equal(response.status, 200)
    const body = response.body
    // order-full extends _base (customer with its _base), then merges _instance_name into it.
    assert.include(body.customer, {
      _entityName: 'bookstore_Customer',
      _instanceName: 'Alice',
      id: IDS.alice,
      name: 'Alice',
      email: 'alice@example.com',
    })
    assert.deepEqual(body.currency, {
      _entityName: 'ref$Currency',
      _instanceName: 'Euro (€)',
      id: 'EUR',
      name: 'Euro',
      symbol: '€',
    })
    assert.lengthOf(body.lines, 2)
    const first = body.lines.find((l: any) => l.position === 1)
    assert.equal(first._instanceName, 'Dune x 2')
    // lines extends _base (book with its _base); the nested plan adds isbn and publisher.
    assert.containsSubset(first.book, {
      _entityName: 'bookstore_Book',
      _instanceName: 'Dune (Penguin)',
      id: IDS.book1,
      title: 'Dune',
      isbn: '9780441013593',
      publisher: {
        _entityName: 'bookstore_Publisher',
        _instanceName: 'Penguin',
        id: IDS.publisher,
        name: 'Penguin',
      },
    })
    assert.deepEqual(first.discounts, [])
  })

  test('many-to-many and inline fetch plans; view alias; unknown properties ignored', async ({
    assert,
  }) => {
    const plan = {
      entity: 'bookstore_Book',
      properties: ['title', 'nope', { name: 'authors', fetchPlan: { properties: ['lastName'] } }],
    }
    const response = await get(`${E}/bookstore_Book/${IDS.book1}?${q({ fetchPlan: plan })}`)
    assert.equal(response.status, 200)
    assert.deepEqual(Object.keys(response.body), [
      '_entityName',
      '_instanceName',
      'id',
      'title',
      'authors',
    ])
    assert.sameMembers(
      response.body.authors.map((a: any) => `${a._instanceName}|${a.lastName}`),
      ['Frank Herbert|Herbert', 'Anonymous|Anonymous']
    )
    const legacy = await get(`${E}/bookstore_Book/${IDS.book1}?view=_instance_name`)
    assert.deepEqual(Object.keys(legacy.body), [
      '_entityName',
      '_instanceName',
      'id',
      'title',
      'publisher',
    ])
  })

  test('soft-deleted rows and unknown ids: 404 Entity not found', async ({ assert }) => {
    for (const id of [IDS.deletedBook, '99999999-9999-4999-8999-999999999999']) {
      const response = await get(`${E}/bookstore_Book/${id}`)
      assert.equal(response.status, 404)
      assert.deepEqual(response.body, {
        error: 'Entity not found',
        details: `Entity bookstore_Book with id ${id} not found`,
      })
    }
  })

  test('errors: unknown entity, unknown plan, invalid id, no token', async ({ assert }) => {
    const entity = await get(`${E}/bookstore_Nope/${IDS.book1}`)
    assert.equal(entity.status, 404)
    assert.deepEqual(entity.body, {
      error: 'Entity not found',
      details: 'Entity bookstore_Nope not found',
    })
    const plan = await get(`${E}/bookstore_Book/${IDS.book1}?fetchPlan=nope`)
    // Upstream RestControllerUtils.getView: 400 on reads (a response plan of a write: 404).
    assert.equal(plan.status, 400)
    assert.deepEqual(plan.body, {
      error: 'Fetch plan not found',
      details: 'Fetch plan nope for entity bookstore_Book not found',
    })
    const id = await get(`${E}/bookstore_Book/not-a-uuid`)
    assert.equal(id.status, 400)
    assert.deepEqual(id.body, {
      error: 'Invalid entity ID',
      details: 'Cannot convert not-a-uuid into valid entity ID',
    })
    // Inline JSON only when it starts with `{` and ends with `}` (RestControllerUtils.isJsonObject).
    const inline = await get(`${E}/bookstore_Book/${IDS.book1}?fetchPlan={oops}`)
    assert.equal(inline.status, 400)
    assert.equal(inline.body.error, 'Invalid FetchPlan definition')
    const name = await get(`${E}/bookstore_Book/${IDS.book1}?fetchPlan={oops`)
    assert.equal(name.status, 400)
    assert.deepEqual(name.body, {
      error: 'Fetch plan not found',
      details: 'Fetch plan {oops for entity bookstore_Book not found',
    })
    const anonymous = await raw(`${E}/bookstore_Book/${IDS.book1}`)
    assert.equal(anonymous.status, 401)
  })
})

test.group('Entities API: list', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
  })

  test('every live row, soft-deleted hidden; X-Total-Count only when asked', async ({ assert }) => {
    const response = await get(`${E}/bookstore_Book?fetchPlan=_instance_name&sort=title`)
    assert.equal(response.status, 200)
    assert.deepEqual(
      response.body.map((b: any) => b.title),
      ['100% Pure_Fun', 'Dune']
    )
    assert.notProperty(response.headers, 'x-total-count')
    const counted = await get(`${E}/bookstore_Book?returnCount=true&limit=1`)
    assert.equal(counted.headers['x-total-count'], '2')
    assert.lengthOf(counted.body, 1)
  })

  test('sort -a,+b with paths, limit and offset', async ({ assert }) => {
    const response = await get(`${E}/bookstore_Order?${q({ sort: 'customer.name, -date' })}`)
    assert.deepEqual(
      response.body.map((o: any) => o.number),
      ['ORD-2024-000001', 'ORD-2024-000003', 'ORD-2024-000002']
    )
    const page = await get(`${E}/bookstore_Order?sort=-date&limit=1&offset=1&returnCount=true`)
    assert.deepEqual(
      page.body.map((o: any) => o.number),
      ['ORD-2024-000001']
    )
    assert.equal(page.headers['x-total-count'], '3')
    // A to-one reference sorts by its instance name (customer.name).
    const byRef = await get(`${E}/bookstore_Order?sort=-customer`)
    assert.equal(byRef.body[0].number, 'ORD-2024-000002')
  })

  test('empty result is []; limit above the maximum is 400; malformed paging is 400', async ({
    assert,
  }) => {
    const empty = await get(`${E}/bookstore_Review`)
    assert.equal(empty.status, 200)
    assert.deepEqual(empty.body, [])
    const tooMany = await get(`${E}/bookstore_Book?limit=10001`)
    assert.equal(tooMany.status, 400)
    assert.deepEqual(tooMany.body, {
      error: 'The value of limit exceeded',
      details:
        'The value of the limit exceeds the maximum possible value from application.properties',
    })
    for (const bad of ['limit=abc', 'offset=-1', 'returnNulls=maybe', 'returnCount=2']) {
      const response = await get(`${E}/bookstore_Book?${bad}`)
      assert.equal(response.status, 400, bad)
      assert.equal(response.body.error, 'Invalid parameter')
    }
    const sort = await get(`${E}/bookstore_Book?${q({ sort: 'title; drop table x' })}`)
    assert.equal(sort.status, 400)
  })

  test('HEAD answers like GET without a body; OPTIONS lists the methods', async ({ assert }) => {
    const head = await raw(`${E}/bookstore_Book?returnCount=true`, {
      method: 'HEAD',
      headers: bearer(currentToken()),
    })
    assert.equal(head.status, 200)
    assert.equal(head.text, '')
    assert.equal(head.headers['x-total-count'], '2')
    const options = await raw(`${E}/bookstore_Book/search`, {
      method: 'OPTIONS',
      headers: bearer(currentToken()),
    })
    assert.equal(options.status, 200)
    assert.include(options.headers.allow!, 'GET')
    assert.include(options.headers.allow!, 'POST')
    assert.include(options.headers.allow!, 'OPTIONS')
  })

  test('dynamicAttributes is accepted and ignored', async ({ assert }) => {
    const response = await get(`${E}/bookstore_Book?dynamicAttributes=true`)
    assert.equal(response.status, 200)
    assert.lengthOf(response.body, 2)
  })
})
