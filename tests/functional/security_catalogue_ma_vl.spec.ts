/**
 * Catalogue rows MA2, MA4, MA8-MA11 (mass assignment, prototype pollution) and VL1-VL9
 * (optimistic locking) on the security fixture. MA1, MA3 and MA7 are in
 * entities_write*.spec.ts / entities_params.spec.ts; MA5/MA6 (multipart) in files_pollution.spec.ts;
 * MA12 concerns the services API, which this server does not have yet.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { baseUrl } from '#tests/helpers/oauth'
import {
  CUSTOMER,
  E,
  ORDER,
  ROWS,
  call,
  dataState,
  seed,
  setupSecurityFixture,
} from '#tests/helpers/security'

const C = `${E}/${CUSTOMER}`
const O = `${E}/${ORDER}`
const version = async (id: string) =>
  Number((await db.from('sec_customer').where('id', id).first()).version)

test.group('catalogue MA rows: mass assignment', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
  })
  group.each.setup(() => seed())
  group.each.teardown(({ context }) => {
    context.assert.isUndefined(({} as any).polluted, 'Object.prototype is unchanged')
    context.assert.isUndefined(({} as any).isAdmin)
  })

  test('MA2 constructor.prototype in a body: refused, no pollution', async ({ assert }) => {
    const before = await dataState()
    const response = await call('admin', 'POST', C, {
      name: 'x',
      constructor: { prototype: { polluted: 1 } },
    })
    assert.equal(response.status, 400)
    assert.equal(await dataState(), before)
  })

  test('MA4 a token request with __proto__[client_id] is parsed flat', async ({ assert }) => {
    const response = await fetch(`${baseUrl()}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=a&__proto__[client_id]=b&client_secret=x',
    })
    assert.equal(response.status, 401)
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_client')
  })

  test('MA8 Lucid internals in a body: 400, never an insert turned update', async ({ assert }) => {
    const before = await dataState()
    for (const key of ['$isPersisted', '$attributes', '$original', '$isDeleted', '$extras']) {
      const response = await call('admin', 'POST', C, { name: 'x', [key]: { id: ROWS.eu1 } })
      assert.equal(response.status, 400, key)
    }
    assert.equal(await dataState(), before)
  })

  test('MA9 system attributes and a foreign id in the body are ignored', async ({ assert }) => {
    const response = await call('admin', 'PUT', `${O}/${ROWS.orderEu}`, {
      id: ROWS.orderUs,
      number: 'O-EU2',
      createdBy: 'mallory',
      createdDate: '2001-01-01T00:00:00',
      lastModifiedBy: 'mallory',
    })
    assert.equal(response.status, 200)
    assert.equal(response.body.id, ROWS.orderEu)
    const row = await db.from('sec_order').where('id', ROWS.orderEu).first()
    assert.equal(row.number, 'O-EU2')
    assert.equal(row.last_modified_by, 'sec-admin', 'server-set')
    assert.notEqual(row.created_by, 'mallory')
    assert.equal((await db.from('sec_order').where('id', ROWS.orderUs).first()).number, 'O-US')
  })

  test('MA10 a version in a create body is ignored: the new row has version 1', async ({
    assert,
  }) => {
    const response = await call('admin', 'POST', C, { name: 'V', version: 99 })
    assert.equal(response.status, 201)
    assert.equal(response.body.version, 1)
    assert.equal(await version(response.body.id), 1)
  })

  test("MA11 a composition child of another order: 404, the other order's line unchanged", async ({
    assert,
  }) => {
    const before = await dataState()
    const response = await call('admin', 'PUT', `${O}/${ROWS.orderEu}`, {
      lines: [{ id: ROWS.lineUs, product: 'stolen', qty: 1 }],
    })
    assert.equal(response.status, 404)
    assert.equal(await dataState(), before)
  })
})

test.group('catalogue VL rows: optimistic locking', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
  })
  group.each.setup(async () => {
    await seed()
    // Version n = 3.
    await db.from('sec_customer').where('id', ROWS.eu1).update({ version: 3 })
  })

  const put = (body: Record<string, unknown>) => call('admin', 'PUT', `${C}/${ROWS.eu1}`, body)

  test('VL1-VL3 stale, rolled back and future versions: 409, nothing changed', async ({
    assert,
  }) => {
    const before = await dataState()
    for (const v of [2, 1, 0, 8]) {
      const response = await put({ name: 'X', version: v })
      assert.equal(response.status, 409, String(v))
      assert.equal(response.body.error, 'Optimistic lock')
    }
    assert.equal(await dataState(), before)
    assert.equal(await version(ROWS.eu1), 3, 'the version never decreases')
  })

  test('VL4 versions that are not whole numbers: 400, nothing changed', async ({ assert }) => {
    const before = await dataState()
    for (const v of ['3', 'n', -1, 1.5, null, true]) {
      const response = await put({ name: 'X', version: v })
      assert.equal(response.status, 400, JSON.stringify(v))
    }
    assert.equal(await dataState(), before)
  })

  test('VL5 no version: accepted (documented policy), the version still moves on', async ({
    assert,
  }) => {
    const response = await put({ name: 'No version' })
    assert.equal(response.status, 200)
    assert.equal(response.body.version, 4)
  })

  test('VL6 one stale version in a bulk update of 10: 409 for the whole batch', async ({
    assert,
  }) => {
    const ids = Array.from({ length: 9 }, (_, i) => `00000000-0000-4000-8000-0000000f00${10 + i}`)
    await db
      .table('sec_customer')
      .multiInsert(ids.map((id, i) => ({ id, name: `B${i}`, region: 'EU', version: 1 })))
    const before = await dataState()
    const body = [
      ...ids.map((id) => ({ id, name: 'bulk', version: 1 })),
      { id: ROWS.eu1, name: 'bulk', version: 2 },
    ]
    const response = await call('admin', 'PUT', C, body)
    assert.equal(response.status, 409)
    assert.equal(await dataState(), before)
  })

  test('VL7 DELETE takes no version: the documented behaviour', async ({ assert }) => {
    // DELETE carries no body version upstream; a stale copy cannot resurrect or keep a row.
    const response = await call('admin', 'DELETE', `${C}/${ROWS.eu2}`)
    assert.equal(response.status, 204)
    const again = await put({ name: 'X', version: 3 })
    assert.equal(again.status, 200)
  })

  test('VL8 two concurrent composition updates: one wins whole, the other gets 409', async ({
    assert,
  }) => {
    const update = (product: string) =>
      call('admin', 'PUT', `${O}/${ROWS.orderEu}`, {
        version: 1,
        lines: [
          { id: ROWS.lineSmall, product, qty: 1 },
          { id: ROWS.lineBig, product, qty: 500 },
        ],
      })
    const results = await Promise.all([update('A'), update('B')])
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409])
    const products = (await db.from('sec_order_line').where('order_id', ROWS.orderEu)).map(
      (l) => l.product
    )
    assert.equal(new Set(products).size, 1, `lines from one writer only: ${products}`)
    assert.equal(Number((await db.from('sec_order').where('id', ROWS.orderEu).first()).version), 2)
  })

  test('VL9 the response carries n+1; reusing n is then a conflict', async ({ assert }) => {
    const first = await put({ name: 'Once', version: 3 })
    assert.equal(first.status, 200)
    assert.equal(first.body.version, 4)
    const second = await put({ name: 'Twice', version: 3 })
    assert.equal(second.status, 409)
    assert.equal((await db.from('sec_customer').where('id', ROWS.eu1).first()).name, 'Once')
  })
})
