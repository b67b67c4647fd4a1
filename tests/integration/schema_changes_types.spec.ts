/**
 * Column type changes on a table with rows: widening keeps data, narrowing a string is refused
 * when a value is too long (truncates with allowDataLoss), conversions that may lose values are
 * refused while the column holds values, decimal precision/scale changes.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  columnOf,
  expectRefused as refused,
  insertRows,
  valuesOf,
} from '#tests/helpers/engine'
import type { Assert } from '@japa/assert'

type Attr = Record<string, unknown>
const item = (...attributes: Attr[]) => ({
  entities: [
    { name: 'inv_Item', attributes: [{ name: 'name', type: 'string', length: 20 }, ...attributes] },
  ],
})

async function items(attributes: Attr[], rows: Record<string, unknown>[]) {
  await applyDoc(item(...attributes))
  return insertRows('inv_item', rows)
}

const typeOf = async (name: string) => {
  const column = await columnOf('inv_item', name)
  return column.type
}
/** The values of a column, rows ordered by name. */
const values = (name: string) => valuesOf('inv_item', name, 'name')
const numbers = async (name: string) => {
  const list = await values(name)
  return list.map((v) => (v === null ? null : Number(v)))
}

/** Expects exactly one refusal matching `message` and nothing changed; returns the refusal. */
async function expectRefused(assert: Assert, doc: Record<string, unknown>, message: RegExp) {
  const result = await refused(assert, doc, message)
  assert.lengthOf(result.refusals, 1)
  return result.refusals[0]
}

