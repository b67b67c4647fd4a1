/**
 * Queries API (/rest/queries, reference 2.8; README "Queries API") through the real server:
 * listing, running by GET and POST, counting, the built-in `all`, every parameter type's
 * conversion and refusal, limits, returnCount, fetch plans, permissions and row-level filters.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { CUSTOMER, call, dataState, tokens } from '#tests/helpers/security'
import { baseUrl } from '#tests/helpers/oauth'
import {
  BAD,
  MATCHING,
  Q,
  THING,
  THING_ID,
  TYPED,
  setupQueriesFixture,
} from './queries_fixtures.js'

const C = `${Q}/${CUSTOMER}`
const names = (body: any[]) => body.map((e) => e.name)

test.group('Queries API', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupQueriesFixture()
  })

  test('GET /rest/queries/{entity} lists the queries with their parameters', async ({ assert }) => {
    const response = await call('admin', 'GET', C)
    assert.equal(response.status, 200)
    assert.deepEqual(response.body[0], {
      name: 'byMinLimit',
      jpql: null,
      entityName: CUSTOMER,
      viewName: '_base',
      fetchPlanName: '_base',
      limit: null,
      offset: null,
      cacheable: false,
      anonymousAllowed: false,
      params: [{ name: 'min', type: 'java.lang.Integer' }],
      filter: { conditions: [{ property: 'creditLimit', operator: '>=', value: ':min' }] },
      sort: 'name',
    })
    assert.deepEqual(names(response.body), ['byMinLimit', 'byNameNot', 'named'])
    const things = await call('admin', 'GET', `${Q}/${THING}`)
    const types = Object.fromEntries(things.body.map((q: any) => [q.name, q.params[0].type]))
    assert.equal(types.by_day, 'java.time.LocalDate')
    assert.equal(types.by_color, 'com.example.Color')
    assert.equal(types.by_customer, CUSTOMER)
  })

  test('unknown entity and unknown query: 404; no read permission: 403', async ({ assert }) => {
    assert.deepEqual((await call('admin', 'GET', `${Q}/nope_X`)).body, {
      error: 'Entity not found',
      details: 'Entity nope_X not found',
    })
    const missing = await call('admin', 'GET', `${C}/nope`)
    assert.equal(missing.status, 404)
    assert.deepEqual(missing.body, {
      error: 'Query not found',
      details: `Query with name nope for entity ${CUSTOMER} not found`,
    })
    assert.equal((await call('admin', 'GET', `${C}/nope/count`)).status, 404)
    for (const path of [C, `${C}/byMinLimit?min=1`, `${C}/all`, `${C}/nope`, `${C}/nope/count`]) {
      const denied = await call('dave', 'GET', path)
      assert.equal(denied.status, 403, path)
    }
    // alice may use the REST API but not read qry_Thing: 403 before any query lookup.
    for (const path of [`${Q}/${THING}`, `${Q}/${THING}/by_qty?v=7`, `${Q}/${THING}/nope`]) {
      const denied = await call('alice', 'GET', path)
      assert.equal(denied.status, 403, path)
      assert.equal(denied.body.error, 'Reading forbidden')
    }
    assert.equal((await call('anonymous', 'GET', `${C}/all`)).status, 401)
  })

  test('GET runs a query with its sort and fetch plan; POST takes the values as JSON', async ({
    assert,
  }) => {
    const get = await call('admin', 'GET', `${C}/byMinLimit?min=1000`)
    assert.equal(get.status, 200)
    assert.deepEqual(names(get.body), ['Carla', 'Emil', 'Erika', 'Uma'])
    assert.containsSubset(get.body[0], { _entityName: CUSTOMER, region: 'US', creditLimit: 1000 })
    assert.deepEqual((await call('admin', 'GET', `${C}/byMinLimit?min=1001`)).body, [])
    const post = await call('admin', 'POST', `${C}/byMinLimit?limit=2&offset=1`, { min: 1000 })
    assert.equal(post.status, 200)
    assert.deepEqual(names(post.body), ['Emil', 'Erika'])
    const posted = await call('admin', 'POST', `${C}/named`, { a: 'Uma', b: 'Erika' })
    assert.lengthOf(posted.body, 1, 'the query limit applies')
    const more = await call('admin', 'POST', `${C}/named?limit=5`, { a: 'Uma', b: 'Erika' })
    assert.sameMembers(names(more.body), ['Uma', 'Erika'], 'the request limit wins')
  })

  test('count: a bare number, JSON or text/plain', async ({ assert }) => {
    const json = await call('admin', 'GET', `${C}/byMinLimit/count?min=1000`)
    assert.equal(json.status, 200)
    assert.equal(json.body, 4)
    assert.match(json.headers.get('content-type')!, /^application\/json/)
    const post = await call('admin', 'POST', `${C}/named/count`, { a: 'Uma', b: 'Emil' })
    assert.equal(post.body, 2, 'count ignores the query limit')
    const text = await fetch(`${baseUrl()}${C}/byMinLimit/count?min=1000`, {
      headers: { Authorization: `Bearer ${tokens.get('admin')}`, Accept: 'text/plain' },
    })
    assert.equal(text.headers.get('content-type'), 'text/plain;charset=UTF-8')
    assert.equal(await text.text(), '4')
  })

  test('returnCount adds X-Total-Count; limit/offset page', async ({ assert }) => {
    const page = await call('admin', 'GET', `${C}/byMinLimit?min=0&limit=1&returnCount=true`)
    assert.equal(page.headers.get('x-total-count'), '4')
    assert.lengthOf(page.body, 1)
    const without = await call('admin', 'GET', `${C}/byMinLimit?min=0`)
    assert.isNull(without.headers.get('x-total-count'))
    const tooMany = await call('admin', 'GET', `${C}/byMinLimit?min=0&limit=1000000`)
    assert.equal(tooMany.status, 400)
    assert.equal(tooMany.body.error, 'The value of limit exceeded')
  })

  test('the built-in all query, in any case, with _instance_name', async ({ assert }) => {
    const all = await call('admin', 'GET', `${C}/ALL?returnCount=true`)
    assert.equal(all.status, 200)
    assert.equal(all.headers.get('x-total-count'), '4')
    const carla = all.body.find((c: any) => c.name === 'Carla')
    assert.containsSubset(carla, { _entityName: CUSTOMER, _instanceName: 'Carla 1000' })
    assert.notProperty(carla, 'email', '_instance_name: the instance name properties only')
    assert.equal((await call('admin', 'GET', `${C}/all/count`)).body, 4)
    const plan = await call('admin', 'GET', `${C}/all?fetchPlan=_base&limit=1`)
    assert.property(plan.body[0], 'name')
  })

  test('fetch plans: named only; an unknown one is a 400', async ({ assert }) => {
    const unknown = await call('admin', 'GET', `${C}/byMinLimit?min=0&fetchPlan=nope`)
    assert.equal(unknown.status, 400)
    assert.equal(unknown.body.error, 'Fetch plan not found')
    const inline = encodeURIComponent(JSON.stringify({ properties: ['name'] }))
    const refused = await call('admin', 'GET', `${C}/byMinLimit?min=0&fetchPlan=${inline}`)
    assert.equal(refused.status, 400)
    assert.equal(refused.body.error, 'Fetch plan not found')
  })

  test('every parameter type: converted from GET and POST values', async ({ assert }) => {
    for (const [attribute, type] of TYPED) {
      const path = `${Q}/${THING}/by_${attribute}`
      const get = await call('admin', 'GET', `${path}?v=${encodeURIComponent(MATCHING[type])}`)
      assert.equal(get.status, 200, `${type}: ${JSON.stringify(get.body)}`)
      assert.deepEqual(
        get.body.map((t: any) => t.id),
        [THING_ID],
        type
      )
      const post = await call('admin', 'POST', `${path}/count`, { v: MATCHING[type] })
      assert.equal(post.body, 1, `${type} (POST)`)
    }
    // Lenient JSON whatever the Content-Type, as upstream reads bodies.
    const lenient = await fetch(`${baseUrl()}${C}/byNameNot/count`, {
      method: 'POST',
      headers: { 'Authorization': `Bearer ${tokens.get('admin')}`, 'Content-Type': 'text/plain' },
      body: "{ n: 'Uma' }",
    })
    assert.equal(await lenient.text(), '3')
    const broken = await fetch(`${baseUrl()}${C}/byNameNot`, {
      method: 'POST',
      headers: {
        'Authorization': `Bearer ${tokens.get('admin')}`,
        'Content-Type': 'application/json',
      },
      body: '{ n: ',
    })
    assert.equal(broken.status, 400)
    assert.equal(((await broken.json()) as any).error, 'Malformed request JSON data structure')
    // JSON primitives in a POST body are read as their text.
    const typed = await call('admin', 'POST', `${Q}/${THING}/by_qty`, { v: 7 })
    assert.lengthOf(typed.body, 1)
    const bool = await call('admin', 'POST', `${Q}/${THING}/by_active/count`, { v: false })
    assert.equal(bool.body, 1)
  })

  test('every parameter type: a value it cannot read is a 400, nothing changes', async ({
    assert,
  }) => {
    const before = await dataState()
    for (const [attribute, type] of TYPED) {
      if (!(type in BAD)) continue
      const path = `${Q}/${THING}/by_${attribute}`
      for (const response of [
        await call('admin', 'GET', `${path}?v=${encodeURIComponent(BAD[type])}`),
        await call('admin', 'POST', `${path}/count`, { v: BAD[type] }),
      ]) {
        assert.equal(response.status, 400, type)
        assert.deepEqual(response.body, {
          error: 'Invalid query parameter',
          details: 'Cannot parse query parameter v',
        })
      }
    }
    const missing = await call('admin', 'GET', `${C}/byMinLimit`)
    assert.equal(missing.status, 400)
    assert.deepEqual(missing.body, {
      error: 'Query parameter not found',
      details: 'Query parameter min not found',
    })
    const nullValue = await call('admin', 'POST', `${C}/byMinLimit`, { min: null })
    assert.equal(nullValue.body.error, 'Query parameter not found')
    const array = await call('admin', 'POST', `${C}/byMinLimit`, [1])
    assert.equal(array.status, 400)
    assert.equal(await dataState(), before)
  })

  test('row-level filters apply: two users, different answers', async ({ assert }) => {
    // alice: eu-region; bob: us-region.
    const alice = await call('alice', 'GET', `${C}/byNameNot?n=Emil&returnCount=true`)
    const bob = await call('bob', 'GET', `${C}/byNameNot?n=Emil&returnCount=true`)
    assert.deepEqual(names(alice.body), ['Erika'])
    assert.equal(alice.headers.get('x-total-count'), '1')
    assert.deepEqual(names(bob.body), ['Carla', 'Uma'])
    assert.equal(bob.headers.get('x-total-count'), '2')
    assert.equal((await call('alice', 'POST', `${C}/byNameNot/count`, { n: 'x' })).body, 2)
    assert.equal((await call('bob', 'GET', `${C}/all/count`)).body, 2)
    // Attribute permissions: bob may not view creditLimit, neither in the answer nor in a filter.
    assert.notProperty(bob.body[0], 'creditLimit')
    const hidden = await call('bob', 'GET', `${C}/byMinLimit?min=0`)
    assert.equal(hidden.status, 400)
    assert.deepEqual(hidden.body, {
      error: 'Cannot parse entities filter',
      details: `Property for ${CUSTOMER} not found: creditLimit`,
    })
    assert.lengthOf((await call('alice', 'GET', `${C}/byMinLimit?min=0`)).body, 2)
  })
})
