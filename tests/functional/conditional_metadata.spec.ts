/**
 * Metadata API responses as caches see them: ETag / If-None-Match (304), one document per
 * locale, and a model change that shows at once (with a new ETag).
 */
import { test } from '@japa/runner'
import { importDoc } from '#tests/helpers/engine'
import { accessToken, bearer, makeClient, makeUser, raw } from '#tests/helpers/resource_server'
import { demoDocument } from '#tests/unit/_fixtures'
import { M, get, loadDemo, prop } from '#tests/helpers/metadata'

test.group('Metadata API: ETags, locales, model changes', (group) => {
  group.setup(() => loadDemo({ settings: { 'svc.core.available-locales': 'en,de' } }))

  test('ETag + If-None-Match -> 304 without a body', async ({ assert }) => {
    for (const path of [
      `${M}/entities`,
      `${M}/entities/bookstore_Order`,
      `${M}/entities/bookstore_Order/fetchPlans`,
      `${M}/entities/bookstore_Order/views/order-full/`,
      `${M}/enums`,
      `${M}/enums/com.example.bookstore.Genre`,
      `${M}/datatypes`,
    ]) {
      const first = await get(path)
      const etag = first.headers.etag as string
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/, path)
      assert.equal(first.headers['cache-control'], 'private, no-cache')
      assert.include(String(first.headers.vary), 'Accept-Language')
      assert.equal((await get(path)).headers.etag, etag, 'stable')
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await get(path, { 'If-None-Match': ifNoneMatch })
        assert.equal(again.status, 304, `${path} ${ifNoneMatch}`)
        assert.equal(again.text, '')
        assert.equal(again.headers.etag, etag)
      }
      const changed = await get(path, { 'If-None-Match': '"something-else"' })
      assert.equal(changed.status, 200)
      assert.deepEqual(changed.body, first.body)
    }
  })

  test('descriptions and captions in the request locale; ETag per locale', async ({ assert }) => {
    const path = `${M}/entities/bookstore_Order`
    const en = await get(path, { 'Accept-Language': 'en' })
    const de = await get(path, { 'Accept-Language': 'de-DE,de;q=0.9' })
    const description = (r: any, name: string) =>
      r.body.properties.find((p: any) => p.name === name).description
    assert.equal(description(en, 'number'), 'Number')
    assert.equal(description(de, 'number'), 'Nummer')
    assert.equal(description(de, 'lines'), 'Positionen')
    assert.notEqual(en.headers.etag, de.headers.etag)
    const stale = await get(path, { 'Accept-Language': 'de', 'If-None-Match': en.headers.etag! })
    assert.equal(stale.status, 200, 'an English ETag does not match the German document')

    const genre = await get(`${M}/enums/com.example.bookstore.Genre`, { 'Accept-Language': 'de' })
    assert.equal(genre.body.values[0].caption, 'Belletristik')

    // The token user's locale when the request names none.
    const user = await makeUser({ locale: 'de' })
    const userToken = (await accessToken(await makeClient(), user)).token
    const asUser = await raw(path, { headers: bearer(userToken) })
    assert.equal(description(asUser, 'number'), 'Nummer')
  })

  test('an edited translation appears at once, with a new ETag', async ({ assert }) => {
    const path = `${M}/entities/bookstore_Order`
    const description = (r: any, name: string) =>
      r.body.properties.find((p: any) => p.name === name).description
    const before = await get(path, { 'Accept-Language': 'de' })
    const english = await get(path, { 'Accept-Language': 'en' })
    const result = await importDoc({ messages: { de: { 'bookstore_Order.number': 'Bestellnr.' } } })
    assert.equal(result.status, 'applied', JSON.stringify(result.problems))

    const after = await get(path, {
      'Accept-Language': 'de',
      'If-None-Match': before.headers.etag!,
    })
    assert.equal(after.status, 200)
    assert.equal(description(after, 'number'), 'Bestellnr.')
    assert.notEqual(after.headers.etag, before.headers.etag)
    const unchanged = await get(path, {
      'Accept-Language': 'en',
      'If-None-Match': english.headers.etag!,
    })
    assert.equal(unchanged.status, 304, 'the English document did not change')
    await importDoc({ messages: { de: { 'bookstore_Order.number': null } } })
    assert.equal(description(await get(path, { 'Accept-Language': 'de' }), 'number'), 'Nummer')
  })

  test('a model change appears at once, with a new ETag', async ({ assert }) => {
    const path = `${M}/entities/bookstore_Order`
    const before = await get(path)
    const local = await get(`${path}/fetchPlans/_local`)
    const doc = await demoDocument()
    const order = doc.entities.find((e: any) => e.name === 'bookstore_Order')
    order.attributes.push({
      name: 'giftWrap',
      type: 'boolean',
      caption: { en: 'Gift wrap', de: 'Geschenkverpackung' },
    })
    const result = await importDoc(doc)
    assert.equal(result.status, 'applied')

    const after = await get(path, { 'If-None-Match': before.headers.etag! })
    assert.equal(after.status, 200)
    assert.notEqual(after.headers.etag, before.headers.etag)
    assert.deepEqual(
      after.body.properties.find((p: any) => p.name === 'giftWrap'),
      prop('giftWrap', 'DATATYPE', 'boolean', 'Gift wrap')
    )
    const de = await get(path, { 'Accept-Language': 'de' })
    assert.equal(
      de.body.properties.find((p: any) => p.name === 'giftWrap').description,
      'Geschenkverpackung'
    )
    const localAfter = await get(`${path}/fetchPlans/_local`, {
      'If-None-Match': local.headers.etag!,
    })
    assert.equal(localAfter.status, 200)
    assert.include(localAfter.body.properties, 'giftWrap')
  })
})
