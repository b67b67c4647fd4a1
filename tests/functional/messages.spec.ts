/**
 * The Messages API (spec 2.8 and 4.7, reference 8.5) for the demo application in two locales,
 * the request locale (token user, Accept-Language, available locales), stored translations
 * edited by an import or by another instance, ETag/304, 401 without a token, GET /rest/version
 * and PUT /rest/user-session/locale (reference 2.12), and the published npm client.
 */
import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import jmixRest from '@haulmont/jmix-rest'
import { DEMO_FILE } from '#start/bootstrap'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc } from '#tests/helpers/engine'
import { baseUrl, createClient, createUser } from '#tests/helpers/oauth'
import { bearer, raw } from '#tests/helpers/resource_server'
import { issueToken, newGrantId } from '#oauth/token_store'
import { bumpVersion } from '#engine/metadata/store'
import type OAuthClient from '#models/oauth_client'

const ORDER_STATUS = 'com.example.bookstore.OrderStatus'
const { version: PRODUCT_VERSION } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8')
)

/** bookstore_Order (versioned, audited): declared attributes, then the system ones, sorted. */
const ORDER_EN = {
  'bookstore_Order': 'Order',
  'bookstore_Order.amount': 'Amount',
  'bookstore_Order.createdBy': 'Created by',
  'bookstore_Order.createdDate': 'Created date',
  'bookstore_Order.currency': 'Currency',
  'bookstore_Order.customer': 'Customer',
  'bookstore_Order.date': 'Date',
  'bookstore_Order.id': 'Id',
  'bookstore_Order.invoice': 'Invoice',
  'bookstore_Order.lastModifiedBy': 'Last modified by',
  'bookstore_Order.lastModifiedDate': 'Last modified date',
  'bookstore_Order.lines': 'Lines',
  'bookstore_Order.note': 'Note',
  'bookstore_Order.number': 'Number',
  'bookstore_Order.placedAt': 'Placed at',
  'bookstore_Order.shippingAddress': 'Shipping address',
  'bookstore_Order.status': 'Status',
  'bookstore_Order.total': 'Total',
  'bookstore_Order.version': 'Version',
}
/** German captions where the demo has them; readable defaults elsewhere. */
const ORDER_DE = {
  ...ORDER_EN,
  'bookstore_Order': 'Bestellung',
  'bookstore_Order.date': 'Datum',
  'bookstore_Order.lines': 'Positionen',
  'bookstore_Order.number': 'Nummer',
}
const STATUS_EN = {
  [ORDER_STATUS]: 'Order status',
  [`${ORDER_STATUS}.CANCELLED`]: 'Cancelled',
  [`${ORDER_STATUS}.DELIVERED`]: 'Delivered',
  [`${ORDER_STATUS}.NEW`]: 'New',
  [`${ORDER_STATUS}.PAID`]: 'Paid',
  [`${ORDER_STATUS}.SHIPPED`]: 'Shipped',
}
const STATUS_DE = {
  [ORDER_STATUS]: 'Order status',
  [`${ORDER_STATUS}.CANCELLED`]: 'Storniert',
  [`${ORDER_STATUS}.DELIVERED`]: 'Zugestellt',
  [`${ORDER_STATUS}.NEW`]: 'Neu',
  [`${ORDER_STATUS}.PAID`]: 'Bezahlt',
  [`${ORDER_STATUS}.SHIPPED`]: 'Versandt',
}

const ENDPOINTS = [
  '/rest/messages/entities',
  '/rest/messages/entities/bookstore_Order',
  '/rest/messages/enums',
  `/rest/messages/enums/${ORDER_STATUS}`,
]

let client: OAuthClient
let enToken: string
let deToken: string

async function tokenFor(locale: string | null) {
  const { user } = await createUser()
  user.locale = locale
  await user.save()
  const { value } = await issueToken('access', {
    clientPk: client.id,
    userId: user.id,
    grantId: newGrantId(),
    scope: null,
    ttlSeconds: 300,
  })
  return value
}

function get(path: string, token: string, headers: Record<string, string> = {}) {
  return raw(path, { headers: { ...bearer(token), ...headers } })
}

