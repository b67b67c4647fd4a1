/**
 * Services API (spec 4.3, reference 6): the demo's decorator service `bookstoreService` and
 * XML service `stockService` (app/services/demo), invoked with GET and POST as clients do.
 */
import { test } from '@japa/runner'
import { BOOKS, S, call, callPost, dataState, setupServices, tokens } from './services_fixtures.js'

const TEXT = 'text/plain;charset=UTF-8'
const JSON_TYPE = 'application/json;charset=UTF-8'

test.group('Services API: invocation of the decorator service', (group) => {
  group.setup(setupServices)

  test('simple parameter, text result, GET and POST', async ({ assert }) => {
    const get = await call(`${S}/bookstoreService/greet?name=Ann%20Lee`)
    assert.equal(get.status, 200)
    assert.equal(get.headers['content-type'], TEXT)
    assert.equal(get.text, 'Hello, Ann Lee!')
    const post = await callPost(`${S}/bookstoreService/greet`, { name: 'Bo' })
    assert.equal(post.status, 200)
    assert.equal(post.text, 'Hello, Bo!')
    // A POST takes its arguments from the body only: primitives in their text form.
    const number = await callPost(`${S}/bookstoreService/greet?name=ignored`, { name: 42 })
    assert.equal(number.text, 'Hello, 42!')
  })

  test('date and int parameters; a GET-only method refuses POST with 404', async ({ assert }) => {
    const r = await call(`${S}/bookstoreService/addDays?day=2024-02-27&days=3`)
    assert.equal(r.status, 200)
    assert.equal(r.text, '2024-03-01')
    const post = await callPost(`${S}/bookstoreService/addDays`, { day: '2024-02-27', days: 3 })
    assert.equal(post.status, 404)
    assert.deepEqual(post.body, {
      error: 'Service method not found',
      details: 'bookstoreService.addDays(day,days)',
    })
  })

  test('every simple datatype converts (GET texts, POST JSON values)', async ({ assert }) => {
    const args = {
      flag: 'true',
      count: '9007199254740991',
      ratio: '0.25',
      amount: '12.345',
      at: '08:30:00',
      when: '2024-05-06T07:08:09Z',
      ref: '1B4E28BA-2FA1-11D2-883F-0016D3CCA427',
      file: 'fs://2024/05/06/0f8fad5b-d9cb-469f-a165-70867728950e.png?name=a.png',
    }
    const expected = {
      flag: true,
      count: 9007199254740991,
      ratio: 0.25,
      amount: '12.345',
      at: '08:30:00',
      when: '2024-05-06T07:08:09.000Z',
      ref: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
      file: 'fs://2024/05/06/0f8fad5b-d9cb-469f-a165-70867728950e.png?name=a.png',
    }
    const get = await call(`${S}/bookstoreService/echo?${new URLSearchParams(args)}`)
    assert.equal(get.status, 200, get.text)
    assert.equal(get.headers['content-type'], JSON_TYPE)
    assert.deepEqual(get.body, expected)
    const post = await callPost(`${S}/bookstoreService/echo`, {
      ...args,
      flag: true,
      ratio: 0.25,
    })
    assert.deepEqual(post.body, expected)
  })

  test('uuid parameter, entity result serialized as the entities API does', async ({ assert }) => {
    const r = await call(`${S}/bookstoreService/book?id=${BOOKS.emma}`)
    assert.equal(r.status, 200)
    assert.equal(r.headers['content-type'], JSON_TYPE)
    const entity = await call(`/rest/entities/bookstore_Book/${BOOKS.emma}`)
    assert.deepEqual(r.body, entity.body)
    assert.equal(r.body._entityName, 'bookstore_Book')
    assert.equal(r.body.title, 'Emma')
  })

  test('enum and date parameters, collection-of-entities result', async ({ assert }) => {
    const r = await call(`${S}/bookstoreService/booksOfGenre?genre=FICTION&since=1800-01-01`)
    assert.equal(r.status, 200)
    assert.deepEqual(
      r.body.map((b: any) => [b._entityName, b.title]),
      [
        ['bookstore_Book', 'Dune'],
        ['bookstore_Book', 'Emma'],
      ]
    )
  })

  test('entity parameter (POST entity JSON), structured result', async ({ assert }) => {
    const r = await callPost(`${S}/bookstoreService/describeBook`, {
      book: { _entityName: 'bookstore_Book', title: 'Big', pageCount: 900 },
    })
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { title: 'Big', pages: 900, long: true })
  })

  test('entity-list parameter, GET as JSON text and POST', async ({ assert }) => {
    const tags = [{ name: 'a' }, { _entityName: 'bookstore_Tag', name: 'b' }]
    const get = await call(
      `${S}/bookstoreService/countTags?tags=${encodeURIComponent(JSON.stringify(tags))}`
    )
    assert.equal(get.text, '2')
    const post = await callPost(`${S}/bookstoreService/countTags`, { tags })
    assert.equal(post.status, 200)
    assert.equal(post.text, '2')
  })

  test('DTO parameter validated by its VineJS schema; structured result with an entity', async ({
    assert,
  }) => {
    const r = await callPost(`${S}/bookstoreService/quote`, {
      request: { bookId: BOOKS.emma, quantity: 2, coupon: 'READ10' },
    })
    assert.equal(r.status, 200)
    assert.equal(r.body.total, 7.65)
    assert.equal(r.body.quantity, 2)
    assert.equal(r.body.book._entityName, 'bookstore_Book')
    assert.equal(r.body.book.title, 'Emma')
  })

  test('void result: 204 with an empty text/plain body', async ({ assert }) => {
    const r = await callPost(`${S}/bookstoreService/ping`, '')
    assert.equal(r.status, 204)
    assert.equal(r.text, '')
  })
})

