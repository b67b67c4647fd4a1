/**
 * The entity-read fast path (app/controllers/rest/fast_reads.ts) answers exactly what the
 * framework answers: every request below is sent twice, with the fast path on and off, and the
 * two responses must have the same status, the same headers (but the date and the request id)
 * and the same body bytes. Requests it must leave to the framework are counted as not served.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { fastReads } from '#controllers/rest/fast_reads'
import { E, IDS, currentToken, get, loadDemo, q, seedBasics } from '#tests/helpers/entities_read'
import { accessToken, makeClient, raw, type RawResponse } from '#tests/helpers/resource_server'

const VARYING = new Set(['date', 'x-request-id', 'keep-alive', 'connection'])

function comparable(response: RawResponse) {
  const headers = Object.fromEntries(
    Object.entries(response.headers).filter(([name]) => !VARYING.has(name))
  )
  return { status: response.status, headers, text: response.text }
}

/** The response with the fast path on and off, and whether the fast path answered it. */
async function both(send: () => Promise<RawResponse>) {
  fastReads.enabled = true
  const before = fastReads.served
  const fast = await send()
  const served = fastReads.served - before
  fastReads.enabled = false
  try {
    const slow = await send()
    return { fast, slow, served }
  } finally {
    fastReads.enabled = true
  }
}

const ANSWERED = [
  `${E}/bookstore_Book/${IDS.book1}`,
  `${E}/bookstore_Customer/${IDS.bob}?returnNulls=true`,
  `${E}/bookstore_Order/${IDS.order1}?fetchPlan=order-full`,
  `${E}/ref$Country/DE`,
  `${E}/bookstore_Book?fetchPlan=_instance_name&sort=title`,
  `${E}/bookstore_Book?returnCount=true&limit=1`,
  `${E}/bookstore_Order?sort=-date&limit=1&offset=1&returnCount=true`,
  `${E}/bookstore_Order?${q({ sort: 'customer.name, -date' })}`,
  `${E}/bookstore_Book/${IDS.book1}?${q({ fetchPlan: { entity: 'bookstore_Book', properties: ['title', { name: 'publisher', fetchPlan: '_instance_name' }] } })}`,
  `${E}/bookstore_Review`,
  `${E}/bookstore_Book/search?${q({ filter: { conditions: [{ property: 'title', operator: 'contains', value: 'un' }] }, returnCount: true })}`,
  `${E}/bookstore_Book/search?filter=${encodeURIComponent('{"conditions":[]}')}&limit=1`,
]

