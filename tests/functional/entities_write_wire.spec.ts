/**
 * Wire details of entity writes found by comparing with the upstream server (reference 2.5,
 * 2.6, 4.5-4.7, 5.2): the endpoint names a missing reference's error, validation answers before
 * a stale version and is not hidden by existing composition children, one-to-many association
 * changes are updates of the other rows, a to-one composition never takes another owner's
 * child, and `If-Match: *`.
 */
import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import {
  E,
  createOrder,
  ids,
  loadWriteDemo,
  orderCounts,
  row,
  send,
} from '#tests/functional/entities_write_fixtures'

const missing = randomUUID()
const referenceMissing = (error: string, attribute: string) => ({
  error,
  details: `Referenced entity for property '${attribute}' is missing`,
})

/** Lines of an order, as stored (id, quantity), in position order. */
const lines = (orderId: string) =>
  db
    .from('bookstore_order_line')
    .where('order_id', orderId)
    .orderBy('position')
    .select('id', 'quantity', 'position')

test.group('Entities API: wire details of writes', (group) => {
  group.setup(() => loadWriteDemo())

  test('a missing reference: POST says creation, PUT says update, whatever the row', async ({
    assert,
  }) => {
    const books = await db.from('bookstore_book').count('* as n').first()
    // A new book with a missing author (many-to-many).
    const created = await send('POST', `${E}/bookstore_Book`, {
      title: 'New',
      isbn: '9780000000099',
      price: 1,
      currency: { id: 'EUR' },
      authors: [{ id: missing }],
    })
    assert.equal(created.status, 400, created.text)
    assert.deepEqual(created.body, referenceMissing('Entity creation failed', 'authors'))
    // A POST naming an existing row updates it, and is still a creation upstream.
    const viaPost = await send('POST', `${E}/bookstore_Book`, {
      id: ids.book1,
      publisher: { id: missing },
    })
    assert.deepEqual(viaPost.body, referenceMissing('Entity creation failed', 'publisher'))
    // A PUT creating a composition child with a missing book.
    const orderId = await createOrder()
    const before = await orderCounts()
    const update = await send('PUT', `${E}/bookstore_Order/${orderId}`, {
      lines: [{ position: 1, quantity: 1, unitPrice: 1, book: { id: missing } }],
    })
    assert.equal(update.status, 400, update.text)
    assert.deepEqual(update.body, referenceMissing('Entity update failed', 'book'))
    assert.deepEqual(await orderCounts(), before)
    assert.deepEqual(await db.from('bookstore_book').count('* as n').first(), books)
    assert.equal((await row('bookstore_book', ids.book1)).publisher_id, ids.publisher)
  })

  test('validation is answered although existing composition children are sent', async ({
    assert,
  }) => {
    const orderId = await createOrder()
    const [first, second] = await lines(orderId)
    const stored = await row('bookstore_order', orderId)
    // `number` breaks its length; the lines are this order's own, with their ids.
    const response = await send('PUT', `${E}/bookstore_Order/${orderId}`, {
      number: 'X'.repeat(300),
      lines: [
        { id: first.id, quantity: 7 },
        { id: second.id, quantity: 8 },
      ],
    })
    assert.equal(response.status, 400, response.text)
    // Its length and its pattern.
    assert.deepEqual([...new Set(response.body.map((v: { path: string }) => v.path))], ['number'])
    // One level down: a line's own violation does not turn its existing discounts into 404s.
    const discounts = await db
      .from('bookstore_order_line_discount')
      .where('order_line_id', first.id)
      .select('id')
    const nested = await send('PUT', `${E}/bookstore_Order/${orderId}`, {
      lines: [
        { id: first.id, quantity: -1, discounts: discounts.map((d) => ({ id: d.id })) },
        { id: second.id, quantity: 1 },
      ],
    })
    assert.equal(nested.status, 400, nested.text)
    assert.deepEqual(
      nested.body.map((v: { path: string }) => v.path),
      ['lines[0].quantity']
    )
    assert.deepEqual(await lines(orderId), [first, second])
    assert.deepEqual(await row('bookstore_order', orderId), stored)
  })

  test('a stale version with an invalid value: the violations, not the conflict', async ({
    assert,
  }) => {
    const stored = await row('bookstore_customer', ids.customer)
    const invalid = await send('PUT', `${E}/bookstore_Customer/${ids.customer}`, {
      version: Number(stored.version) + 5,
      name: 'N'.repeat(500),
    })
    assert.equal(invalid.status, 400, invalid.text)
    assert.equal(invalid.body[0].path, 'name')
    const stale = await send('PUT', `${E}/bookstore_Customer/${ids.customer}`, {
      version: Number(stored.version) + 5,
      name: 'Fine',
    })
    assert.equal(stale.status, 409)
    assert.equal(stale.body.error, 'Optimistic lock')
    assert.deepEqual(await row('bookstore_customer', ids.customer), stored)
    // If-Match: * asks for no particular version.
    const any = await send(
      'PUT',
      `${E}/bookstore_Customer/${ids.customer}`,
      { name: 'Any' },
      { 'If-Match': '*' }
    )
    assert.equal(any.status, 200, any.text)
    assert.equal(any.body.version, Number(stored.version) + 1)
    assert.equal((await row('bookstore_customer', ids.customer)).name, 'Any')
  })

  test('one-to-many association: the other rows are updated (version, audit), linked ones untouched', async ({
    assert,
  }) => {
    const publisher = randomUUID()
    await db.table('bookstore_publisher').insert({ id: publisher, name: 'Other', created_by: 's' })
    const [book1, book2] = [
      await row('bookstore_book', ids.book1),
      await row('bookstore_book', ids.book2),
    ]
    // Both books belong to ids.publisher; keep book2 only.
    const response = await send('PUT', `${E}/bookstore_Publisher/${ids.publisher}`, {
      books: [{ id: ids.book2 }],
    })
    assert.equal(response.status, 200, response.text)
    const after1 = await row('bookstore_book', ids.book1)
    assert.isNull(after1.publisher_id)
    assert.equal(Number(after1.version), Number(book1.version) + 1)
    assert.equal(after1.last_modified_by, ids.client)
    assert.deepEqual(await row('bookstore_book', ids.book2), book2)
    // Moving book2 to the other publisher is an update of book2.
    const moved = await send('PUT', `${E}/bookstore_Publisher/${publisher}`, {
      books: [{ id: ids.book2 }],
    })
    assert.equal(moved.status, 200, moved.text)
    const after2 = await row('bookstore_book', ids.book2)
    assert.equal(after2.publisher_id, publisher)
    assert.equal(Number(after2.version), Number(book2.version) + 1)
    // Restore the fixture's links.
    for (const id of [ids.book1, ids.book2])
      await db.from('bookstore_book').where('id', id).update({ publisher_id: ids.publisher })
  })

  test("a to-one composition never takes over another owner's child", async ({ assert }) => {
    const address = randomUUID()
    const other = randomUUID()
    await db.table('bookstore_address').insert({
      id: address,
      street: 'Main 1',
      postal_code: '53111',
      city: 'Bonn',
      country_id: 'DE',
    })
    await db.table('bookstore_customer').insert({
      id: other,
      name: 'Owner',
      email: 'owner@example.com',
      address_id: address,
      version: 1,
      created_by: 's',
    })
    const before = await row('bookstore_customer', ids.customer)
    const response = await send('PUT', `${E}/bookstore_Customer/${ids.customer}`, {
      address: { id: address, city: 'Stolen' },
    })
    assert.equal(response.status, 404, response.text)
    assert.deepEqual(response.body, {
      error: 'Entity not found',
      details: `Entity bookstore_Address with id ${address} not found`,
    })
    assert.deepEqual(await row('bookstore_customer', ids.customer), before)
    assert.equal((await row('bookstore_address', address)).city, 'Bonn')
    assert.equal((await row('bookstore_customer', other)).address_id, address)
    // The owner itself updates its child in place.
    const own = await send('PUT', `${E}/bookstore_Customer/${other}`, {
      address: { id: address, city: 'Köln' },
    })
    assert.equal(own.status, 200, own.text)
    assert.equal((await row('bookstore_address', address)).city, 'Köln')
    assert.equal((await row('bookstore_customer', other)).address_id, address)
  })
})