test.group('schema changes: column types', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('widening int->long, string(50)->string(100), string->text, decimal(10,2)->decimal(12,2) keeps the data', async ({
    assert,
  }) => {
    await items(
      [
        { name: 'qty', type: 'int' },
        { name: 'code', type: 'string', length: 50 },
        { name: 'note', type: 'string', length: 200 },
        { name: 'price', type: 'decimal', precision: 10, scale: 2 },
      ],
      [
        {
          name: 'a',
          qty: 2147483647,
          code: 'X'.repeat(50),
          note: 'first note',
          price: 12345678.99,
        },
        { name: 'b', qty: -5, code: 'short', note: null, price: 0.5 },
      ]
    )

    await applyDoc(
      item(
        { name: 'qty', type: 'long' },
        { name: 'code', type: 'string', length: 100 },
        { name: 'note', type: 'text' },
        { name: 'price', type: 'decimal', precision: 12, scale: 2 }
      )
    )

    assert.equal(await typeOf('qty'), 'bigint')
    assert.equal(await typeOf('code'), 'varchar(100)')
    assert.equal(await typeOf('note'), 'text')
    assert.equal(await typeOf('price'), 'numeric(12, 2)')
    assert.deepEqual(await numbers('qty'), [2147483647, -5])
    assert.deepEqual(await values('code'), ['X'.repeat(50), 'short'])
    assert.deepEqual(await values('note'), ['first note', null])
    assert.deepEqual(await numbers('price'), [12345678.99, 0.5])
    // The wider types accept what the old ones could not hold.
    await insertRows('inv_item', [
      {
        name: 'c',
        qty: 2 ** 40,
        code: 'Y'.repeat(100),
        note: 'Z'.repeat(5000),
        price: 9999999999.99,
      },
    ])
    assert.deepEqual(await numbers('qty'), [2147483647, -5, 2 ** 40])
    assert.deepEqual(await numbers('price'), [12345678.99, 0.5, 9999999999.99])
  })

  test('widening int to string renders the numbers as text', async ({ assert }) => {
    await items(
      [{ name: 'qty', type: 'int' }],
      [
        { name: 'a', qty: 42 },
        { name: 'b', qty: null },
      ]
    )

    await applyDoc(item({ name: 'qty', type: 'string', length: 20 }))

    assert.equal(await typeOf('qty'), 'varchar(20)')
    assert.deepEqual(await values('qty'), ['42', null])
  })

  test('narrowing a string with a value that is too long is refused and changes nothing', async ({
    assert,
  }) => {
    await items(
      [{ name: 'code', type: 'string', length: 50 }],
      [
        { name: 'a', code: 'ABCDEFGH' },
        { name: 'b', code: 'ABC' },
      ]
    )

    const refusal = await expectRefused(
      assert,
      item({ name: 'code', type: 'string', length: 5 }),
      /changing inv_item\.code would cut 1 value\(s\) longer than 5/
    )
    assert.isTrue(refusal.overridable)
  })

  test('narrowing a string with allowDataLoss truncates the values that are too long', async ({
    assert,
  }) => {
    await items(
      [{ name: 'code', type: 'string', length: 50 }],
      [{ name: 'a', code: 'ABCDEFGH' }, { name: 'b', code: 'ABC' }, { name: 'c' }]
    )

    await applyDoc(item({ name: 'code', type: 'string', length: 5 }), { allowDataLoss: true })

    assert.equal(await typeOf('code'), 'varchar(5)')
    assert.deepEqual(await values('code'), ['ABCDE', 'ABC', null])
  })

  test('narrowing a string whose values all fit is allowed and keeps the data', async ({
    assert,
  }) => {
    await items(
      [{ name: 'code', type: 'string', length: 50 }],
      [{ name: 'a', code: 'ABCDE' }, { name: 'b', code: 'AB' }, { name: 'c' }]
    )

    await applyDoc(item({ name: 'code', type: 'string', length: 5 }))

    assert.equal(await typeOf('code'), 'varchar(5)')
    assert.deepEqual(await values('code'), ['ABCDE', 'AB', null])
  })

  test('a number too long for the new string type is refused; allowDataLoss cuts it', async ({
    assert,
  }) => {
    await items(
      [{ name: 'qty', type: 'int' }],
      [
        { name: 'a', qty: 1234567 },
        { name: 'b', qty: 42 },
      ]
    )
    const doc = item({ name: 'qty', type: 'string', length: 5 })

    await expectRefused(assert, doc, /changing inv_item\.qty would cut 1 value\(s\) longer than 5/)

    await applyDoc(doc, { allowDataLoss: true })
    assert.equal(await typeOf('qty'), 'varchar(5)')
    assert.deepEqual(await values('qty'), ['12345', '42'])
  })

  test('a string too long for a file reference (varchar 1024) is refused; one that fits converts', async ({
    assert,
  }) => {
    await items(
      [{ name: 'scan', type: 'string', length: 2000 }],
      [{ name: 'a', scan: 'x'.repeat(1500) }]
    )

    await expectRefused(
      assert,
      item({ name: 'scan', type: 'file' }),
      /changing inv_item\.scan would cut 1 value\(s\) longer than 1024/
    )

    await db.from('inv_item').update({ scan: 'files/2024/a.pdf' })
    await applyDoc(item({ name: 'scan', type: 'file' }))
    assert.equal(await typeOf('scan'), 'varchar(1024)')
    assert.deepEqual(await values('scan'), ['files/2024/a.pdf'])
  })

  test('converting string to int is refused while the column holds values', async ({ assert }) => {
    await items(
      [{ name: 'code', type: 'string', length: 50 }],
      [{ name: 'a', code: 'abc' }, { name: 'b', code: '12' }, { name: 'c' }]
    )

    const refusal = await expectRefused(
      assert,
      item({ name: 'code', type: 'int' }),
      /changing inv_item\.code from string to int would lose the values of 2 row\(s\)/
    )
    assert.isTrue(refusal.overridable)
  })

  test('converting string to int is allowed while the column holds no value', async ({
    assert,
  }) => {
    await items([{ name: 'code', type: 'string', length: 50 }], [{ name: 'a' }, { name: 'b' }])

    await applyDoc(item({ name: 'code', type: 'int' }))

    assert.equal(await typeOf('code'), 'integer')
    assert.deepEqual(await values('code'), [null, null])
    await db.from('inv_item').where('name', 'a').update({ code: 7 })
    assert.deepEqual(await values('code'), [7, null])
  })

  test('converting long to int is refused while the column holds values', async ({ assert }) => {
    await items([{ name: 'qty', type: 'long' }], [{ name: 'a', qty: 1 }])

    await expectRefused(
      assert,
      item({ name: 'qty', type: 'int' }),
      /changing inv_item\.qty from long to int would lose the values of 1 row\(s\)/
    )
  })

  test('raising decimal precision and scale keeps the values', async ({ assert }) => {
    await items(
      [{ name: 'price', type: 'decimal', precision: 10, scale: 2 }],
      [
        { name: 'a', price: 12345678.99 },
        { name: 'b', price: -0.01 },
      ]
    )

    await applyDoc(item({ name: 'price', type: 'decimal', precision: 14, scale: 4 }))

    assert.equal(await typeOf('price'), 'numeric(14, 4)')
    assert.deepEqual(await numbers('price'), [12345678.99, -0.01])
  })

  test('lowering the integer digits of a decimal is refused while it holds values', async ({
    assert,
  }) => {
    await items(
      [{ name: 'price', type: 'decimal', precision: 10, scale: 2 }],
      [{ name: 'a', price: 123.45 }]
    )

    const refusal = await expectRefused(
      assert,
      item({ name: 'price', type: 'decimal', precision: 10, scale: 4 }),
      /changing inv_item\.price from decimal to decimal would lose the values of 1 row\(s\)/
    )
    assert.isTrue(refusal.overridable)
  })

  test('lowering the integer digits of a decimal with allowDataLoss converts values that fit', async ({
    assert,
  }) => {
    await items(
      [{ name: 'price', type: 'decimal', precision: 10, scale: 2 }],
      [{ name: 'a', price: 123.45 }, { name: 'b' }]
    )

    await applyDoc(item({ name: 'price', type: 'decimal', precision: 10, scale: 4 }), {
      allowDataLoss: true,
    })

    assert.equal(await typeOf('price'), 'numeric(10, 4)')
    assert.deepEqual(await numbers('price'), [123.45, null])
  })

  test('changing decimal precision on a column without values is allowed', async ({ assert }) => {
    await items([{ name: 'price', type: 'decimal', precision: 10, scale: 2 }], [{ name: 'a' }])

    await applyDoc(item({ name: 'price', type: 'decimal', precision: 6, scale: 3 }))

    assert.equal(await typeOf('price'), 'numeric(6, 3)')
  })
})
