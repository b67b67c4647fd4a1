/**
 * Fetch plans of the metadata API (reference 3.3, 8.2; spec 2.4) for the demo application:
 * built-ins, named plans with extends chains, inline plans, the old client's `/views` aliases.
 */
import { test } from '@japa/runner'
import { CUSTOMER_BASE, M, ORDER_LOCAL, get, loadDemo } from '#tests/helpers/metadata'

test.group('Metadata API: fetch plans', (group) => {
  group.setup(() => loadDemo())

  test('built-ins: _local, _instance_name, _base (reference 3.3)', async ({ assert }) => {
    const plan = async (name: string) =>
      (await get(`${M}/entities/bookstore_Order/fetchPlans/${name}`)).body
    assert.deepEqual(await plan('_local'), {
      name: '_local',
      entity: 'bookstore_Order',
      properties: ORDER_LOCAL,
    })
    assert.deepEqual(await plan('_instance_name'), {
      name: '_instance_name',
      entity: 'bookstore_Order',
      properties: ['number', { name: 'customer', fetchPlan: { properties: ['name'] } }],
    })
    assert.deepEqual(await plan('_base'), {
      name: '_base',
      entity: 'bookstore_Order',
      properties: [...ORDER_LOCAL, { name: 'customer', fetchPlan: { properties: CUSTOMER_BASE } }],
    })
    const currency = await get(`${M}/entities/ref$Currency/fetchPlans/_instance_name`)
    assert.deepEqual(currency.body.properties, ['name', 'symbol'])
  })

  test('named plans: the list and one plan, expanded (spec 2.4)', async ({ assert }) => {
    const list = await get(`${M}/entities/bookstore_Order/fetchPlans`)
    assert.equal(list.status, 200)
    assert.deepEqual(
      list.body.map((p: any) => [p.name, p.entity]),
      [
        ['order-full', 'bookstore_Order'],
        ['order-with-lines', 'bookstore_Order'],
      ]
    )
    assert.deepEqual((await get(`${M}/entities/bookstore_Tag/fetchPlans`)).body, [])

    const card = await get(`${M}/entities/bookstore_Book/fetchPlans/book-card`)
    assert.deepEqual(card.body, {
      name: 'book-card',
      entity: 'bookstore_Book',
      properties: [
        'title',
        'isbn',
        'price',
        'cover',
        'genre',
        { name: 'currency', fetchPlan: { name: '_instance_name', properties: ['name', 'symbol'] } },
        { name: 'publisher', fetchPlan: { name: '_instance_name', properties: ['name'] } },
        {
          name: 'authors',
          fetchPlan: { name: '_instance_name', properties: ['firstName', 'lastName'] },
        },
      ],
    })

    const withLines = (await get(`${M}/entities/bookstore_Order/fetchPlans/order-with-lines`)).body
    assert.deepEqual(withLines.properties.slice(0, ORDER_LOCAL.length), ORDER_LOCAL)
    const lines = withLines.properties.find((p: any) => p.name === 'lines')
    assert.equal(lines.fetchPlan.name, 'orderLine-with-discounts')
    assert.deepEqual(lines.fetchPlan.properties.slice(0, 4), [
      'id',
      'position',
      'quantity',
      'unitPrice',
    ])
    assert.deepEqual(
      lines.fetchPlan.properties.find((p: any) => p.name === 'discounts').fetchPlan.name,
      '_base'
    )
  })

  test('inline plans: unnamed without extends, named after their ancestor', async ({ assert }) => {
    const overview = (await get(`${M}/entities/bookstore_StockItem/fetchPlans/stock-overview`)).body
    assert.deepEqual(overview.properties.at(-1), {
      name: 'warehouse',
      fetchPlan: { properties: ['code', 'name', 'opensAt', 'closesAt'] },
    })
    assert.equal(overview.properties.at(-2).fetchPlan.name, 'book-card')

    const customer = await get(`${M}/entities/bookstore_Customer/fetchPlans/customer-orders`)
    const address = customer.body.properties.find((p: any) => p.name === 'address')
    assert.deepEqual(address.fetchPlan, {
      name: '_base',
      properties: [
        'id',
        'street',
        'postalCode',
        'city',
        { name: 'country', fetchPlan: { properties: ['id', 'name', 'alpha3', 'euMember'] } },
      ],
    })
    const orders = customer.body.properties.at(-1)
    assert.equal(orders.name, 'orders')
    assert.equal(orders.fetchPlan.name, 'order-full', 'customer-orders extends a named plan')
  })

  test('aliases: /views, /views/{name} and the trailing slash', async ({ assert }) => {
    const base = `${M}/entities/bookstore_Order`
    const plans = await get(`${base}/fetchPlans`)
    assert.deepEqual((await get(`${base}/views`)).body, plans.body)
    assert.deepEqual((await get(`${base}/views/`)).body, plans.body)
    const one = await get(`${base}/fetchPlans/order-full`)
    for (const path of [`${base}/views/order-full`, `${base}/views/order-full/`]) {
      const alias = await get(path)
      assert.equal(alias.status, 200, path)
      assert.deepEqual(alias.body, one.body, path)
      assert.equal(alias.headers.etag, one.headers.etag)
    }
  })
})
