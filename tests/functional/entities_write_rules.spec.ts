/**
 * Entities API write rules (reference 2.5-2.7, 4.7, 4.9, 5.2; architecture 5: conflicts 409):
 * optimistic locking (body version, If-Match, concurrent updates), validation (400 array,
 * nothing written), bulk all-or-nothing, delete 204 / soft delete / onDelete deny.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import {
  E,
  count,
  createOrder,
  ids,
  loadWriteDemo,
  orderBody,
  orderCounts,
  row,
  send,
} from '#tests/functional/entities_write_fixtures'

test.group('Entities API: optimistic locking', (group) => {
  group.setup(() => loadWriteDemo())

  test('stale version in the body or If-Match: 409, nothing changed', async ({ assert }) => {
    const url = `${E}/bookstore_Customer/${ids.customer}`
    const ok = await send('PUT', url, { name: 'Ann B', version: 1 })
    assert.equal(ok.status, 200, ok.text)
    assert.equal(ok.body.version, 2)
    const stale = await send('PUT', url, { name: 'Stale', version: 1 })
    assert.equal(stale.status, 409)
    assert.equal(stale.body.error, 'Optimistic lock')
    const header = await send('PUT', url, { name: 'Stale' }, { 'If-Match': '1' })
    assert.equal(header.status, 409)
    const stored = await row('bookstore_customer', ids.customer)
    assert.equal(stored.name, 'Ann B')
    assert.equal(stored.version, 2)
    const current = await send('PUT', url, { name: 'Ann C' }, { 'If-Match': '"2"' })
    assert.equal(current.status, 200, current.text)
  })

  test('concurrent updates with the same version: exactly one wins', async ({ assert }) => {
    const url = `${E}/bookstore_Book/${ids.book2}`
    const version = (await row('bookstore_book', ids.book2)).version
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send('PUT', url, { title: `T${i}`, version }))
    )
    const statuses = responses.map((r) => r.status).sort()
    assert.deepEqual(statuses, [200, 409, 409, 409, 409, 409], responses.map((r) => r.text).join())
    const winner = responses.findIndex((r) => r.status === 200)
    const stored = await row('bookstore_book', ids.book2)
    assert.equal(stored.title, `T${winner}`)
    assert.equal(stored.version, version + 1)
  })
})

test.group('Entities API: validation', (group) => {
  group.setup(() => loadWriteDemo())

  test('create: upstream 400 array, nothing written', async ({ assert }) => {
    const before = await orderCounts()
    const body = orderBody({ number: 'bad', amount: -1 })
    ;(body.lines[0] as any).quantity = 1000
    ;(body.lines[0] as any).discounts[1].voucherCode = 'x'
    delete (body as any).date
    const response = await send('POST', `${E}/bookstore_Order`, body)
    assert.equal(response.status, 400)
    const byPath = Object.fromEntries(response.body.map((v: any) => [v.path, v]))
    assert.deepEqual(byPath.number, {
      message: 'must match "^ORD-[0-9]{4}-[0-9]{6}$"',
      messageTemplate: '{jakarta.validation.constraints.Pattern.message}',
      path: 'number',
      invalidValue: 'bad',
    })
    assert.equal(
      byPath.amount.messageTemplate,
      '{jakarta.validation.constraints.DecimalMin.message}'
    )
    assert.equal(byPath.date.message, 'must not be null')
    assert.equal(byPath['lines[0].quantity'].message, 'must be less than or equal to 999')
    assert.equal(byPath['lines[0].quantity'].invalidValue, 1000)
    assert.include(Object.keys(byPath), 'lines[0].discounts[1].voucherCode')
    for (const v of response.body) {
      assert.deepEqual(Object.keys(v), ['message', 'messageTemplate', 'path', 'invalidValue'])
    }
    assert.deepEqual(await orderCounts(), before)
  })

  test('update: length and unique; nothing written', async ({ assert }) => {
    const other = await send('POST', `${E}/bookstore_Customer`, {
      name: 'Z',
      email: 'z@example.com',
    })
    assert.equal(other.status, 201, other.text)
    const before = await row('bookstore_customer', other.body.id)
    const response = await send('PUT', `${E}/bookstore_Customer/${other.body.id}`, {
      name: 'x'.repeat(151),
      email: 'ann@example.com',
    })
    assert.equal(response.status, 400)
    assert.deepEqual(
      response.body.map((v: any) => [v.path, v.message]),
      [
        ['name', 'size must be between 0 and 150'],
        ['email', 'must be unique'],
      ]
    )
    assert.deepEqual(await row('bookstore_customer', other.body.id), before)
  })

  test('inverse one-to-one by id; a mandatory key cannot be cleared', async ({ assert }) => {
    const card = await send('POST', `${E}/bookstore_LoyaltyCard`, {
      cardNumber: '1234567890123456',
      issuedOn: '2024-01-01',
      customer: { id: ids.customer },
    })
    assert.equal(card.status, 201, card.text)
    const other = await send('POST', `${E}/bookstore_Customer`, {
      name: 'Y',
      email: 'y@example.com',
    })
    const moved = await send('PUT', `${E}/bookstore_Customer/${other.body.id}`, {
      loyaltyCard: { id: card.body.id },
    })
    assert.equal(moved.status, 200, moved.text)
    assert.equal((await row('bookstore_loyalty_card', card.body.id)).customer_id, other.body.id)
    const cleared = await send('PUT', `${E}/bookstore_Customer/${other.body.id}`, {
      loyaltyCard: null,
    })
    assert.equal(cleared.status, 400)
    assert.equal(cleared.body[0].path, 'loyaltyCard')
    assert.equal((await row('bookstore_loyalty_card', card.body.id)).customer_id, other.body.id)
  })

  test('bulk create: all-or-nothing, paths entities[i]', async ({ assert }) => {
    const before = await orderCounts()
    const response = await send('POST', `${E}/bookstore_Order`, [
      orderBody(),
      orderBody({ status: null }),
    ])
    assert.equal(response.status, 400)
    assert.deepEqual(
      response.body.map((v: any) => v.path),
      ['entities[1].status']
    )
    assert.deepEqual(await orderCounts(), before)
  })

  test('bulk update: all-or-nothing; not an array 400; missing id 400', async ({ assert }) => {
    const a = await createOrder()
    const b = await createOrder()
    const response = await send('PUT', `${E}/bookstore_Order`, [
      { id: a, note: 'first' },
      { id: b, quantity: 1 },
    ])
    assert.equal(response.status, 400)
    assert.isNull((await row('bookstore_order', a)).note)
    const ok = await send('PUT', `${E}/bookstore_Order`, [
      { id: a, note: 'first' },
      { id: b, note: 'second' },
    ])
    assert.equal(ok.status, 200, ok.text)
    assert.deepEqual(
      ok.body.map((o: any) => [o.id, o.version]),
      [
        [a, 2],
        [b, 2],
      ]
    )
    const notArray = await send('PUT', `${E}/bookstore_Order`, { id: a })
    assert.equal(notArray.body.error, 'The body of bulk update request should be an array')
    const noId = await send('PUT', `${E}/bookstore_Order`, [{ note: 'x' }])
    assert.equal(noId.status, 400)
  })
})

test.group('Entities API: delete', (group) => {
  group.setup(() => loadWriteDemo())

  test('unknown entity 404, response plan 400 before writing, malformed JSON 400, no token 401', async ({
    assert,
  }) => {
    const unknown = await send('POST', `${E}/nope_Entity`, { name: 'x' })
    assert.deepEqual(unknown.body, {
      error: 'Entity not found',
      details: 'Entity nope_Entity not found',
    })
    const before = await count('bookstore_tag')
    // Upstream (RestControllerUtils.getFetchPlan): 400, as on reads; an empty name too.
    for (const [method, path, body] of [
      ['POST', '', { name: 'np' }],
      ['PUT', '', [{ id: ids.tag, name: 'np' }]],
      ['PUT', `/${ids.tag}`, { name: 'np' }],
    ] as const) {
      for (const [query, name] of [
        ['responseView=nope', 'nope'],
        ['responseFetchPlan=nope', 'nope'],
        ['responseFetchPlan=', ''],
      ]) {
        const plan = await send(method, `${E}/bookstore_Tag${path}?${query}`, body)
        assert.equal(plan.status, 400, query)
        assert.deepEqual(plan.body, {
          error: 'Fetch plan not found',
          details: `Fetch plan ${name} for entity bookstore_Tag not found`,
        })
      }
    }
    assert.equal(await count('bookstore_tag'), before)
    assert.equal((await row('bookstore_tag', ids.tag)).name, 'classic')
    // An empty responseView, as the old npm client sends for an unset option: no plan.
    const minimal = await send('PUT', `${E}/bookstore_Tag/${ids.tag}?responseView=`, {})
    assert.equal(minimal.status, 200, minimal.text)
    assert.deepEqual(Object.keys(minimal.body), ['_entityName', '_instanceName', 'id'])
    const malformed = await send('POST', `${E}/bookstore_Tag`, '{oops')
    assert.equal(malformed.status, 400)
    assert.deepEqual(malformed.body, {
      error: 'Malformed request JSON data structure',
      details: 'The request body is not valid JSON: invalid end of input at line 1, column 6',
    })
    const badUpdate = await send('PUT', `${E}/bookstore_Tag/${ids.tag}`, '{oops')
    assert.equal(badUpdate.body.error, 'Cannot deserialize an entity from JSON')
    const anonymous = await send('DELETE', `${E}/bookstore_Tag/${ids.tag}`, undefined, {
      Authorization: '',
    })
    assert.equal(anonymous.status, 401)
    assert.equal(await count('bookstore_tag', { id: ids.tag }), 1)
  })

  test('DELETE: 204, composition children deleted, then 404', async ({ assert }) => {
    const id = await createOrder()
    const response = await send('DELETE', `${E}/bookstore_Order/${id}`)
    assert.equal(response.status, 204)
    assert.equal(response.text, '')
    assert.equal(await count('bookstore_order', { id }), 0)
    assert.equal(await count('bookstore_order_line', { order_id: id }), 0)
    assert.equal(await count('bookstore_order_line_discount'), 0)
    assert.equal((await send('DELETE', `${E}/bookstore_Order/${id}`)).status, 404)
  })

  test('soft delete: row kept and marked, then hidden (404 on update and delete)', async ({
    assert,
  }) => {
    const created = await send('POST', `${E}/bookstore_Publisher`, { name: 'Gone Ltd' })
    const id = created.body.id
    assert.equal((await send('DELETE', `${E}/bookstore_Publisher/${id}`)).status, 204)
    const stored = await row('bookstore_publisher', id)
    assert.isNotNull(stored.deleted_date)
    assert.isNotNull(stored.deleted_by)
    assert.equal((await send('PUT', `${E}/bookstore_Publisher/${id}`, { name: 'x' })).status, 404)
    assert.equal((await send('DELETE', `${E}/bookstore_Publisher/${id}`)).status, 404)
    const again = await send('POST', `${E}/bookstore_Publisher`, { name: 'Gone Ltd' })
    assert.equal(again.status, 201, 'unique among live rows only')
  })

  test('onDelete deny: 409 Delete policy violation, nothing deleted', async ({ assert }) => {
    await createOrder()
    const response = await send('DELETE', `${E}/bookstore_Customer/${ids.customer}`)
    assert.equal(response.status, 409)
    assert.deepEqual(response.body, {
      error: 'Delete policy violation',
      details:
        'Unable to delete bookstore_Customer because there are references from bookstore_Order',
    })
    assert.isNull((await row('bookstore_customer', ids.customer)).deleted_date)
  })

  test('bulk DELETE: ids or objects; object without id 400', async ({ assert }) => {
    const tags = await send('POST', `${E}/bookstore_Tag`, [{ name: 'a1' }, { name: 'a2' }])
    const [t1, t2] = tags.body.map((t: any) => t.id)
    const noId = await send('DELETE', `${E}/bookstore_Tag`, [{ name: 'a1' }])
    assert.equal(noId.status, 400, `${noId.status} ${noId.text}`)
    assert.deepEqual(noId.body, {
      error: 'Required attribute id is not presented',
      details: 'Required attribute id is not presented',
    })
    const response = await send('DELETE', `${E}/bookstore_Tag`, [t1, { id: t2 }])
    assert.equal(response.status, 204)
    assert.equal(await count('bookstore_tag', { id: t1 }), 0)
    assert.equal(
      await db
        .from('bookstore_tag')
        .whereIn('id', [t1, t2])
        .count('* as n')
        .first()
        .then((r) => Number(r!.n)),
      0
    )
  })
})
