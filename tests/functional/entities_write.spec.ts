/**
 * Entities API writes (reference 2.5, 2.6, 4.4-4.6; spec 4.2 rules 1-6): create single and
 * bulk, compositions two levels deep, partial update, to-one by id, to-many replace,
 * composition children updated/created/deleted. Conflicts, validation and delete:
 * entities_write_rules.spec.ts.
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
  row,
  send,
} from '#tests/functional/entities_write_fixtures'

test.group('Entities API: create', (group) => {
  group.setup(() => loadWriteDemo())

  test('POST one: 201, Location, minimal body, values stored per datatype', async ({ assert }) => {
    const response = await send('POST', `${E}/bookstore_Customer`, {
      name: 'Bob',
      email: 'bob@example.com',
      birthDate: '1990-05-17',
      preferredContactTime: '09:30:00',
      newsletter: true,
      loyaltyPoints: '42',
      preferences: { theme: 'dark' },
      preferredCurrency: { id: 'EUR' },
      createdBy: 'intruder',
      _instanceName: 'ignored',
    })
    assert.equal(response.status, 201, response.text)
    const id = response.body.id
    assert.match(id, /^[0-9a-f-]{36}$/)
    assert.deepEqual(response.body, {
      _entityName: 'bookstore_Customer',
      _instanceName: 'Bob',
      id,
      version: 1,
    })
    assert.match(response.headers.location!, new RegExp(`/rest/entities/bookstore_Customer/${id}$`))
    const stored = await row('bookstore_customer', id)
    assert.equal(stored.email, 'bob@example.com')
    assert.equal(Number(stored.loyalty_points), 42)
    assert.isTrue(Boolean(stored.newsletter))
    assert.equal(stored.preferred_currency_id, 'EUR')
    assert.equal(stored.version, 1)
    assert.equal(stored.created_by, ids.client, 'audit user: the client id, not the body')
    assert.isNotNull(stored.created_date)
    const prefs = stored.preferences
    assert.deepEqual(typeof prefs === 'string' ? JSON.parse(prefs) : prefs, { theme: 'dark' })
  })

  test('POST array: 201, one minimal body per entity, all stored', async ({ assert }) => {
    const before = await count('bookstore_tag')
    const response = await send('POST', `${E}/bookstore_Tag`, [
      { name: 'poetry', color: '#112233' },
      { name: 'drama' },
    ])
    assert.equal(response.status, 201, response.text)
    assert.lengthOf(response.body, 2)
    assert.deepEqual(
      response.body.map((b: any) => b._instanceName),
      ['poetry', 'drama']
    )
    assert.match(response.headers.location!, /\/rest\/entities\/bookstore_Tag$/)
    assert.equal(await count('bookstore_tag'), before + 2)
  })

  test('long ids come from the database; string ids from the body', async ({ assert }) => {
    const w = await send('POST', `${E}/bookstore_Warehouse`, {
      code: 'WH1',
      name: 'Main',
      opensAt: '08:00:00',
      address: { street: 'Main St 1', postalCode: '10115', city: 'Berlin', country: { id: 'DE' } },
    })
    assert.equal(w.status, 201, w.text)
    assert.match(w.body.id, /^\d+$/)
    const stored = await row('bookstore_warehouse', Number(w.body.id))
    assert.isNotNull(stored.address_id)
    assert.equal((await row('bookstore_address', stored.address_id)).city, 'Berlin')
    const c = await send('POST', `${E}/ref$Country`, { id: 'FR', name: 'France', alpha3: 'FRA' })
    assert.equal(c.status, 201, c.text)
    assert.equal(c.body.id, 'FR')
  })

  test('composition two levels deep: Order -> lines -> discounts, back-references set', async ({
    assert,
  }) => {
    const id = await createOrder()
    const order = await row('bookstore_order', id)
    assert.equal(order.status, 'N')
    assert.equal(order.version, 1)
    const lines = await db.from('bookstore_order_line').where('order_id', id).orderBy('position')
    assert.lengthOf(lines, 2)
    assert.equal(lines[0].book_id, ids.book1)
    const discounts = await db
      .from('bookstore_order_line_discount')
      .where('order_line_id', lines[0].id)
      .orderBy('reason')
    assert.deepEqual(
      discounts.map((d) => [d.discount_type, d.reason]),
      [
        ['PCT', 'loyal'],
        ['VCH', 'promo'],
      ]
    )
  })

  test('responseFetchPlan: the saved entity reloaded with the plan', async ({ assert }) => {
    const response = await send(
      'POST',
      `${E}/bookstore_Order?responseFetchPlan=order-with-lines`,
      orderBody()
    )
    assert.equal(response.status, 201, response.text)
    assert.equal(response.body.status, 'NEW')
    assert.lengthOf(response.body.lines, 2)
    assert.equal(response.body.customer._instanceName, 'Ann')
  })

  test('lenient JSON bodies; unknown attribute and bad enum -> 400, nothing stored', async ({
    assert,
  }) => {
    const lenient = await send('POST', `${E}/bookstore_Tag`, "{name: 'lenient'}")
    assert.equal(lenient.status, 201, lenient.text)
    const before = await count('bookstore_tag')
    const unknown = await send('POST', `${E}/bookstore_Tag`, { name: 'x', colour: '#000000' })
    assert.equal(unknown.status, 400)
    assert.equal(unknown.body.error, 'Cannot deserialize an entity from JSON')
    const badEnum = await send('POST', `${E}/bookstore_Book`, { title: 't', genre: 'HORROR' })
    assert.equal(badEnum.status, 400)
    assert.equal(
      badEnum.body.error,
      'An error occurred while parsing enum. Class [class com.example.bookstore.Genre]. Value [HORROR].'
    )
    const missing = await send(
      'POST',
      `${E}/bookstore_Order`,
      orderBody({ customer: { id: ids.tag } })
    )
    assert.equal(missing.status, 400)
    assert.deepEqual(missing.body, {
      error: 'Entity creation failed',
      details: "Referenced entity for property 'customer' is missing",
    })
    assert.equal(await count('bookstore_tag'), before)
  })
})

test.group('Entities API: update', (group) => {
  group.setup(() => loadWriteDemo())

  test('partial update: absent keys untouched, version + 1, audit columns', async ({ assert }) => {
    const before = await row('bookstore_customer', ids.customer)
    const response = await send('PUT', `${E}/bookstore_Customer/${ids.customer}`, {
      phone: '+49 30 1234567',
    })
    assert.equal(response.status, 200, response.text)
    assert.deepEqual(response.body, {
      _entityName: 'bookstore_Customer',
      _instanceName: 'Ann',
      id: ids.customer,
      version: 2,
    })
    const after = await row('bookstore_customer', ids.customer)
    assert.equal(after.phone, '+49 30 1234567')
    assert.equal(after.email, before.email)
    assert.equal(after.created_by, 'seed')
    assert.isNotNull(after.last_modified_by)
  })

  test('to-one by id, null clears; missing target 400', async ({ assert }) => {
    let r = await send('PUT', `${E}/bookstore_Book/${ids.book1}`, { publisher: null })
    assert.equal(r.status, 200, r.text)
    assert.isNull((await row('bookstore_book', ids.book1)).publisher_id)
    r = await send('PUT', `${E}/bookstore_Book/${ids.book1}`, { publisher: { id: ids.publisher } })
    assert.equal((await row('bookstore_book', ids.book1)).publisher_id, ids.publisher)
    r = await send('PUT', `${E}/bookstore_Book/${ids.book1}`, { publisher: { id: ids.tag } })
    assert.equal(r.status, 400)
    assert.equal(r.body.error, 'Entity update failed')
    r = await send('PUT', `${E}/bookstore_Book/${ids.book1}`, { publisher: 'x' })
    assert.equal(r.status, 400)
  })

  test('many-to-many and one-to-many association lists replace', async ({ assert }) => {
    const link = 'bookstore_book_author_link'
    let r = await send('PUT', `${E}/bookstore_Book/${ids.book1}`, {
      authors: [{ id: ids.author1 }, { id: ids.author2 }],
      tags: [{ id: ids.tag }],
    })
    assert.equal(r.status, 200, r.text)
    assert.equal(await count(link, { bookstore_book_id: ids.book1 }), 2)
    r = await send('PUT', `${E}/bookstore_Book/${ids.book1}`, { authors: [{ id: ids.author2 }] })
    const authors = await db.from(link).where('bookstore_book_id', ids.book1)
    assert.deepEqual(
      authors.map((a) => a.bookstore_author_id),
      [ids.author2]
    )
    assert.equal(await count('bookstore_author'), 2, 'unlinked targets are not deleted')
    r = await send('PUT', `${E}/bookstore_Publisher/${ids.publisher}`, {
      books: [{ id: ids.book2 }],
    })
    assert.equal(r.status, 200, r.text)
    assert.isNull((await row('bookstore_book', ids.book1)).publisher_id)
    assert.equal((await row('bookstore_book', ids.book2)).publisher_id, ids.publisher)
  })

  test('composition children updated, created and deleted; rule 6', async ({ assert }) => {
    const id = await createOrder()
    const lines = await db.from('bookstore_order_line').where('order_id', id).orderBy('position')
    assert.equal(await count('bookstore_order_line_discount', { order_line_id: lines[0].id }), 2)
    const book = { id: ids.book1 }
    const r = await send('PUT', `${E}/bookstore_Order/${id}`, {
      lines: [
        {
          id: lines[1].id,
          position: 2,
          quantity: 5,
          unitPrice: 10,
          book,
          discounts: [{ discountType: 'FIXED_AMOUNT', reason: 'bulk', amount: 3 }],
        },
        { position: 3, quantity: 1, unitPrice: 7, book, discounts: [] },
      ],
    })
    assert.equal(r.status, 200, r.text)
    const after = await db.from('bookstore_order_line').where('order_id', id).orderBy('position')
    assert.deepEqual(
      after.map((l) => [l.position, l.quantity]),
      [
        [2, 5],
        [3, 1],
      ]
    )
    assert.equal(after[0].id, lines[1].id, 'the child with an id is updated in place')
    assert.equal(await count('bookstore_order_line', { id: lines[0].id }), 0)
    assert.equal(await count('bookstore_order_line_discount', { order_line_id: lines[0].id }), 0)
    assert.equal(await count('bookstore_order_line_discount', { order_line_id: after[0].id }), 1)
    assert.equal((await row('bookstore_order', id)).version, 2)

    // Rule 6: an attribute sent for one child and omitted for another becomes null there.
    const rule6 = await send('PUT', `${E}/bookstore_Order/${id}`, {
      lines: [
        { id: after[0].id, quantity: 4 },
        { id: after[1].id, quantity: 2, position: 3 },
      ],
    })
    assert.equal(rule6.status, 400)
    assert.deepEqual(rule6.body, [
      {
        message: 'must not be null',
        messageTemplate: '{jakarta.validation.constraints.NotNull.message}',
        path: 'lines[0].position',
        invalidValue: null,
      },
    ])
    const ok = await send('PUT', `${E}/bookstore_Order/${id}`, {
      lines: [{ id: after[0].id, discounts: [] }, { id: after[1].id }],
    })
    assert.equal(ok.status, 200, ok.text)
    assert.equal(await count('bookstore_order_line_discount', { order_line_id: after[0].id }), 0)
    assert.equal((await row('bookstore_order_line', after[0].id)).quantity, 5)
  })

  test('404 for an unknown id; 404 for an unknown entity', async ({ assert }) => {
    const r = await send('PUT', `${E}/bookstore_Tag/${ids.book1}`, { name: 'x' })
    assert.equal(r.status, 404)
    assert.deepEqual(r.body, {
      error: 'Entity not found',
      details: `Entity bookstore_Tag with id ${ids.book1} not found`,
    })
    const e = await send('PUT', `${E}/nope_Entity/${ids.book1}`, { name: 'x' })
    assert.equal(e.status, 404)
  })
})
