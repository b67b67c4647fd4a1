/**
 * The Messages API (spec 2.8 and 4.7, reference 8.5) for the demo application in two locales:
 * the request locale (token user, Accept-Language, available locales), stored translations
 * edited by an import or by another instance, ETag/304, 401 without a token, GET /rest/version
 * and PUT /rest/user-session/locale (reference 2.12). The message maps: messages_entities.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { importDoc } from '#tests/helpers/engine'
import { bearer, raw } from '#tests/helpers/resource_server'
import { issueToken, newGrantId } from '#oauth/token_store'
import { bumpVersion } from '#changes/versions'
import type OAuthClient from '#models/oauth_client'
import {
  ENDPOINTS,
  ORDER_DE,
  ORDER_STATUS,
  PRODUCT_VERSION,
  STATUS_DE,
  STATUS_EN,
  get,
  setupDemoSession,
  tokenFor,
  until,
} from '#tests/helpers/messages'

let client: OAuthClient
let enToken: string
let deToken: string

test.group('Messages API: locales, caching and edits in en and de', (group) => {
  group.setup(async () => {
    ;({ client, enToken, deToken } = await setupDemoSession())
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
    const frUser = await tokenFor(client, 'fr')
    assert.equal(await order(frUser), 'Order', 'neither: the first available locale')
    const deChUser = await tokenFor(client, 'de_CH')
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
