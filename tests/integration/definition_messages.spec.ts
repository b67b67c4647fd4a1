/**
 * The `messages` section of the definition document: stored in mg_messages in the import's
 * transaction (with the model), idempotent, exported and re-imported without change, prune,
 * translations that follow renamed and removed elements, invalid documents with JSON paths that
 * change nothing, dry runs, and the 'messages' version that other instances watch.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { definitions, renderDocument } from '#definition/main'
import { DEMO_FILE } from '#start/bootstrap'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'
import { caption } from '#i18n/main'

const demo = async () => JSON.parse(await readFile(app.makePath(DEMO_FILE), 'utf8'))
const version = async (key: 'model' | 'messages') =>
  Number((await db.from('mg_versions').where('key', key).first()).version)
const stored = async () =>
  (await db.from('mg_messages').select('locale', 'key', 'value').orderBy(['locale', 'key'])).map(
    (r) => `${r.locale} ${r.key}=${r.value}`
  )

const item = {
  name: 'shop_Item',
  caption: { en: 'Item', de: 'Artikel' },
  traits: ['versioned'],
  attributes: [
    { name: 'code', type: 'string', length: 20 },
    { name: 'note', type: 'text' },
    { name: 'state', type: 'enum', enum: 'com.shop.State' },
  ],
}
const state = {
  name: 'com.shop.State',
  values: [
    { name: 'ACTIVE', id: 'A' },
    { name: 'RETIRED', id: 'R' },
  ],
}
const model = { enums: [state], entities: [item] }
const messages = {
  de: {
    'shop_Item.code': 'Artikelnummer',
    'shop_Item.version': 'Version',
    'com.shop.State': 'Zustand',
    'com.shop.State.ACTIVE': 'Aktiv',
  },
  en: { 'shop_Item.code': 'Item code' },
}

async function applied(doc: Record<string, unknown>, options: { allowDataLoss?: boolean } = {}) {
  const result = await importDoc(doc, options)
  if (result.status !== 'applied') throw new Error(`expected applied: ${JSON.stringify(result)}`)
  return result
}

test.group('definition: messages', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('stored with the model in one import; this instance sees them at once', async ({
    assert,
  }) => {
    const before = await version('messages')
    const result = await applied({ ...model, messages })
    assert.includeMembers(result.changes, ['messages de: 4 added', 'messages en: 1 added'])
    assert.deepEqual(await stored(), [
      'de com.shop.State=Zustand',
      'de com.shop.State.ACTIVE=Aktiv',
      'de shop_Item.code=Artikelnummer',
      'de shop_Item.version=Version',
      'en shop_Item.code=Item code',
    ])
    assert.equal(await version('messages'), before + 1)
    assert.equal(caption('de', 'shop_Item.code'), 'Artikelnummer')
    assert.equal(caption('de', 'shop_Item'), 'Artikel', 'the caption field')
    assert.equal(caption('de', 'com.shop.State.RETIRED'), 'Retired', 'the readable default')
    assert.equal(caption('en', 'shop_Item.code'), 'Item code')
  })

  test('re-importing the same document changes nothing', async ({ assert }) => {
    await applied({ ...model, messages })
    const before = await snapshotState()
    const again = await importDoc({ ...model, messages })
    assert.equal(again.status, 'unchanged', JSON.stringify(again.changes))
    assert.deepEqual(again.changes, [])
    assert.equal(await snapshotState(), before)
  })

  test('a messages-only import applies without a model change', async ({ assert }) => {
    await applied(model)
    const modelVersion = await version('model')
    const result = await applied({ messages: { de: { shop_Item: 'Ware' } } })
    assert.deepEqual(result.changes, ['messages de: 1 added'])
    assert.deepEqual(result.steps, [])
    assert.equal(await version('model'), modelVersion)
    assert.equal(caption('de', 'shop_Item'), 'Ware', 'the section wins over the caption field')
  })

  test('changing, removing (null) and keeping unnamed translations', async ({ assert }) => {
    await applied({ ...model, messages })
    const result = await applied({
      messages: {
        de: { 'shop_Item.code': 'Code', 'com.shop.State': null },
        fr: { shop_Item: 'Article' },
      },
    })
    assert.deepEqual(result.changes, ['messages de: 1 changed, 1 removed', 'messages fr: 1 added'])
    assert.deepEqual(await stored(), [
      'de com.shop.State.ACTIVE=Aktiv',
      'de shop_Item.code=Code',
      'de shop_Item.version=Version',
      'en shop_Item.code=Item code',
      'fr shop_Item=Article',
    ])
    // null for a translation that is not stored: nothing to do.
    const noop = await importDoc({ messages: { de: { 'com.shop.State': null } } })
    assert.equal(noop.status, 'unchanged')
  })

  test('prune: a messages section replaces all stored translations; none leaves them', async ({
    assert,
  }) => {
    await applied({ ...model, messages })
    const kept = await importDoc({ prune: true, ...model })
    assert.equal(kept.status, 'unchanged', 'prune without a messages section')
    assert.lengthOf(await stored(), 5)
    const result = await applied({ prune: true, ...model, messages: { de: { shop_Item: 'Ware' } } })
    assert.deepEqual(result.changes, ['messages de: 1 added, 4 removed', 'messages en: 1 removed'])
    assert.deepEqual(await stored(), ['de shop_Item=Ware'])
  })

  test('export -> import is unchanged (demo with translations, JSON and YAML)', async ({
    assert,
  }) => {
    await applied({
      ...(await demo()),
      messages: {
        de: { 'bookstore_Order.id': 'ID', 'com.example.bookstore.Genre.POETRY': 'Lyrik' },
        en: { 'bookstore_Order.id': 'ID' },
      },
    })
    const e = await engine()
    const exported = await definitions(e).exportDocument()
    assert.deepEqual(exported.messages, {
      de: { 'bookstore_Order.id': 'ID', 'com.example.bookstore.Genre.POETRY': 'Lyrik' },
      en: { 'bookstore_Order.id': 'ID' },
    })
    const before = await snapshotState()
    for (const format of ['json', 'yaml'] as const) {
      const result = await definitions(await engine()).importText(
        renderDocument(exported, format),
        format
      )
      assert.equal(result.status, 'unchanged', JSON.stringify(result.changes))
      assert.equal(await snapshotState(), before, format)
    }
  })

  test('no stored translations: no messages section in the export', async ({ assert }) => {
    await applied(model)
    assert.notProperty(await definitions(await engine()).exportDocument(), 'messages')
  })

  test('renames carry translations along; removed elements take theirs', async ({ assert }) => {
    await applied({ ...model, messages })
    await applied({
      enums: [state],
      entities: [
        {
          ...item,
          name: 'shop_Article',
          renamedFrom: 'shop_Item',
          attributes: [
            { name: 'sku', type: 'string', length: 20, renamedFrom: 'code' },
            item.attributes[1],
            item.attributes[2],
          ],
        },
      ],
    })
    assert.deepEqual(await stored(), [
      'de com.shop.State=Zustand',
      'de com.shop.State.ACTIVE=Aktiv',
      'de shop_Article.sku=Artikelnummer',
      'de shop_Article.version=Version',
      'en shop_Article.sku=Item code',
    ])
    assert.equal(caption('de', 'shop_Article.sku'), 'Artikelnummer')
    // Removing the attribute (prune) and the enum value removes their translations.
    const result = await applied({
      prune: true,
      enums: [{ ...state, values: [state.values[1]] }],
      entities: [
        {
          ...item,
          name: 'shop_Article',
          attributes: [item.attributes[1], item.attributes[2]],
        },
      ],
    })
    assert.includeMembers(result.changes, ['messages de: 2 removed', 'messages en: 1 removed'])
    assert.deepEqual(await stored(), [
      'de com.shop.State=Zustand',
      'de shop_Article.version=Version',
    ])
  })

  test('translations for elements the same document adds are valid', async ({ assert }) => {
    const result = await importDoc({ ...model, messages: { de: { 'shop_Item.note': 'Notiz' } } })
    assert.equal(result.status, 'applied', JSON.stringify(result.problems))
  })

  test('invalid: every problem with its JSON path, nothing changed', async ({ assert }) => {
    await applied({ ...model, messages })
    const before = await snapshotState()
    const result = await importDoc({
      ...model,
      messages: {
        'de': {
          'shop_Item.cod': 'x',
          'shop_Nope': 'x',
          'com.shop.State.GONE': 'x',
          'shop_Item.note': '',
          'shop_Item.code': 'fine',
        },
        'en-US': { shop_Item: 'Item' },
      },
    })
    assert.equal(result.status, 'invalid')
    assert.deepEqual(
      result.problems.map((p) => p.path),
      [
        "$.messages.de['shop_Item.cod']",
        "$.messages.de['shop_Nope']",
        "$.messages.de['com.shop.State.GONE']",
        "$.messages.de['shop_Item.note']",
        "$.messages['en-US']",
      ]
    )
    assert.match(result.problems[0].message, /entity 'shop_Item' has no attribute 'cod'/)
    assert.match(result.problems[4].message, /'en', 'de', 'en_US'/)
    assert.equal(await snapshotState(), before)
  })

  test('invalid shapes: {$self}')
    .with([
      { messages: [], path: '$.messages' },
      { messages: { de: 'Artikel' }, path: '$.messages.de' },
      { messages: { de: { 'shop_Item.code': 42 } }, path: "$.messages.de['shop_Item.code']" },
      { messages: { de: { shop_Item: ['x'] } }, path: "$.messages.de['shop_Item']" },
    ])
    .run(async ({ assert }, { messages: section, path }) => {
      await applied(model)
      const before = await snapshotState()
      const result = await importDoc({ messages: section })
      assert.equal(result.status, 'invalid')
      assert.deepEqual(
        result.problems.map((p) => p.path),
        [path]
      )
      assert.equal(await snapshotState(), before)
    })

  test('an invalid model part keeps valid translations out too', async ({ assert }) => {
    await applied(model)
    const before = await snapshotState()
    const result = await importDoc({
      entities: [{ ...item, attributes: [{ name: 'code', type: 'strng' }] }],
      messages: { de: { shop_Item: 'Ware' } },
    })
    assert.equal(result.status, 'invalid')
    assert.equal(await snapshotState(), before)
  })

  test('same transaction: a refused model change writes no translation', async ({ assert }) => {
    await applied(model)
    await db.table('shop_item').insert({ id: randomUUID(), code: 'A-1', version: 1 })
    const before = await snapshotState()
    const messagesVersion = await version('messages')
    const result = await importDoc({
      prune: true,
      enums: [state],
      entities: [{ ...item, attributes: [item.attributes[1], item.attributes[2]] }],
      messages: { de: { shop_Item: 'Ware' } },
    })
    assert.equal(result.status, 'refused')
    assert.equal(await snapshotState(), before)
    assert.equal(await version('messages'), messagesVersion)
  })

  test('dry run lists the changes and writes nothing', async ({ assert }) => {
    await applied(model)
    const before = await snapshotState()
    const result = await importDoc({ messages }, { dryRun: true })
    assert.equal(result.status, 'dry-run')
    assert.deepEqual(result.changes, ['messages de: 4 added', 'messages en: 1 added'])
    assert.equal(await snapshotState(), before)
  })
})
