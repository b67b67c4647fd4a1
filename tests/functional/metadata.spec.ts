/**
 * Metadata API (reference 8.1, 8.3, 8.4; spec 2.3, 2.5, 4.6) for the demo application: entity,
 * enum and datatype documents in the upstream shapes, the upstream 404s, 401 without a token.
 * Fetch plans: fetch_plans_metadata.spec.ts; ETags, locales and model changes:
 * conditional_metadata.spec.ts; the published npm client: npm_client_metadata.spec.ts.
 */
import { test } from '@japa/runner'
import { bearer, raw } from '#tests/helpers/resource_server'
import { demoDocument } from '#tests/unit/_fixtures'
import {
  M,
  MANDATORY,
  ORDER,
  PROPERTY_KEYS,
  get,
  loadDemo,
  prop,
  typeOf,
} from '#tests/helpers/metadata'

test.group('Metadata API: entities', (group) => {
  group.setup(() => loadDemo())

  test('GET /metadata/entities: every entity, upstream keys in upstream order', async ({
    assert,
  }) => {
    const response = await get(`${M}/entities`)
    assert.equal(response.status, 200)
    assert.match(response.headers['content-type']!, /^application\/json;charset=UTF-8/)
    assert.deepEqual(
      response.body.map((e: any) => e.entityName),
      (await demoDocument()).entities.map((e: any) => e.name)
    )
    for (const entity of response.body) {
      assert.deepEqual(Object.keys(entity), ['entityName', 'ancestor', 'properties'])
      assert.isNull(entity.ancestor)
      for (const p of entity.properties) assert.deepEqual(Object.keys(p), PROPERTY_KEYS)
    }
    const order = response.body.find((e: any) => e.entityName === 'bookstore_Order')
    assert.deepEqual(order, ORDER)
  })

  test('GET /metadata/entities/{e}: the full document (reference 8.1)', async ({ assert }) => {
    const response = await get(`${M}/entities/bookstore_Order`)
    assert.equal(response.status, 200)
    assert.deepEqual(response.body, ORDER)
  })

  test('datatypes under their upstream ids; enums by FQN; relations by entity', async ({
    assert,
  }) => {
    const book = (await get(`${M}/entities/bookstore_Book`)).body
    const expected: Record<string, string> = {
      title: 'string',
      blurb: 'string',
      genre: 'com.example.bookstore.Genre',
      publicationDate: 'localDate',
      pageCount: 'int',
      price: 'decimal',
      weightKg: 'double',
      inPrint: 'boolean',
      cover: 'fileRef',
      metadata: 'json',
      authors: 'bookstore_Author',
      stockItem: 'bookstore_StockItem',
      deletedDate: 'offsetDateTime',
    }
    for (const [name, type] of Object.entries(expected)) assert.equal(typeOf(book, name), type)
    const authors = book.properties.find((p: any) => p.name === 'authors')
    assert.include(authors, { attributeType: 'ASSOCIATION', cardinality: 'MANY_TO_MANY' })
    const stock = book.properties.find((p: any) => p.name === 'stockItem')
    assert.include(stock, { cardinality: 'ONE_TO_ONE', persistent: true })

    const warehouse = (await get(`${M}/entities/bookstore_Warehouse`)).body
    assert.equal(typeOf(warehouse, 'id'), 'long')
    assert.equal(typeOf(warehouse, 'opensAt'), 'localTime')
    const item = (await get(`${M}/entities/bookstore_StockItem`)).body
    assert.equal(typeOf(item, 'lastCountedAt'), 'localDateTime')
    const customer = (await get(`${M}/entities/bookstore_Customer`)).body
    assert.equal(typeOf(customer, 'externalRef'), 'uuid')
    assert.equal(typeOf(customer, 'loyaltyPoints'), 'long')

    // Every type used is published by /metadata/datatypes (or is an enum or an entity).
    const datatypes = new Set((await get(`${M}/datatypes`)).body.map((d: any) => d.id))
    const all = (await get(`${M}/entities`)).body
    for (const entity of all)
      for (const p of entity.properties)
        if (p.attributeType === 'DATATYPE') assert.isTrue(datatypes.has(p.type), p.type)
  })

  test('legacy names with $ (raw and percent-encoded); system attributes', async ({ assert }) => {
    const country = await get(`${M}/entities/ref$Country`)
    assert.equal(country.status, 200)
    assert.deepEqual(country.body.properties.slice(0, 2), [
      prop('id', 'DATATYPE', 'string', 'Id', MANDATORY),
      prop('name', 'DATATYPE', 'string', 'Name', MANDATORY),
    ])
    assert.deepEqual((await get(`${M}/entities/ref%24Country`)).body, country.body)
    const publisher = (await get(`${M}/entities/bookstore_Publisher`)).body
    assert.deepEqual(
      publisher.properties.slice(-6),
      [
        prop('createdBy', 'DATATYPE', 'string', 'Created by'),
        prop('createdDate', 'DATATYPE', 'offsetDateTime', 'Created date'),
        prop('lastModifiedBy', 'DATATYPE', 'string', 'Last modified by'),
        prop('lastModifiedDate', 'DATATYPE', 'offsetDateTime', 'Last modified date'),
        prop('deletedBy', 'DATATYPE', 'string', 'Deleted by'),
        prop('deletedDate', 'DATATYPE', 'offsetDateTime', 'Deleted date'),
      ],
      'audited + soft delete, not versioned'
    )
  })

  test('404s in the upstream shape', async ({ assert }) => {
    const entity = { error: 'Entity not found', details: 'Entity nope_X not found' }
    for (const path of [
      `${M}/entities/nope_X`,
      `${M}/entities/nope_X/fetchPlans`,
      `${M}/entities/nope_X/fetchPlans/_base`,
      `${M}/entities/nope_X/views`,
      `${M}/entities/nope_X/views/_base/`,
    ]) {
      const response = await get(path)
      assert.equal(response.status, 404, path)
      assert.deepEqual(response.body, entity, path)
    }
    const plan = await get(`${M}/entities/bookstore_Order/fetchPlans/nope`)
    assert.equal(plan.status, 404)
    assert.deepEqual(plan.body, {
      error: 'Fetch plan not found',
      details: 'Fetch plan nope for metaClass bookstore_Order not found',
    })
    assert.deepEqual((await get(`${M}/entities/bookstore_Order/views/nope/`)).body, plan.body)
    const enumeration = await get(`${M}/enums/com.example.Nope`)
    assert.equal(enumeration.status, 404)
    assert.deepEqual(enumeration.body, {
      error: 'Enum not found',
      details: 'Enum with class name com.example.Nope not found',
    })
  })

  test('401 without a token (empty of data, Bearer challenge)', async ({ assert }) => {
    for (const path of [`${M}/entities`, `${M}/entities/bookstore_Order/views/order-full/`]) {
      const response = await raw(path)
      assert.equal(response.status, 401)
      assert.match(String(response.headers['www-authenticate']), /^Bearer/)
      assert.notInclude(response.text, 'bookstore_Order')
    }
    assert.equal((await raw(`${M}/enums`, { headers: bearer('not-a-token') })).status, 401)
  })
})

