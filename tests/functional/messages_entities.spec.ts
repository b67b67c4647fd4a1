/**
 * The Messages API (spec 2.8 and 4.7, reference 8.5) for the demo application in two locales:
 * the entity and enum message maps, unknown names, $ names in the URL, and the published npm
 * client. Locales, caching and edits: messages_locale.spec.ts.
 */
import { test } from '@japa/runner'
import jmixRest from '@haulmont/jmix-rest'
import { baseUrl, createClient, createUser } from '#tests/helpers/oauth'
import {
  ORDER_DE,
  ORDER_EN,
  ORDER_STATUS,
  PRODUCT_VERSION,
  STATUS_DE,
  STATUS_EN,
  get,
  setupDemo,
  setupDemoSession,
  sortedKeys,
} from '#tests/helpers/messages'
import { engine } from '#tests/helpers/engine'

let enToken: string
let deToken: string

test.group('Messages API: the demo application in en and de', (group) => {
  group.setup(async () => {
    ;({ enToken, deToken } = await setupDemoSession())
  })

  test('GET /messages/entities/:entityName: the flat map of one entity, sorted by key ({locale})')
    .with([
      { token: () => enToken, expected: ORDER_EN, locale: 'en' },
      { token: () => deToken, expected: ORDER_DE, locale: 'de' },
    ])
    .run(async ({ assert }, { token, expected, locale }) => {
      const response = await get('/rest/messages/entities/bookstore_Order', token())
      assert.equal(response.status, 200)
      assert.match(String(response.headers['content-type']), /^application\/json/)
      assert.deepEqual(response.body, expected, locale)
      assert.deepEqual(Object.keys(response.body), sortedKeys(expected), 'sorted by key')
    })

  test('GET /messages/entities: every entity merged; captions, defaults, $ names', async ({
    assert,
  }) => {
    const en = (await get('/rest/messages/entities', enToken)).body
    const de = (await get('/rest/messages/entities', deToken)).body
    const model = (await engine()).model
    const expectedKeys = [...model.entities.values()].flatMap((e) => [
      e.name,
      ...e.attributeList.map((a) => `${e.name}.${a.name}`),
    ])
    assert.deepEqual(
      Object.keys(en),
      [...expectedKeys].sort((a, b) => (a < b ? -1 : 1))
    )
    assert.deepEqual(Object.keys(de), Object.keys(en))
    for (const [key, text] of Object.entries(ORDER_EN)) assert.equal(en[key], text, key)
    for (const [key, text] of Object.entries(ORDER_DE)) assert.equal(de[key], text, key)
    assert.include(en, { 'ref$Country': 'Country', 'ref$Country.alpha3': 'Alpha3' })
    assert.include(de, { 'ref$Country': 'Land', 'ref$Country.name': 'Name' })
    assert.include(en, {
      'bookstore_OrderLine': 'Order line',
      'bookstore_OrderLineDiscount.voucherCode': 'Voucher code',
      'bookstore_Book.isbn': 'ISBN',
      'bookstore_Book.weightKg': 'Weight kg',
      'bookstore_Author.firstName': 'First name',
      'bookstore_Publisher.deletedBy': 'Deleted by',
    })
    assert.include(de, {
      'bookstore_OrderLine': 'Bestellposition',
      'bookstore_Author.firstName': 'Vorname',
      'bookstore_StockItem.lastCountedAt': 'Zuletzt gezählt am',
    })
    for (const value of Object.values(en)) assert.isString(value)
  })

  test('GET /messages/enums/:enumClassName: caption key = FQN, values FQN.CONSTANT ({locale})')
    .with([
      { token: () => enToken, expected: STATUS_EN, locale: 'en' },
      { token: () => deToken, expected: STATUS_DE, locale: 'de' },
    ])
    .run(async ({ assert }, { token, expected, locale }) => {
      const response = await get(`/rest/messages/enums/${ORDER_STATUS}`, token())
      assert.equal(response.status, 200)
      assert.deepEqual(response.body, expected, locale)
      assert.deepEqual(Object.keys(response.body), sortedKeys(expected))
    })

  test('GET /messages/enums: every enum merged, with readable defaults', async ({ assert }) => {
    const en = (await get('/rest/messages/enums', enToken)).body
    const de = (await get('/rest/messages/enums', deToken)).body
    assert.lengthOf(Object.keys(en), 3 + 5 + 5 + 3)
    assert.deepEqual(Object.keys(en), sortedKeys(en))
    assert.deepEqual(Object.keys(de), Object.keys(en))
    assert.include(en, STATUS_EN)
    assert.include(de, STATUS_DE)
    assert.include(en, {
      'com.example.bookstore.DiscountType': 'Discount type',
      'com.example.bookstore.DiscountType.FIXED_AMOUNT': 'Fixed amount',
      'com.example.bookstore.Genre.NON_FICTION': 'Non-fiction',
      'com.example.bookstore.Genre.POETRY': 'Poetry',
    })
    assert.include(de, {
      'com.example.bookstore.DiscountType.VOUCHER': 'Gutschein',
      'com.example.bookstore.DiscountType.PERCENTAGE': 'Percentage',
      'com.example.bookstore.Genre.POETRY': 'Poetry',
    })
  })

  test('unknown entity and enum: 404 in the upstream {error, details} shape', async ({
    assert,
  }) => {
    const entity = await get('/rest/messages/entities/bookstore_Nope', enToken)
    assert.equal(entity.status, 404)
    assert.deepEqual(entity.body, {
      error: 'Entity not found',
      details: 'Entity bookstore_Nope not found',
    })
    const enumeration = await get('/rest/messages/enums/com.example.Nope', enToken)
    assert.equal(enumeration.status, 404)
    assert.deepEqual(enumeration.body, {
      error: 'Enum not found',
      details: 'Enum with class name com.example.Nope not found',
    })
    // An enum name is not an entity name and vice versa.
    assert.equal((await get(`/rest/messages/entities/${ORDER_STATUS}`, enToken)).status, 404)
    assert.equal((await get('/rest/messages/enums/bookstore_Order', enToken)).status, 404)
  })

  test('entity names with $ in the URL, raw and percent-encoded', async ({ assert }) => {
    for (const path of ['ref$Country', 'ref%24Country']) {
      const response = await get(`/rest/messages/entities/${path}`, deToken)
      assert.equal(response.status, 200, path)
      assert.deepEqual(response.body, {
        'ref$Country': 'Land',
        'ref$Country.alpha3': 'Alpha3',
        'ref$Country.euMember': 'Eu member',
        'ref$Country.id': 'Id',
        'ref$Country.name': 'Name',
      })
    }
  })
})

