/**
 * Named-query parameters beyond the scalar types (reference 2.8; README "Queries API"): array
 * parameters (`X[]`, bound to `in` / `notIn`; GET repeated values or a JSON array, POST a JSON
 * array) and the caller parameters `:session$userId` / `:session$username`, filled from the
 * subject and never from the request. Runs on SQLite and PostgreSQL (`--pg`).
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc, importDoc, snapshotState } from '#tests/helpers/engine'
import { CUSTOMER, ROWS, call } from '#tests/helpers/security'
import { Q, THING, THING_ID, THING_REF, setupQueriesFixture } from './queries_fixtures.js'

const T = `${Q}/${THING}`
const MINE = '00000000-0000-4000-8000-0000000007a3'
const labels = (body: any[]) => body.map((e) => e.label).sort()

const ARRAY_QUERIES = [
  {
    entity: THING,
    name: 'inLabels',
    filter: { conditions: [{ property: 'label', operator: 'in', value: ':labels' }] },
    params: [{ name: 'labels', type: 'string[]' }],
  },
  {
    entity: THING,
    name: 'notInQty',
    filter: { conditions: [{ property: 'qty', operator: 'notIn', value: [':qtys'] }] },
    params: [{ name: 'qtys', type: 'int[]' }],
  },
  {
    entity: THING,
    name: 'inRefsOr',
    filter: {
      conditions: [{ property: 'ref', operator: 'in', value: [':one', ':refs'] }],
    },
    params: [
      { name: 'one', type: 'uuid' },
      { name: 'refs', type: 'uuid[]' },
    ],
  },
  {
    entity: THING,
    name: 'mineByName',
    filter: { conditions: [{ property: 'label', operator: '=', value: ':session$username' }] },
    params: [],
  },
  {
    entity: THING,
    name: 'mineById',
    filter: { conditions: [{ property: 'ref', operator: '=', value: ':session$userId' }] },
  },
  {
    entity: CUSTOMER,
    name: 'ownedByMe',
    filter: { conditions: [{ property: 'ownerName', operator: '=', value: ':session$userLogin' }] },
  },
]

test.group('Queries API: array and caller parameters', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupQueriesFixture()
    await applyDoc({ queries: ARRAY_QUERIES })
    // A thing labelled and referenced as the admin user (`sec-admin`).
    const me = await User.findByOrFail('username', 'sec-admin')
    const created = await call('admin', 'POST', `/rest/entities/${THING}`, {
      id: MINE,
      label: 'sec-admin',
      qty: 9,
      ref: me.id,
    })
    if (created.status !== 201) throw new Error(JSON.stringify(created.body))
  })

  test('GET takes repeated values or one JSON array; POST a JSON array', async ({ assert }) => {
    const repeated = await call('admin', 'GET', `${T}/inLabels?labels=first&labels=second`)
    assert.equal(repeated.status, 200, JSON.stringify(repeated.body))
    assert.deepEqual(labels(repeated.body), ['first', 'second'])
    const json = await call(
      'admin',
      'GET',
      `${T}/inLabels?labels=${encodeURIComponent('["second","nope"]')}`
    )
    assert.deepEqual(labels(json.body), ['second'])
    const single = await call('admin', 'GET', `${T}/inLabels?labels=first`)
    assert.deepEqual(labels(single.body), ['first'])
    const post = await call('admin', 'POST', `${T}/inLabels`, { labels: ['first', 'sec-admin'] })
    assert.equal(post.status, 200)
    assert.deepEqual(labels(post.body), ['first', 'sec-admin'])
    const empty = await call('admin', 'POST', `${T}/inLabels`, { labels: [] })
    assert.deepEqual(empty.body, [])
    const count = await call('admin', 'POST', `${T}/inLabels/count`, { labels: ['first', 'x'] })
    assert.equal(count.body, 1)
  })

  test('notIn and arrays spliced into an in list, converted per element', async ({ assert }) => {
    const notIn = await call('admin', 'GET', `${T}/notInQty?qtys=7&qtys=9`)
    assert.equal(notIn.status, 200, JSON.stringify(notIn.body))
    assert.deepEqual(labels(notIn.body), ['second'])
    const upper = THING_REF.toUpperCase()
    const spliced = await call('admin', 'POST', `${T}/inRefsOr`, {
      one: '5b0a3c1e-0000-4a8b-9c7e-1d2e3f405162',
      refs: [upper],
    })
    assert.equal(spliced.status, 200, JSON.stringify(spliced.body))
    assert.deepEqual(
      spliced.body.map((e: any) => e.id),
      [THING_ID]
    )
  })

  test('an element its type cannot read, or an object: 400 Invalid query parameter', async ({
    assert,
  }) => {
    const before = await snapshotState()
    for (const [method, path, body] of [
      ['GET', `${T}/notInQty?qtys=7&qtys=x`, undefined],
      ['POST', `${T}/notInQty`, { qtys: [7, 1.5] }],
      ['POST', `${T}/notInQty`, { qtys: { a: 1 } }],
      ['POST', `${T}/notInQty`, { qtys: [[7]] }],
      ['GET', `${T}/inRefsOr?one=${THING_REF}&refs=not-a-uuid`, undefined],
    ] as const) {
      const reply = await call('admin', method, path, body)
      assert.equal(reply.status, 400, path)
      assert.equal(reply.body.error, 'Invalid query parameter')
    }
    const missing = await call('admin', 'GET', `${T}/notInQty`)
    assert.deepEqual(missing.body, {
      error: 'Query parameter not found',
      details: 'Query parameter qtys not found',
    })
    assert.equal(await snapshotState(), before)
  })

  test('the listing names array types', async ({ assert }) => {
    const list = await call('admin', 'GET', T)
    const byName = Object.fromEntries(list.body.map((q: any) => [q.name, q.params]))
    assert.deepEqual(byName.inLabels, [{ name: 'labels', type: 'java.lang.String[]' }])
    assert.deepEqual(byName.notInQty, [{ name: 'qtys', type: 'java.lang.Integer[]' }])
    assert.deepEqual(byName.mineByName, [])
  })

  test(':session$username and :session$userId are the caller, never the request', async ({
    assert,
  }) => {
    const byName = await call('admin', 'GET', `${T}/mineByName`)
    assert.equal(byName.status, 200, JSON.stringify(byName.body))
    assert.deepEqual(labels(byName.body), ['sec-admin'])
    const byId = await call('admin', 'POST', `${T}/mineById`, {})
    assert.deepEqual(
      byId.body.map((e: any) => e.id),
      [MINE]
    )
    // A request value of the same name changes nothing.
    const spoofed = await call('admin', 'GET', `${T}/mineByName?session$username=first`)
    assert.deepEqual(labels(spoofed.body), ['sec-admin'])
    const spoofedPost = await call('admin', 'POST', `${T}/mineByName`, {
      session$username: 'first',
    })
    assert.deepEqual(labels(spoofedPost.body), ['sec-admin'])
    assert.equal((await call('admin', 'GET', `${T}/mineById/count`)).body, 1)
  })

  test(':session$userLogin per caller; a client token has no user: nothing', async ({ assert }) => {
    const C = `${Q}/${CUSTOMER}/ownedByMe`
    const carol = await call('carol', 'GET', C)
    assert.equal(carol.status, 200)
    assert.deepEqual(
      carol.body.map((e: any) => e.name),
      ['Carla']
    )
    const alice = await call('alice', 'GET', C)
    assert.equal(alice.status, 200, JSON.stringify(alice.body))
    assert.deepEqual(alice.body, [])
    await db.from('sec_customer').where('id', ROWS.eu1).update({ owner_name: 'alice' })
    try {
      const owned = await call('alice', 'GET', C)
      assert.deepEqual(
        owned.body.map((e: any) => e.name),
        ['Erika']
      )
      assert.deepEqual(
        (await call('carol', 'GET', C)).body.map((e: any) => e.name),
        ['Carla']
      )
    } finally {
      await db.from('sec_customer').where('id', ROWS.eu1).update({ owner_name: null })
    }
    // svc is a client-credentials token: no username; the condition matches nothing.
    const svc = await call('svc', 'GET', C)
    assert.equal(svc.status, 200, JSON.stringify(svc.body))
    assert.deepEqual(svc.body, [])
    assert.equal((await call('svc', 'GET', `${C}/count`)).body, 0)
  })

  test('the definition refuses misuse of arrays and caller parameters', async ({ assert }) => {
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          filter: { conditions: [{ property: 'label', operator: '=', value: ':ls' }] },
          params: [{ name: 'ls', type: 'string[]' }],
        },
        "array parameter 'ls' may only be a value of an in or notIn condition",
      ],
      [
        {
          filter: { conditions: [{ property: 'label', operator: 'in', value: ':ls' }] },
          params: [{ name: 'ls', type: 'colour[]' }],
        },
        "'colour[]' is not one of",
      ],
      [
        {
          filter: { conditions: [{ property: 'label', operator: '=', value: ':session$userId' }] },
          params: [{ name: 'session$userId', type: 'uuid' }],
        },
        "'session$userId' is filled from the caller",
      ],
      [
        {
          filter: { conditions: [{ property: 'label', operator: '=', value: ':session$tenant' }] },
          params: [],
        },
        "unknown caller parameter ':session$tenant'",
      ],
      [
        {
          filter: { conditions: [{ property: 'qty', operator: '=', value: ':session$username' }] },
          params: [],
        },
        '$.queries[0].filter',
      ],
    ]
    for (const [query, expected] of cases) {
      const before = await snapshotState()
      const result = await importDoc({ queries: [{ entity: THING, name: 'bad', ...query }] })
      assert.equal(result.status, 'invalid', JSON.stringify(query))
      const problems = result.problems.map((p: any) => `${p.path}: ${p.message}`).join('\n')
      assert.include(problems, expected)
      assert.equal(await snapshotState(), before)
    }
  })
})