test.group('Services API: errors', (group) => {
  group.setup(setupServices)

  const invalid = (name: string) => ({
    error: 'Invalid parameter value',
    details: `Invalid parameter value for ${name}`,
  })

  test('a value that does not convert: 400 Invalid parameter value, nothing changed', async ({
    assert,
  }) => {
    const before = await dataState()
    const cases: [string, string][] = [
      ['addDays?day=2024-02-30&days=1', 'day'],
      ['addDays?day=2024-02-01&days=1.5', 'days'],
      ['addDays?day=2024-02-01&days=99999999999', 'days'],
      [`booksOfGenre?genre=WESTERN&since=2000-01-01`, 'genre'],
      ['book?id=not-a-uuid', 'id'],
      ['countTags?tags=%7Bnot-json', 'tags'],
      ['countTags?tags=%5B1%5D', 'tags'],
    ]
    for (const [path, param] of cases) {
      const r = await call(`${S}/bookstoreService/${path}`)
      assert.equal(r.status, 400, path)
      assert.deepEqual(r.body, invalid(param), path)
    }
    const post = [
      ['describeBook', { book: { _entityName: 'bookstore_Tag', name: 'x' } }, 'book'],
      ['quote', { request: { bookId: BOOKS.emma, quantity: 0 } }, 'request'],
      ['quote', { request: 'text' }, 'request'],
    ] as const
    for (const [method, body, param] of post) {
      const r = await callPost(`${S}/bookstoreService/${method}`, body)
      assert.equal(r.status, 400, method)
      assert.deepEqual(r.body, invalid(param), method)
    }
    assert.equal(await dataState(), before)
  })

  test('unknown method, missing or extra parameters: 404 Service method not found', async ({
    assert,
  }) => {
    const cases: [string, string][] = [
      ['bookstoreService/nope?a=1', 'bookstoreService.nope(a)'],
      ['bookstoreService/greet', 'bookstoreService.greet()'],
      ['bookstoreService/greet?name=a&other=b', 'bookstoreService.greet(name,other)'],
      ['unknownService/greet?name=a', 'unknownService.greet(name)'],
    ]
    for (const [path, details] of cases) {
      const r = await call(`${S}/${path}`)
      assert.equal(r.status, 404, path)
      assert.deepEqual(r.body, { error: 'Service method not found', details })
    }
  })

  test('tokens only in the Authorization header: 401 without it or in the query', async ({
    assert,
  }) => {
    const none = await call(`${S}/bookstoreService/greet?name=a`, null)
    assert.equal(none.status, 401)
    const inQuery = await call(
      `${S}/bookstoreService/greet?name=a&access_token=${tokens.full}`,
      null
    )
    assert.equal(inQuery.status, 401)
  })
})