const sortedKeys = (map: Record<string, string>) =>
  Object.keys(map).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 5000) {
  const end = Date.now() + ms
  let value = await probe()
  while (!done(value) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await probe()
  }
  return value
}

test.group('Messages API: the demo application in en and de', (group) => {
  group.setup(async () => {
    await resetDatabase()
    const e = await engine()
    const result = await e.importFile(app.makePath(DEMO_FILE))
    if (result.status !== 'applied') throw new Error(JSON.stringify(result.problems))
    await importDoc({ settings: { 'svc.core.available-locales': 'en,de' } })
    client = (await createClient()).client
    enToken = await tokenFor('en')
    deToken = await tokenFor('de')
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

  test('Accept-Language overrides the user locale when it matches an available locale', async ({
    assert,
  }) => {
    const order = async (token: string, acceptLanguage?: string) =>
      (
        await get(
          '/rest/messages/entities/bookstore_Order',
          token,
          acceptLanguage ? { 'Accept-Language': acceptLanguage } : {}
        )
      ).body.bookstore_Order
    assert.equal(await order(enToken, 'de'), 'Bestellung')
    assert.equal(await order(enToken, 'de-AT'), 'Bestellung', 'same language')
    assert.equal(await order(enToken, 'fr-FR, de;q=0.5'), 'Bestellung', 'by quality')
    assert.equal(await order(deToken, 'en-US,en;q=0.9'), 'Order')
    assert.equal(await order(deToken, 'fr'), 'Bestellung', 'no match: the user locale')
    assert.equal(await order(enToken, 'fr'), 'Order')
    const frUser = await tokenFor('fr')
    assert.equal(await order(frUser), 'Order', 'neither: the first available locale')
    const deChUser = await tokenFor('de_CH')
    assert.equal(await order(deChUser), 'Bestellung', "the user's locale by language")
  })

  test('the locale of a token user; a client-credentials token: header or first locale', async ({
    assert,
  }) => {
    assert.equal(
      (await get(`/rest/messages/enums/${ORDER_STATUS}`, deToken)).body[ORDER_STATUS + '.NEW'],
      'Neu'
    )
    const { value } = await issueToken('access', {
      clientPk: client.id,
      userId: null,
      grantId: newGrantId(),
      scope: null,
      ttlSeconds: 300,
    })
    const path = `/rest/messages/enums/${ORDER_STATUS}`
    assert.deepEqual((await get(path, value)).body, STATUS_EN)
    assert.deepEqual((await get(path, value, { 'Accept-Language': 'de' })).body, STATUS_DE)
  })

  test('ETag on every endpoint; If-None-Match -> 304 without a body', async ({ assert }) => {
    for (const path of ENDPOINTS) {
      const first = await get(path, deToken)
      const tag = first.headers.etag as string
      assert.match(tag, /^"[A-Za-z0-9_-]+"$/, path)
      assert.equal(first.headers['cache-control'], 'private, no-cache')
      assert.include(String(first.headers.vary), 'Accept-Language')
      const again = await get(path, deToken, { 'If-None-Match': tag })
      assert.equal(again.status, 304, path)
      assert.equal(again.text, '')
      assert.equal(again.headers.etag, tag)
      const weak = await get(path, deToken, { 'If-None-Match': `"other", W/${tag}` })
      assert.equal(weak.status, 304, 'weak comparison, lists')
      const other = await get(path, deToken, { 'If-None-Match': '"other"' })
      assert.equal(other.status, 200)
      // Another locale is another representation.
      const en = await get(path, enToken, { 'If-None-Match': tag })
      assert.equal(en.status, 200, path)
      assert.notEqual(en.headers.etag, tag)
    }
  })

  test('an imported translation appears at once (ETag changes), null removes it', async ({
    assert,
  }) => {
    const path = '/rest/messages/entities/bookstore_Order'
    const before = await get(path, deToken)
    const result = await importDoc({
      messages: {
        de: { 'bookstore_Order.number': 'Bestellnummer', 'bookstore_Order.id': 'ID' },
        en: { 'bookstore_Order.number': 'Order number' },
      },
    })
    assert.equal(result.status, 'applied', JSON.stringify(result.problems))
    const after = await get(path, deToken, { 'If-None-Match': before.headers.etag as string })
    assert.equal(after.status, 200)
    assert.notEqual(after.headers.etag, before.headers.etag)
    assert.deepEqual(after.body, {
      ...ORDER_DE,
      'bookstore_Order.number': 'Bestellnummer',
      'bookstore_Order.id': 'ID',
    })
    assert.equal((await get(path, enToken)).body['bookstore_Order.number'], 'Order number')
    // The messages section wins over the caption field; a removed translation falls back to it.
    await importDoc({
      messages: { de: { 'bookstore_Order.number': null, 'bookstore_Order.id': null } },
    })
    const reverted = await get(path, deToken)
    assert.deepEqual(reverted.body, ORDER_DE)
    assert.equal(reverted.headers.etag, before.headers.etag)
    await importDoc({ messages: { en: { 'bookstore_Order.number': null } } })
  })

  test('a translation edited by another instance appears through the change watcher', async ({
    assert,
  }) => {
    const path = `/rest/messages/enums/${ORDER_STATUS}`
    // What another instance's import commits: the row and the 'messages' version, no refresh here.
    await db.transaction(async (trx) => {
      await trx.table('mg_messages').insert({
        locale: 'de',
        key: `${ORDER_STATUS}.NEW`,
        value: 'Neu angelegt',
        updated_at: new Date(),
      })
      await bumpVersion(trx, 'messages')
    })
    const seen = await until(
      async () => (await get(path, deToken)).body[`${ORDER_STATUS}.NEW`],
      (text) => text === 'Neu angelegt'
    )
    assert.equal(seen, 'Neu angelegt')
    await importDoc({ messages: { de: { [`${ORDER_STATUS}.NEW`]: null } } })
    assert.equal((await get(path, deToken)).body[`${ORDER_STATUS}.NEW`], 'Neu')
  })

  test('a model change appears in the messages at once', async ({ assert }) => {
    await importDoc({
      entities: [
        {
          name: 'bookstore_Coupon',
          caption: { de: 'Gutschein' },
          attributes: [{ name: 'code', type: 'string', length: 20 }],
        },
      ],
    })
    const response = await get('/rest/messages/entities/bookstore_Coupon', deToken)
    assert.deepEqual(response.body, {
      'bookstore_Coupon': 'Gutschein',
      'bookstore_Coupon.code': 'Code',
      'bookstore_Coupon.id': 'Id',
    })
    const en = await get('/rest/messages/entities/bookstore_Coupon', enToken)
    assert.equal(en.body.bookstore_Coupon, 'Coupon', 'no en caption: the readable default')
  })

  test('401 without a token on {$self}')
    .with([...ENDPOINTS, '/rest/version', '/rest/user-session/locale'])
    .run(async ({ assert }, path) => {
      const method = path.endsWith('/locale') ? 'PUT' : 'GET'
      const response = await raw(path, { method })
      assert.equal(response.status, 401)
      assert.match(String(response.headers['www-authenticate']), /^Bearer/)
      const invalid = await raw(path, { method, headers: bearer('not-a-token') })
      assert.equal(invalid.status, 401)
    })

  test('GET /rest/version: the product version as text', async ({ assert }) => {
    const response = await get('/rest/version', enToken, { Accept: 'text/html' })
    assert.equal(response.status, 200)
    assert.match(String(response.headers['content-type']), /^text\/plain/)
    assert.equal(response.text, PRODUCT_VERSION)
  })

  test('PUT /rest/user-session/locale: 422 as upstream', async ({ assert }) => {
    const response = await raw('/rest/user-session/locale', {
      method: 'PUT',
      headers: bearer(deToken),
    })
    assert.equal(response.status, 422)
    assert.deepEqual(response.body, {
      error: 'Could not change user session locale',
      details: null,
    })
  })
})

test.group('Messages API: the published npm client @haulmont/jmix-rest 1.2.0', (group) => {
  group.setup(async () => {
    await resetDatabase()
    const e = await engine()
    const result = await e.importFile(app.makePath(DEMO_FILE))
    if (result.status !== 'applied') throw new Error(JSON.stringify(result.problems))
    await importDoc({ settings: { 'svc.core.available-locales': 'en,de' } })
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
