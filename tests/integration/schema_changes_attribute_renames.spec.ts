/**
 * Attribute renames (renamedFrom) on tables with rows: plain columns (with unique index and type
 * change), MANY_TO_ONE (column, foreign key, index), MANY_TO_MANY (link table), and renames onto
 * names that the same plan frees (swap, rename onto a dropped column).
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { applyModel } from '#engine/main'
import { resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  columnNamesOf,
  columnOf,
  expectRefused,
  foreignKeysOf,
  indexesOf,
  insertRows,
  rowsOf,
  snapshotState,
  table,
  tuplesOf,
  valuesOf,
} from '#tests/helpers/engine'

type Attr = Record<string, unknown>
const book = (...attributes: Attr[]) => ({ entities: [{ name: 'lib_Book', attributes }] })
const title: Attr = { name: 'title', type: 'string', length: 100 }
const isbn: Attr = { name: 'isbn', type: 'string', length: 20 }
const renamedIsbn = (extra: Attr = {}) => ({
  ...isbn,
  name: 'isbnCode',
  renamedFrom: 'isbn',
  ...extra,
})

async function books(rows: Record<string, unknown>[], ...attributes: Attr[]) {
  await applyDoc(book(...attributes))
  return insertRows('lib_book', rows)
}

const customer = { name: 'hr_Customer', attributes: [{ name: 'name', type: 'string' }] }
const tag = { name: 'hr_Tag', attributes: [{ name: 'label', type: 'string', length: 50 }] }
const order = (customerAttr = 'customer', tagsAttr = 'tags') => ({
  name: 'hr_Order',
  attributes: [
    { name: 'number', type: 'string', length: 20 },
    {
      name: customerAttr,
      type: 'association',
      cardinality: 'MANY_TO_ONE',
      target: 'hr_Customer',
      ...(customerAttr !== 'customer' && { renamedFrom: 'customer' }),
    },
    {
      name: tagsAttr,
      type: 'association',
      cardinality: 'MANY_TO_MANY',
      target: 'hr_Tag',
      ...(tagsAttr !== 'tags' && { renamedFrom: 'tags' }),
    },
  ],
})

async function shop() {
  await applyDoc({ entities: [customer, tag, order()] })
  const [c] = await insertRows('hr_customer', [{ name: 'Alice' }])
  const [t] = await insertRows('hr_tag', [{ label: 'vip' }])
  const [o] = await insertRows('hr_order', [{ number: 'A-1', customer_id: c.id }])
  await db.table('hr_order_tags_link').insert({ hr_order_id: o.id, hr_tag_id: t.id })
  return { c, t, o }
}

test.group('schema changes: attribute renames', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('renaming an attribute keeps its values and its unique index', async ({ assert }) => {
    await books(
      [
        { title: 'Dune', isbn: '1' },
        { title: 'Emma', isbn: '2' },
      ],
      title,
      { ...isbn, unique: true }
    )

    await applyDoc(book(title, renamedIsbn({ unique: true })))

    assert.sameMembers(await columnNamesOf('lib_book'), ['id', 'title', 'isbn_code'])
    assert.deepEqual(await valuesOf('lib_book', 'isbn_code', 'title'), ['1', '2'])
    const indexes = await indexesOf('lib_book')
    assert.deepEqual(indexes, [
      { name: 'uq_lib_book_isbn_code', columns: ['isbn_code'], unique: true },
    ])
    await assert.rejects(() => insertRows('lib_book', [{ title: 'Copy', isbn_code: '1' }]))
    const stored = await db.from('mg_attributes').where('name', 'isbnCode').first()
    assert.equal(stored.column_name, 'isbn_code')
  })

  test('renaming an attribute and changing its type in one import keeps the values', async ({
    assert,
  }) => {
    await books([{ title: 'Dune', isbn: '978-0441' }], title, isbn)

    await applyDoc(book(title, renamedIsbn({ length: 40 })))

    assert.containsSubset(await columnOf('lib_book', 'isbn_code'), { type: 'varchar(40)' })
    assert.notInclude(await columnNamesOf('lib_book'), 'isbn')
    assert.deepEqual(await valuesOf('lib_book', 'isbn_code'), ['978-0441'])
  })

  test('renaming an attribute into a unique one is refused when its values repeat', async ({
    assert,
  }) => {
    await books(
      [
        { title: 'Dune', isbn: '1' },
        { title: 'Emma', isbn: '1' },
      ],
      title,
      isbn
    )

    await expectRefused(
      assert,
      book(title, renamedIsbn({ unique: true })),
      /unique index on lib_book\(isbn_code\) is impossible: the column\(s\) hold duplicate values/
    )
  })

  test('renaming a MANY_TO_ONE attribute keeps its values, foreign key and index', async ({
    assert,
  }) => {
    const { c, o } = await shop()

    await applyDoc({ entities: [order('client')] })

    assert.sameMembers(await columnNamesOf('hr_order'), ['id', 'number', 'client_id'])
    assert.deepEqual(await foreignKeysOf('hr_order'), [
      { column: 'client_id', table: 'hr_customer', refColumn: 'id' },
    ])
    assert.deepEqual(await indexesOf('hr_order'), [
      { name: 'ix_hr_order_client_id', columns: ['client_id'], unique: false },
    ])
    assert.deepEqual(await tuplesOf('hr_order', ['id', 'client_id']), [[o.id, c.id]])
    await assert.rejects(() =>
      db.from('hr_order').where('id', o.id).update({ client_id: randomUUID() })
    )
  })

  test('renaming a MANY_TO_MANY attribute renames its link table and keeps the link rows', async ({
    assert,
  }) => {
    const { t, o } = await shop()

    await applyDoc({ entities: [order('customer', 'labels')] })

    assert.isNull(await table('hr_order_tags_link'))
    assert.sameDeepMembers(await foreignKeysOf('hr_order_labels_link'), [
      { column: 'hr_order_id', table: 'hr_order', refColumn: 'id' },
      { column: 'hr_tag_id', table: 'hr_tag', refColumn: 'id' },
    ])
    assert.deepEqual(await rowsOf('hr_order_labels_link', 'hr_tag_id'), [
      { hr_order_id: o.id, hr_tag_id: t.id },
    ])
  })

  // Through applyModel with explicit rename hints: the importer derives no hint when the new name
  // is also an existing attribute (definition/merge.ts matches by name before renamedFrom).
  test('renames onto names the same plan frees: swap, rename onto a dropped column', async ({
    assert,
  }) => {
    const plain = (name: string) => ({ name, type: 'string', length: 20 })
    const ref = (name: string) => ({
      name,
      type: 'association',
      cardinality: 'MANY_TO_ONE',
      target: 'hr_Tag',
    })
    const model = (...attributes: Attr[]) =>
      ({ enums: [], fetchPlans: [], entities: [tag, { name: 'hr_Swap', attributes }] }) as any
    await applyModel(
      db,
      model(plain('a'), plain('b'), plain('code'), plain('isbn'), ref('first'), ref('second'))
    )
    const [t1, t2] = await insertRows('hr_tag', [{ label: 'one' }, { label: 'two' }])
    const [row] = await insertRows('hr_swap', [
      { a: 'A', b: 'B', code: 'old', isbn: 'new', first_id: t1.id, second_id: t2.id },
    ])
    const next = model(plain('a'), plain('b'), plain('code'), ref('first'), ref('second'))
    const renames = new Map([
      ['a', 'b'],
      ['b', 'a'],
      ['code', 'isbn'],
      ['first_id', 'second_id'],
      ['second_id', 'first_id'],
    ])
    const hints = { tables: new Map(), columns: new Map([['hr_swap', renames]]) }

    const before = await snapshotState()
    const refused = await applyModel(db, next, { hints })
    assert.equal(refused.status, 'refused')
    assert.match(
      refused.refusals[0].message,
      /dropping column hr_swap\.code would lose the values of 1 row/
    )
    assert.equal(await snapshotState(), before)

    const result = await applyModel(db, next, { hints, allowDataLoss: true })

    assert.equal(result.status, 'applied', JSON.stringify(result))
    assert.deepEqual(await rowsOf('hr_swap'), [
      { id: row.id, a: 'B', b: 'A', code: 'new', first_id: t2.id, second_id: t1.id },
    ])
    assert.sameDeepMembers(await foreignKeysOf('hr_swap'), [
      { column: 'first_id', table: 'hr_tag', refColumn: 'id' },
      { column: 'second_id', table: 'hr_tag', refColumn: 'id' },
    ])
    await assert.rejects(() => db.from('hr_swap').update({ first_id: randomUUID() }))
  })
})
