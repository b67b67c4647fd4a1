/**
 * Attribute-level schema changes on a table with rows: add (nullable / mandatory), remove
 * (prune), mandatory on/off. Renames: schema_changes_attribute_renames.spec.ts; unique:
 * schema_changes_indexes.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  columnNamesOf,
  columnOf,
  expectRefused,
  importDoc,
  insertRows,
  valuesOf,
} from '#tests/helpers/engine'

type Attr = Record<string, unknown>
const book = (...attributes: Attr[]) => ({ entities: [{ name: 'lib_Book', attributes }] })
const title: Attr = { name: 'title', type: 'string', length: 100 }
const isbn: Attr = { name: 'isbn', type: 'string', length: 20 }
const code: Attr = { name: 'code', type: 'string', length: 10, mandatory: true }

/** lib_Book(title, isbn) with the given rows. */
async function books(rows: Record<string, unknown>[]) {
  await applyDoc(book(title, isbn))
  return insertRows('lib_book', rows)
}

/** The values of a column, rows ordered by title. */
const values = (column: string) => valuesOf('lib_book', column, 'title')

test.group('schema changes: attributes', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('adding a nullable attribute adds a nullable column and keeps the rows', async ({
    assert,
  }) => {
    await books([
      { title: 'Dune', isbn: '1' },
      { title: 'Emma', isbn: '2' },
    ])

    await applyDoc(book(title, isbn, { name: 'pageCount', type: 'int' }))

    const column = await columnOf('lib_book', 'page_count')
    assert.equal(column.type, 'integer')
    assert.isTrue(column.nullable)
    assert.deepEqual(await values('title'), ['Dune', 'Emma'])
    assert.deepEqual(await values('isbn'), ['1', '2'])
    assert.deepEqual(await values('page_count'), [null, null])
    await db.from('lib_book').where('title', 'Dune').update({ page_count: 412 })
    assert.deepEqual(await values('page_count'), [412, null])
  })

  test('adding a mandatory attribute to an empty table adds a NOT NULL column', async ({
    assert,
  }) => {
    await books([])

    await applyDoc(book(title, isbn, code))

    const column = await columnOf('lib_book', 'code')
    assert.isFalse(column.nullable)
    assert.equal(column.type, 'varchar(10)')
    await assert.rejects(() => insertRows('lib_book', [{ title: 'no code' }]))
  })

  test('adding a mandatory attribute to a table with rows is refused, even with allowDataLoss', async ({
    assert,
  }) => {
    await books([{ title: 'Dune' }])

    for (const allowDataLoss of [false, true]) {
      const result = await expectRefused(
        assert,
        book(title, isbn, code),
        /adding mandatory column lib_book\.code is impossible: the table has 1 row/,
        { allowDataLoss }
      )
      assert.isFalse(result.refusals[0].overridable)
    }
    assert.notInclude(await columnNamesOf('lib_book'), 'code')
  })

  test('removing an attribute that holds values is refused and changes nothing', async ({
    assert,
  }) => {
    await books([{ title: 'Dune', isbn: '1' }, { title: 'Emma' }])

    const result = await expectRefused(
      assert,
      { prune: true, ...book(title) },
      /dropping column lib_book\.isbn would lose the values of 1 row/
    )
    assert.isTrue(result.refusals[0].overridable)
  })

  test('removing an attribute that holds values is allowed with allowDataLoss', async ({
    assert,
  }) => {
    await books([{ title: 'Dune', isbn: '1' }, { title: 'Emma' }])

    await applyDoc({ prune: true, ...book(title) }, { allowDataLoss: true })

    assert.sameMembers(await columnNamesOf('lib_book'), ['id', 'title'])
    assert.deepEqual(await values('title'), ['Dune', 'Emma'])
    const attributes = await db.from('mg_attributes')
    assert.deepEqual(
      attributes.map((a) => a.name),
      ['title']
    )
  })

  test('removing an attribute without values drops its column', async ({ assert }) => {
    await books([{ title: 'Dune' }, { title: 'Emma' }])

    await applyDoc({ prune: true, ...book(title) })

    assert.sameMembers(await columnNamesOf('lib_book'), ['id', 'title'])
    assert.deepEqual(await values('title'), ['Dune', 'Emma'])
  })

  test('an attribute left out of a document without prune is kept', async ({ assert }) => {
    await books([{ title: 'Dune', isbn: '1' }])

    const result = await importDoc(book(title))

    assert.equal(result.status, 'unchanged')
    assert.deepEqual(await values('isbn'), ['1'])
  })

  test('mandatory on: refused while rows have no value, even with allowDataLoss', async ({
    assert,
  }) => {
    await books([{ title: 'Dune', isbn: '1' }, { title: 'Emma' }])

    for (const allowDataLoss of [false, true]) {
      const result = await expectRefused(
        assert,
        book(title, { ...isbn, mandatory: true }),
        /making lib_book\.isbn mandatory is impossible: 1 row\(s\) have no value/,
        { allowDataLoss }
      )
      assert.isFalse(result.refusals[0].overridable)
    }
  })

  test('mandatory on and off when every row has a value', async ({ assert }) => {
    await books([
      { title: 'Dune', isbn: '1' },
      { title: 'Emma', isbn: '2' },
    ])

    await applyDoc(book(title, { ...isbn, mandatory: true }))
    assert.containsSubset(await columnOf('lib_book', 'isbn'), { nullable: false })
    assert.deepEqual(await values('isbn'), ['1', '2'])
    await assert.rejects(() => insertRows('lib_book', [{ title: 'no isbn' }]))

    await applyDoc(book(title, isbn))
    assert.containsSubset(await columnOf('lib_book', 'isbn'), { nullable: true })
    assert.deepEqual(await values('isbn'), ['1', '2'])
    await insertRows('lib_book', [{ title: 'no isbn' }])
  })
})