test.group('Metadata API: enums and datatypes', (group) => {
  group.setup(() => loadDemo())

  test('GET /metadata/enums and /metadata/enums/{fqn} (reference 8.3)', async ({ assert }) => {
    const all = await get(`${M}/enums`)
    assert.equal(all.status, 200)
    assert.deepEqual(
      all.body.map((e: any) => e.name),
      [
        'com.example.bookstore.OrderStatus',
        'com.example.bookstore.Genre',
        'com.example.bookstore.DiscountType',
      ]
    )
    const genre = await get(`${M}/enums/com.example.bookstore.Genre`)
    assert.deepEqual(genre.body, {
      name: 'com.example.bookstore.Genre',
      values: [
        { name: 'FICTION', id: 'fiction', caption: 'Fiction' },
        { name: 'NON_FICTION', id: 'non-fiction', caption: 'Non-fiction' },
        { name: 'SCIENCE', id: 'science', caption: 'Science' },
        { name: 'CHILDREN', id: 'children', caption: 'Children' },
        { name: 'POETRY', id: 'poetry', caption: 'Poetry' },
      ],
    })
    assert.deepEqual(all.body[1], genre.body)
  })

  test('GET /metadata/datatypes (reference 8.4)', async ({ assert }) => {
    const response = await get(`${M}/datatypes`)
    assert.equal(response.status, 200)
    const byId = new Map(response.body.map((d: any) => [d.id, d]))
    for (const expected of [
      { id: 'dateTime', name: 'dateTime', format: "yyyy-MM-dd'T'HH:mm:ss.SSS" },
      { id: 'date', name: 'date', format: 'yyyy-MM-dd' },
      { id: 'time', name: 'time', format: 'HH:mm:ss' },
      {
        id: 'decimal',
        name: 'decimal',
        format: '0.####',
        decimalSeparator: '.',
        groupingSeparator: '',
      },
      {
        id: 'double',
        name: 'double',
        format: '0.###',
        decimalSeparator: '.',
        groupingSeparator: '',
      },
      { id: 'int', name: 'int', format: '0', decimalSeparator: '', groupingSeparator: '' },
      { id: 'string', name: 'string' },
      { id: 'uuid', name: 'uuid' },
      { id: 'localDate', name: 'localDate' },
    ])
      assert.deepEqual(byId.get(expected.id), expected)
    for (const d of response.body) {
      assert.equal(d.name, d.id)
      for (const value of Object.values(d)) assert.isString(value)
    }
  })
})