test.group('Entities API: the read fast path answers as the framework does', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
    // A token's first request is verified by the framework, which caches its subject.
    const { served } = await both(() => get(`${E}/bookstore_Book`))
    if (served !== 0) throw new Error('a token not verified before was served by the fast path')
  })

  test('reads it serves: same status, headers and bytes', async ({ assert }) => {
    for (const path of ANSWERED) {
      const { fast, slow, served } = await both(() => get(path))
      assert.equal(fast.status, 200, `${path}: ${fast.text}`)
      assert.equal(served, 1, `${path} was not served by the fast path`)
      assert.deepEqual(comparable(fast), comparable(slow), path)
      assert.match(fast.headers['x-request-id'] as string, /^[0-9a-f-]{36}$/)
      assert.equal(fast.headers['x-content-type-options'], 'nosniff')
    }
    const counted = await get(`${E}/bookstore_Book?returnCount=true&limit=1`)
    assert.equal(counted.headers['x-total-count'], '2')
  })

  test('a safe incoming request id and the request locale are honoured', async ({ assert }) => {
    const headers = { 'X-Request-Id': 'lb-4711.a', 'Accept-Language': 'de-DE,de;q=0.9' }
    const { fast, slow, served } = await both(() => get(`${E}/bookstore_Order`, headers))
    assert.equal(served, 1)
    assert.equal(fast.headers['x-request-id'], 'lb-4711.a')
    assert.deepEqual(comparable(fast), comparable(slow))
  })

  test('what it leaves to the framework is answered by the framework, unchanged', async ({
    assert,
  }) => {
    const token = currentToken()
    const auth = { Authorization: `Bearer ${token}` }
    const cases: [string, () => Promise<RawResponse>][] = [
      ['unknown entity', () => get(`${E}/bookstore_Nope`)],
      ['unknown id', () => get(`${E}/bookstore_Book/22222222-2222-4222-8222-999999999999`)],
      ['malformed id', () => get(`${E}/bookstore_Book/not-a-uuid`)],
      ['limit too high', () => get(`${E}/bookstore_Book?limit=10001`)],
      ['unknown fetch plan', () => get(`${E}/bookstore_Book?fetchPlan=nope`)],
      ['bad filter', () => get(`${E}/bookstore_Book/search?filter=%7Boops`)],
      ['no token', () => raw(`${E}/bookstore_Book`)],
      [
        'unknown token',
        () => raw(`${E}/bookstore_Book`, { headers: { Authorization: 'Bearer nope' } }),
      ],
      [
        'two tokens',
        () =>
          raw(`${E}/bookstore_Book`, {
            headers: { Authorization: [auth.Authorization, auth.Authorization] },
          }),
      ],
      ['token in the query', () => get(`${E}/bookstore_Book?access_token=${token}`)],
      ['NUL in the query', () => get(`${E}/bookstore_Book?sort=title%00`)],
      ['CORS', () => get(`${E}/bookstore_Book`, { Origin: 'https://elsewhere.example' })],
      ['Accept', () => get(`${E}/bookstore_Book`, { Accept: 'text/html' })],
      ['HEAD', () => raw(`${E}/bookstore_Book`, { method: 'HEAD', headers: auth })],
      [
        'count',
        () => get(`${E}/bookstore_Book/search/count?filter=%7B%22conditions%22%3A%5B%5D%7D`),
      ],
      ['trailing slash', () => get(`${E}/bookstore_Book/`)],
      ['escaped path', () => get(`${E}/bookstore%5FBook`)],
      ['dot segment', () => get(`${E}/bookstore_Book/../bookstore_Order`)],
      ['path too long (414)', () => get(`${E}/ref$Country/${'D'.repeat(4100)}`)],
    ]
    for (const [what, send] of cases) {
      const { fast, slow, served } = await both(send)
      assert.equal(served, 0, `${what} was answered by the fast path`)
      assert.deepEqual(comparable(fast), comparable(slow), what)
    }
  })

  test('a subject without rest.enabled is refused by the framework (403)', async ({ assert }) => {
    const { token } = await accessToken(await makeClient({ resourceRoles: [] }))
    const send = () => raw(`${E}/bookstore_Book`, { headers: { Authorization: `Bearer ${token}` } })
    await send() // the token is verified and cached by the framework
    const { fast, slow, served } = await both(send)
    assert.equal(served, 0)
    assert.deepEqual(comparable(fast), comparable(slow))
  })

  test('a database error: the exception handler answers it, the read runs once', async ({
    assert,
  }) => {
    const path = `${E}/bookstore_Review?fetchPlan=_local&limit=3`
    await db.rawQuery('ALTER TABLE bookstore_review RENAME TO bookstore_review_gone')
    try {
      const { served, errors } = fastReads
      const { fast, slow } = await both(() => get(path))
      // Answered by the fast path's error handling (not handed over: the read ran once).
      assert.equal(fastReads.errors - errors, 1)
      assert.equal(fastReads.served, served)
      assert.isAtLeast(fast.status, 500, fast.text)
      assert.deepEqual(comparable(fast), comparable(slow))
    } finally {
      await db.rawQuery('ALTER TABLE bookstore_review_gone RENAME TO bookstore_review')
    }
    const again = await get(path)
    assert.equal(again.status, 200, again.text)
  })
})
