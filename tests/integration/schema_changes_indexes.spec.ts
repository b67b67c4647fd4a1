/**
 * Index changes on tables with rows: unique on/off, explicit (composite, named, unique) indexes,
 * unique indexes of soft-deleted entities (live rows only).
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  columnOf,
  expectRefused,
  indexesOf,
  insertRows,
  rowsOf,
  valuesOf,
} from '#tests/helpers/engine'

type Attr = Record<string, unknown>
const title: Attr = { name: 'title', type: 'string', length: 100 }
const isbn: Attr = { name: 'isbn', type: 'string', length: 20 }
const placed: Attr = { name: 'placed', type: 'date' }
const book = (attributes: Attr[], extra: Attr = {}) => ({
  entities: [{ name: 'lib_Book', attributes, ...extra }],
})

async function books(rows: Record<string, unknown>[], attributes = [title, isbn, placed]) {
  await applyDoc(book(attributes))
  return insertRows('lib_book', rows)
}

const uniqueIsbn = { name: 'uq_lib_book_isbn', columns: ['isbn'], unique: true }
const duplicates =
  /unique index on lib_book\(isbn\) is impossible: the column\(s\) hold duplicate values/

test.group('schema changes: indexes', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('unique on: refused while duplicates exist (never overridable)', async ({ assert }) => {
    await books([
      { title: 'Dune', isbn: '1' },
      { title: 'Emma', isbn: '1' },
      { title: 'Odyssey' },
      { title: 'Iliad' },
    ])

    const doc = book([title, { ...isbn, unique: true }, placed])
    const result = await expectRefused(assert, doc, duplicates, { allowDataLoss: true })
    assert.isFalse(result.refusals[0].overridable)
  })

  test('unique on and off without duplicates creates and drops the unique index', async ({
    assert,
  }) => {
    // Several NULLs are not duplicates.
    await books([
      { title: 'Dune', isbn: '1' },
      { title: 'Emma', isbn: '2' },
      { title: 'Odyssey' },
      { title: 'Iliad' },
    ])

    await applyDoc(book([title, { ...isbn, unique: true }, placed]))
    assert.deepEqual(await indexesOf('lib_book'), [uniqueIsbn])
    assert.deepEqual(await valuesOf('lib_book', 'isbn', 'title'), ['1', '2', null, null])
    await assert.rejects(() => insertRows('lib_book', [{ title: 'Copy', isbn: '2' }]))

    await applyDoc(book([title, isbn, placed]))
    assert.deepEqual(await indexesOf('lib_book'), [])
    await insertRows('lib_book', [{ title: 'Copy', isbn: '2' }])
    assert.lengthOf(await rowsOf('lib_book'), 5)
  })

  test('adding and removing explicit indexes', async ({ assert }) => {
    await books([{ title: 'Dune', isbn: '1', placed: '2024-01-02' }])
    const composite = { attributes: ['placed', 'title'] }
    const named = { attributes: ['isbn'], unique: true, name: 'book_isbn_key' }

    await applyDoc(book([title, isbn, placed], { indexes: [composite, named] }))

    assert.sameDeepMembers(await indexesOf('lib_book'), [
      { name: 'ix_lib_book_placed_title', columns: ['placed', 'title'], unique: false },
      { name: 'book_isbn_key', columns: ['isbn'], unique: true },
    ])
    assert.deepEqual(await valuesOf('lib_book', 'title'), ['Dune'])
    await assert.rejects(() => insertRows('lib_book', [{ title: 'Copy', isbn: '1' }]))

    await applyDoc(book([title, isbn, placed], { indexes: [composite] }))
    assert.deepEqual(await indexesOf('lib_book'), [
      { name: 'ix_lib_book_placed_title', columns: ['placed', 'title'], unique: false },
    ])
    await insertRows('lib_book', [{ title: 'Copy', isbn: '1' }])

    await applyDoc({ prune: true, ...book([title, isbn, placed]) })
    assert.deepEqual(await indexesOf('lib_book'), [])
    assert.lengthOf(await rowsOf('lib_book'), 2)
  })

  test('an explicit unique index over duplicated values is refused', async ({ assert }) => {
    await books([
      { title: 'Dune', isbn: '1' },
      { title: 'Emma', isbn: '1' },
    ])

    await expectRefused(
      assert,
      book([title, isbn, placed], { indexes: [{ attributes: ['isbn'], unique: true }] }),
      duplicates
    )
  })

  test('adding soft delete to an entity with a unique attribute keeps live rows unique', async ({
    assert,
  }) => {
    const unique = [title, { ...isbn, unique: true }]
    await books([{ isbn: '1' }, { isbn: '2' }], unique)

    await applyDoc(book(unique, { traits: ['softDelete'] }))

    assert.containsSubset(await columnOf('lib_book', 'deleted_date'), { nullable: true })
    assert.deepEqual(await valuesOf('lib_book', 'isbn', 'isbn'), ['1', '2'])
    await assert.rejects(() => insertRows('lib_book', [{ isbn: '1' }]))
    // A soft-deleted row no longer blocks its value.
    await db.from('lib_book').where('isbn', '1').update({ deleted_date: new Date() })
    await insertRows('lib_book', [{ isbn: '1' }])
    assert.lengthOf(await rowsOf('lib_book'), 3)
  })

  test('unique on a soft-deleted entity: duplicates among deleted rows do not count', async ({
    assert,
  }) => {
    const softDelete = { traits: ['softDelete'] }
    await applyDoc(book([title, isbn], softDelete))
    const deleted = new Date()
    await insertRows('lib_book', [
      { title: 'old', isbn: '1', deleted_date: deleted },
      { title: 'older', isbn: '1', deleted_date: deleted },
      { title: 'live', isbn: '1' },
      { title: 'second live', isbn: '1' },
    ])
    const doc = book([title, { ...isbn, unique: true }], softDelete)

    await expectRefused(assert, doc, duplicates)

    await db.from('lib_book').where('title', 'second live').delete()
    await applyDoc(doc)
    assert.deepEqual(await indexesOf('lib_book'), [uniqueIsbn])
    assert.lengthOf(await rowsOf('lib_book'), 3)
    await assert.rejects(() => insertRows('lib_book', [{ isbn: '1' }]))
  })
})
