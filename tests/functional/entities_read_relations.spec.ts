/**
 * Entities API reads across every kind of relation (reference 3.3, 4.1): inverse one-to-one,
 * one-to-many by mappedBy, many-to-many through the link table, long ids, time and local
 * date-time formats, soft-deleted related rows, and the cycle rule (an entity reached again on
 * its own path is written as its meta keys only).
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { E, IDS, get, loadDemo, q, seedBasics } from '#tests/helpers/entities_read'

test.group('Entities API: relations', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
    await db.table('bookstore_warehouse').insert({
      id: 7,
      code: 'WH1',
      name: 'Main',
      opens_at: '08:00:00',
      closes_at: '17:30:00',
      version: 1,
    })
    await db.table('bookstore_stock_item').insert({
      id: 42,
      book_id: IDS.book1,
      warehouse_id: 7,
      bin_code: 'A-1',
      quantity: 5,
      last_counted_at: '2024-05-06 07:08:09.120',
      version: 1,
    })
  })

  test('long ids, time and local date-time values', async ({ assert }) => {
    const response = await get(`${E}/bookstore_StockItem/42?fetchPlan=stock-overview`)
    assert.equal(response.status, 200)
    assert.deepEqual(response.body, {
      _entityName: 'bookstore_StockItem',
      _instanceName: 'Dune @ WH1/A-1',
      id: '42',
      book: {
        _entityName: 'bookstore_Book',
        _instanceName: 'Dune (Penguin)',
        id: IDS.book1,
        title: 'Dune',
        isbn: '9780441013593',
        genre: 'FICTION',
        price: 12.5,
        cover: 'fs://2024/01/02/abc.jpg?name=dune.jpg',
        currency: {
          _entityName: 'ref$Currency',
          _instanceName: 'Euro (€)',
          id: 'EUR',
          name: 'Euro',
          symbol: '€',
        },
        publisher: {
          _entityName: 'bookstore_Publisher',
          _instanceName: 'Penguin',
          id: IDS.publisher,
          name: 'Penguin',
        },
        authors: [
          {
            _entityName: 'bookstore_Author',
            _instanceName: 'Frank Herbert',
            id: IDS.author1,
            firstName: 'Frank',
            lastName: 'Herbert',
          },
          {
            _entityName: 'bookstore_Author',
            _instanceName: 'Anonymous',
            id: IDS.author2,
            lastName: 'Anonymous',
          },
        ],
      },
      warehouse: {
        _entityName: 'bookstore_Warehouse',
        _instanceName: 'WH1 - Main',
        id: '7',
        code: 'WH1',
        name: 'Main',
        opensAt: '08:00:00',
        closesAt: '17:30:00',
      },
      binCode: 'A-1',
      quantity: 5,
      lastCountedAt: '2024-05-06T07:08:09.12',
    })
    const invalid = await get(`${E}/bookstore_Warehouse/abc`)
    assert.equal(invalid.status, 400)
    assert.equal(invalid.body.error, 'Invalid entity ID')
  })

  test('inverse one-to-one and one-to-many (mappedBy); soft-deleted children hidden', async ({
    assert,
  }) => {
    await db.table('bookstore_review').multiInsert([
      { id: IDS.order1, book_id: IDS.book1, rating: 5, reviewed_at: '2024-01-01 10:00:00' },
      {
        id: IDS.order2,
        book_id: IDS.book1,
        rating: 1,
        reviewed_at: '2024-01-02 10:00:00',
        deleted_date: '2024-02-01T00:00:00.000Z',
      },
    ])
    const plan = {
      entity: 'bookstore_Book',
      properties: [
        'title',
        { name: 'stockItem', fetchPlan: { properties: ['binCode'] } },
        { name: 'reviews', fetchPlan: { properties: ['rating'] } },
      ],
    }
    const response = await get(`${E}/bookstore_Book/${IDS.book1}?${q({ fetchPlan: plan })}`)
    assert.equal(response.status, 200)
    assert.equal(response.body.stockItem.id, '42')
    assert.equal(response.body.stockItem.binCode, 'A-1')
    assert.deepEqual(
      response.body.reviews.map((r: any) => [r._instanceName, r.rating]),
      [['Dune: 5/5', 5]]
    )
    const other = await get(`${E}/bookstore_Book/${IDS.book2}?${q({ fetchPlan: plan })}`)
    assert.notProperty(other.body, 'stockItem')
    assert.deepEqual(other.body.reviews, [])
    const nulls = await get(
      `${E}/bookstore_Book/${IDS.book2}?returnNulls=true&${q({ fetchPlan: plan })}`
    )
    assert.isNull(nulls.body.stockItem)
  })

  test('a soft-deleted to-one reference is not written', async ({ assert }) => {
    await db
      .from('bookstore_book')
      .where('id', IDS.book2)
      .update({ publisher_id: IDS.deletedPublisher })
    const response = await get(`${E}/bookstore_Book/${IDS.book2}`)
    assert.equal(response.status, 200)
    assert.notProperty(response.body, 'publisher')
  })

  test('cycles: an entity reached again on its path is written as meta keys only', async ({
    assert,
  }) => {
    const response = await get(`${E}/bookstore_Customer/${IDS.alice}?fetchPlan=customer-orders`)
    assert.equal(response.status, 200)
    assert.lengthOf(response.body.orders, 2)
    for (const order of response.body.orders) {
      assert.deepEqual(order.customer, {
        _entityName: 'bookstore_Customer',
        _instanceName: 'Alice',
        id: IDS.alice,
      })
    }
  })
})
