/**
 * app/i18n without a database: readable defaults, the lookup order of translations, the
 * translations cache, and the pure parts of the `messages` section (checks and plan).
 */
import { test } from '@japa/runner'
import { readableDefault, readableEntityName, readableEnumName, readableName } from '#i18n/defaults'
import { localeLevels, translationsOf } from '#i18n/catalog'
import type { MessageStore } from '#i18n/store'
import { checkMessages, messagePath, planMessages } from '#i18n/definition'
import type { MessageRow } from '#i18n/store'
import { Model } from '#engine/metadata/model'
import { normalizeModel } from '#engine/metadata/normalize'
import type { ModelDefinition } from '#engine/main'

const definition: ModelDefinition = normalizeModel({
  enums: [
    {
      name: 'com.example.Status',
      values: [
        { name: 'NEW', id: 'N', caption: { 'en': 'New', 'de': 'Neu', 'de-AT': 'Neu (AT)' } },
        { name: 'ON_HOLD', id: 'H' },
      ],
    },
  ],
  entities: [
    {
      name: 'shop_OrderLine',
      caption: { en: 'Line', de: 'Position' },
      traits: ['versioned'],
      attributes: [
        { name: 'quantity', type: 'int', caption: { de: 'Menge' } },
        { name: 'customerID', type: 'string' },
      ],
    },
  ],
  fetchPlans: [],
})

/** A stand-in for the stored translations of an instance. */
function store(rows: Record<string, Record<string, string>>, generation = 1): MessageStore {
  return {
    generation,
    get: (locale: string) => (rows[locale] ? new Map(Object.entries(rows[locale])) : undefined),
  } as unknown as MessageStore
}

const row = (id: number, locale: string, key: string, value: string): MessageRow => ({
  id,
  locale,
  key,
  value,
})

test.group('i18n: readable defaults', () => {
  test('{$self}')
    .with([
      ['firstName', 'First name'],
      ['name', 'Name'],
      ['id', 'Id'],
      ['createdBy', 'Created by'],
      ['lastModifiedDate', 'Last modified date'],
      ['weightKg', 'Weight kg'],
      ['customerID', 'Customer ID'],
      ['htmlURLPart', 'Html URL part'],
      ['alpha3', 'Alpha3'],
      ['snake_case_name', 'Snake case name'],
      ['NEW', 'New'],
      ['FIXED_AMOUNT', 'Fixed amount'],
      ['ON_HOLD2', 'On hold2'],
      ['X', 'X'],
    ])
    .run(({ assert }, [name, expected]) => {
      assert.equal(readableName(name), expected)
    })

  test('entities, enums and other keys', ({ assert }) => {
    assert.equal(readableEntityName('bookstore_OrderLine'), 'Order line')
    assert.equal(readableEntityName('ref$Country'), 'Country')
    assert.equal(readableEntityName('Order'), 'Order')
    assert.equal(readableEntityName('shop_order_Line'), 'Order line')
    assert.equal(readableEnumName('com.example.bookstore.OrderStatus'), 'Order status')
    assert.equal(readableEnumName('Status'), 'Status')
    assert.equal(readableDefault('bookstore_Order.placedAt'), 'Placed at')
    assert.equal(readableDefault('bookstore_Order'), 'Order')
    assert.equal(readableDefault('com.example.Genre.NON_FICTION'), 'Non fiction')
    assert.equal(readableDefault('com.example.Genre'), 'Genre')
  })
})

test.group('i18n: translations', () => {
  test('locale levels', ({ assert }) => {
    assert.deepEqual(localeLevels('de_AT'), ['de_AT', 'de'])
    assert.deepEqual(localeLevels('de'), ['de'])
  })

  test('stored > caption > language > default, entity and enum maps sorted', ({ assert }) => {
    const model = new Model(1, definition)
    const t = translationsOf(
      model,
      store({
        de: { 'shop_OrderLine.quantity': 'Anzahl', 'com.example.Status': 'Zustand' },
        de_AT: { shop_OrderLine: 'Zeile (AT)' },
      }),
      'de_AT'
    )
    assert.deepEqual(t.entities.get('shop_OrderLine'), {
      'shop_OrderLine': 'Zeile (AT)',
      'shop_OrderLine.customerID': 'Customer ID',
      'shop_OrderLine.id': 'Id',
      'shop_OrderLine.quantity': 'Anzahl',
      'shop_OrderLine.version': 'Version',
    })
    assert.deepEqual(t.enums.get('com.example.Status'), {
      'com.example.Status': 'Zustand',
      'com.example.Status.NEW': 'Neu (AT)',
      'com.example.Status.ON_HOLD': 'On hold',
    })
    assert.deepEqual(t.allEntities, t.entities.get('shop_OrderLine'))
    assert.equal(t.text('shop_OrderLine.quantity'), 'Anzahl')
    assert.equal(t.text('shop_Other.fooBar'), 'Foo bar', 'not in the model: a default')

    const en = translationsOf(model, store({}), 'en')
    assert.equal(en.text('shop_OrderLine'), 'Line')
    assert.equal(en.text('shop_OrderLine.quantity'), 'Quantity', 'no en caption')
    const fr = translationsOf(model, store({}), 'fr')
    assert.equal(fr.text('com.example.Status.NEW'), 'New', 'no fr caption: the readable default')
  })

  test('cached per model snapshot, stored-messages generation and locale', ({ assert }) => {
    const model = new Model(1, definition)
    const first = store({}, 1)
    const a = translationsOf(model, first, 'de')
    assert.strictEqual(translationsOf(model, first, 'de'), a)
    assert.notStrictEqual(translationsOf(model, first, 'en'), a)
    const reloaded = store({ de: { shop_OrderLine: 'Zeile' } }, 2)
    const b = translationsOf(model, reloaded, 'de')
    assert.notStrictEqual(b, a)
    assert.equal(b.text('shop_OrderLine'), 'Zeile')
    const next = new Model(2, definition)
    assert.notStrictEqual(translationsOf(next, reloaded, 'de'), b)
  })
})