test.group('Messages API: the published npm client @haulmont/jmix-rest 1.2.0', (group) => {
  group.setup(async () => {
    await setupDemo()
  })

  test('password login at /oauth/token, then entity and enum messages per locale', async ({
    assert,
  }) => {
    const { client: passwordClient, secret } = await createClient({
      grantTypes: ['password'],
      authenticationMethods: ['client_secret_basic'],
    })
    const { user, password } = await createUser()
    const connect = (name: string, locale: string) =>
      jmixRest.initializeApp({
        name,
        apiUrl: `${baseUrl()}/rest/`,
        restClientId: passwordClient.clientId,
        restClientSecret: secret,
        defaultLocale: locale,
      })
    const tokenEndpoint = `${baseUrl()}/oauth/token`
    for (const [name, locale, expected, status] of [
      ['messages-en', 'en', ORDER_EN, STATUS_EN],
      ['messages-de', 'de', ORDER_DE, STATUS_DE],
    ] as const) {
      const connection = connect(name, locale)
      const login = await connection.login(user.username, password, { tokenEndpoint })
      assert.isString(login.access_token)
      const messages = await connection.loadEntitiesMessages()
      assert.include(messages, expected)
      assert.deepEqual(connection.messagesCache, messages)
      const enums = await connection.fetchJson<Record<string, string>>('GET', 'messages/enums')
      assert.include(enums, status)
      const one = await connection.fetchJson('GET', `messages/enums/${ORDER_STATUS}`)
      assert.deepEqual(one, status)
      const entity = await connection.fetchJson('GET', 'messages/entities/bookstore_Order')
      assert.deepEqual(entity, expected)
      assert.equal(await connection.getApiVersion(), PRODUCT_VERSION)
      jmixRest.removeApp(name)
    }
  })
})
