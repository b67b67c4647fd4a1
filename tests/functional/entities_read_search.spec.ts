/**
 * Entities API search and count (reference 2.3, 2.4, 3.1): GET with a URL-encoded filter, POST
 * with every option in a (lenient) JSON body, bare-number counts, filter semantics in SQL
 * (paths through to-one and to-many relations, enums by name, LIKE escaping, empty lists) and
 * the upstream error bodies.
 */
import { test } from '@japa/runner'
import { E, IDS, get, loadDemo, post, q, seedBasics } from '#tests/helpers/entities_read'

const cond = (property: string, operator: string, value?: unknown) =>
  value === undefined ? { property, operator } : { property, operator, value }
const filter = (...conditions: unknown[]) => ({ conditions })

async function numbers(body: unknown) {
  const response = await post(`${E}/bookstore_Order/search`, body)
  if (response.status !== 200) throw new Error(`${response.status} ${response.text}`)
  return response.body.map((o: any) => o.number).sort()
}

test.group('Entities API: search and count', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
  })

  test('GET search: URL-encoded filter, options as query parameters', async ({ assert }) => {
    const f = filter(cond('customer.name', '=', 'Alice'))
    const response = await get(
      `${E}/bookstore_Order/search?${q({ filter: f, sort: '-date', returnCount: 'true' })}`
    )
    assert.equal(response.status, 200)
    assert.deepEqual(
      response.body.map((o: any) => o.number),
      ['ORD-2024-000001', 'ORD-2024-000003']
    )
    assert.equal(response.headers['x-total-count'], '2')
  })

  test('POST search: options in the body, X-Total-Count only from the body', async ({ assert }) => {
    const body = {
      filter: filter(cond('status', 'in', ['PAID', 'NEW'])),
      fetchPlan: '_instance_name',
      sort: 'number',
      limit: 1,
      offset: 1,
      returnCount: true,
    }
    const response = await post(`${E}/bookstore_Order/search?returnCount=false`, body)
    assert.equal(response.status, 200)
    assert.deepEqual(response.body, [
      {
        _entityName: 'bookstore_Order',
        _instanceName: 'ORD-2024-000002 (Bob)',
        id: IDS.order2,
        number: 'ORD-2024-000002',
        customer: {
          _entityName: 'bookstore_Customer',
          _instanceName: 'Bob',
          id: IDS.bob,
          name: 'Bob',
        },
      },
    ])
    assert.equal(response.headers['x-total-count'], '2')
    const noCount = await post(`${E}/bookstore_Order/search?returnCount=true`, {
      filter: filter(),
    })
    assert.notProperty(noCount.headers, 'x-total-count')
    assert.lengthOf(noCount.body, 3)
  })

  test('lenient JSON body: unquoted keys and single quotes', async ({ assert }) => {
    const response = await post(
      `${E}/bookstore_Order/search`,
      "{filter: {conditions: [{property: 'number', operator: 'endsWith', value: '0002'}]}}"
    )
    assert.equal(response.status, 200)
    assert.deepEqual(
      response.body.map((o: any) => o.number),
      ['ORD-2024-000002']
    )
  })

  test('count: GET and POST answer a bare number', async ({ assert }) => {
    const f = filter(cond('amount', '>', 20))
    const byGet = await get(`${E}/bookstore_Order/search/count?${q({ filter: f })}`)
    assert.equal(byGet.status, 200)
    assert.equal(byGet.text, '1')
    assert.match(byGet.headers['content-type']!, /^application\/json/)
    const byPost = await post(`${E}/bookstore_Order/search/count`, { filter: filter() })
    assert.equal(byPost.text, '3')
    const books = await post(`${E}/bookstore_Book/search/count`, { filter: filter() })
    assert.equal(books.text, '2', 'soft-deleted rows are not counted')
  })

  test('groups, to-many paths (EXISTS), many-to-many, references by id', async ({ assert }) => {
    const or = {
      group: 'OR',
      conditions: [cond('amount', '>=', 40), cond('status', '=', 'SHIPPED')],
    }
    assert.deepEqual(await numbers({ filter: filter(or) }), ['ORD-2024-000001', 'ORD-2024-000003'])
    assert.deepEqual(await numbers({ filter: filter(cond('lines.book.title', '=', 'Dune')) }), [
      'ORD-2024-000001',
      'ORD-2024-000002',
    ])
    assert.deepEqual(
      await numbers({ filter: filter(cond('lines.book.authors.lastName', '=', 'Herbert')) }),
      ['ORD-2024-000001', 'ORD-2024-000002']
    )
    assert.deepEqual(await numbers({ filter: filter(cond('lines', 'isNull')) }), [
      'ORD-2024-000003',
    ])
    assert.deepEqual(await numbers({ filter: filter(cond('customer', '=', { id: IDS.bob })) }), [
      'ORD-2024-000002',
    ])
    assert.deepEqual(await numbers({ filter: filter(cond('customer', '<>', IDS.bob)) }), [
      'ORD-2024-000001',
      'ORD-2024-000003',
    ])
    assert.deepEqual(await numbers({ filter: filter(cond('amount', 'isNull', true)) }), [
      'ORD-2024-000003',
    ])
    // Soft-deleted related rows never match.
    const gone = await post(`${E}/bookstore_Book/search/count`, {
      filter: filter(cond('publisher.name', '=', 'Gone Press')),
    })
    assert.equal(gone.text, '0')
  })

  test('LIKE is case-insensitive and escapes % and _; empty in / notIn', async ({ assert }) => {
    const titles = async (operator: string, value: string) => {
      const response = await post(`${E}/bookstore_Book/search`, {
        filter: filter(cond('title', operator, value)),
      })
      return response.body.map((b: any) => b.title).sort()
    }
    assert.deepEqual(await titles('contains', '%'), ['100% Pure_Fun'])
    assert.deepEqual(await titles('contains', '_'), ['100% Pure_Fun'])
    assert.deepEqual(await titles('startsWith', 'du'), ['Dune'])
    assert.deepEqual(await titles('doesNotContain', 'PURE'), ['Dune'])
    assert.deepEqual(await titles('endsWith', '\\'), [])
    assert.deepEqual(await numbers({ filter: filter(cond('status', 'in', [])) }), [])
    assert.lengthOf(await numbers({ filter: filter(cond('status', 'notIn', [])) }), 3)
  })

  test('booleans, dates, offset date-times and enums in conditions', async ({ assert }) => {
    const books = await post(`${E}/bookstore_Book/search`, {
      filter: filter(cond('inPrint', '=', true), cond('publicationDate', '<', '1970-01-01')),
    })
    assert.deepEqual(
      books.body.map((b: any) => b.title),
      ['Dune']
    )
    assert.deepEqual(await numbers({ filter: filter(cond('date', '>=', '2024-03-01')) }), [
      'ORD-2024-000001',
      'ORD-2024-000002',
    ])
    assert.deepEqual(await numbers({ filter: filter(cond('status', '<>', 'PAID')) }), [
      'ORD-2024-000002',
      'ORD-2024-000003',
    ])
  })

  test('filter errors: upstream strings, 400', async ({ assert }) => {
    const cases: [unknown, string, string][] = [
      [{}, 'Cannot parse entities filter', 'Entities filter cannot be null'],
      [
        { filter: filter(cond('foo', '=', 1)) },
        'Cannot parse entities filter',
        'Property for bookstore_Order not found: foo',
      ],
      [
        { filter: filter(cond('number', '>', 'x')) },
        'Cannot parse entities filter',
        'Operator > is not available for java type java.lang.String',
      ],
      [
        { filter: filter(cond('status', '=', 'NOPE')) },
        'Cannot parse entities filter',
        'Cannot parse enum value: NOPE',
      ],
      [
        { filter: { conditions: [null] } },
        'Malformed request JSON data structure',
        'JSON array element null is not a valid JSON object literal',
      ],
    ]
    for (const [body, error, details] of cases) {
      const response = await post(`${E}/bookstore_Order/search`, body)
      assert.equal(response.status, 400, JSON.stringify(body))
      assert.deepEqual(response.body, { error, details })
    }
    const missing = await get(`${E}/bookstore_Order/search`)
    assert.equal(missing.status, 400)
    assert.deepEqual(missing.body, {
      error: 'Cannot parse entities filter',
      details: 'Entities filter cannot be null',
    })
    const countMissing = await get(`${E}/bookstore_Order/search/count`)
    assert.equal(countMissing.status, 400)
    const badPlan = await post(`${E}/bookstore_Order/search`, { filter: filter(), fetchPlan: 5 })
    assert.equal(badPlan.status, 400)
    assert.equal(badPlan.body.error, 'Invalid FetchPlan definition')
    const badJson = await post(`${E}/bookstore_Order/search`, '{filter: ')
    assert.equal(badJson.status, 400)
    const unknown = await post(`${E}/bookstore_Nope/search/count`, { filter: filter() })
    assert.equal(unknown.status, 404)
    assert.deepEqual(unknown.body, {
      error: 'Entity not found',
      details: 'Entity bookstore_Nope not found',
    })
  })

  test('route precedence: literal search and search/count win over :id', async ({ assert }) => {
    const search = await get(`${E}/ref$Country/search?${q({ filter: filter() })}`)
    assert.equal(search.status, 200)
    assert.lengthOf(search.body, 2)
    const count = await get(`${E}/ref$Country/search/count?${q({ filter: filter() })}`)
    assert.equal(count.text, '2')
    const byId = await get(`${E}/ref%24Country/GB`)
    assert.equal(byId.body.name, 'United Kingdom')
  })
})