test.group('i18n: the messages section (pure)', () => {
  test('JSON paths', ({ assert }) => {
    assert.equal(messagePath('de'), '$.messages.de')
    assert.equal(
      messagePath('de', 'shop_OrderLine.quantity'),
      "$.messages.de['shop_OrderLine.quantity']"
    )
    assert.equal(messagePath('en-US', "it's"), "$.messages['en-US']['it\\'s']")
  })

  test('checks: locale codes, keys of the model, empty texts', ({ assert }) => {
    const problems = checkMessages(
      {
        'de': {
          'shop_OrderLine': 'Position',
          'shop_OrderLine.version': 'Version',
          'com.example.Status.ON_HOLD': 'Angehalten',
          'shop_OrderLine.qty': 'Menge',
          'com.example.Status.DONE': 'Fertig',
          'shop_Nope': 'x',
          'com.example.Status': '  ',
          'com.example.Status.NEW': null,
        },
        'en-US': { shop_OrderLine: 'Line' },
        'de_AT': {},
        'EN': {},
      },
      definition
    )
    assert.deepEqual(
      problems.map((p) => p.path),
      [
        "$.messages.de['shop_OrderLine.qty']",
        "$.messages.de['com.example.Status.DONE']",
        "$.messages.de['shop_Nope']",
        "$.messages.de['com.example.Status']",
        "$.messages['en-US']",
        '$.messages.EN',
      ]
    )
    assert.match(problems[0].message, /entity 'shop_OrderLine' has no attribute 'qty'/)
    assert.match(problems[1].message, /enum 'com.example.Status' has no value 'DONE'/)
    assert.match(problems[2].message, /no entity, attribute, enum or enum value/)
    assert.match(problems[3].message, /must not be empty/)
    assert.match(problems[4].message, /invalid locale 'en-US'/)
  })

  test('plan: set, change, null removes, unnamed kept, change lines per locale', ({ assert }) => {
    const rows = [
      row(1, 'de', 'shop_OrderLine', 'Position'),
      row(2, 'de', 'shop_OrderLine.quantity', 'Menge'),
      row(3, 'en', 'shop_OrderLine', 'Line'),
    ]
    const plan = planMessages(
      rows,
      {
        de: {
          'shop_OrderLine': 'Zeile',
          'shop_OrderLine.quantity': null,
          'com.example.Status': 'Zustand',
        },
      },
      false,
      definition
    )
    assert.deepEqual(
      Object.fromEntries([...plan.wanted].map(([l, m]) => [l, Object.fromEntries(m)])),
      {
        de: { 'shop_OrderLine': 'Zeile', 'com.example.Status': 'Zustand' },
        en: { shop_OrderLine: 'Line' },
      }
    )
    assert.deepEqual(plan.changes, ['messages de: 1 added, 1 changed, 1 removed'])
    assert.deepEqual(planMessages(rows, undefined, false, definition).changes, [])
    assert.deepEqual(planMessages(rows, undefined, true, definition).changes, [], 'no section')
  })

  test('plan: prune removes what the section does not name, in every locale', ({ assert }) => {
    const rows = [
      row(1, 'de', 'shop_OrderLine', 'Position'),
      row(2, 'en', 'shop_OrderLine', 'Line'),
    ]
    const plan = planMessages(rows, { de: { shop_OrderLine: 'Position' } }, true, definition)
    assert.deepEqual([...plan.wanted.keys()], ['de'])
    assert.deepEqual(plan.changes, ['messages en: 1 removed'])
  })

  test('plan: translations follow renames and go with removed elements', ({ assert }) => {
    const rows = [
      row(1, 'de', 'shop_Line', 'Position'),
      row(2, 'de', 'shop_Line.qty', 'Menge'),
      row(3, 'de', 'shop_Line.gone', 'Weg'),
      row(4, 'de', 'com.example.Old', 'Alt'),
    ]
    const plan = planMessages(rows, undefined, false, definition, {
      entities: new Map([['shop_Line', 'shop_OrderLine']]),
      attributes: new Map([['shop_OrderLine', new Map([['qty', 'quantity']])]]),
    })
    assert.deepEqual(Object.fromEntries(plan.wanted.get('de')!), {
      'shop_OrderLine': 'Position',
      'shop_OrderLine.quantity': 'Menge',
    })
    assert.deepEqual(plan.changes, ['messages de: 2 added, 4 removed'])
  })
})
