/**
 * Dry runs, atomicity of an import (a problem in the LAST entity changes nothing at all) and the
 * changelog / model version written by every applied import.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import {
  applyDoc,
  importDoc,
  insertRows,
  modelVersion,
  valuesOf,
  snapshotState,
  table,
} from '#tests/helpers/engine'

const author = (...extra: Record<string, unknown>[]) => ({
  name: 'lib_Author',
  attributes: [{ name: 'name', type: 'string', length: 50 }, ...extra],
})
const bookWith = (isbn: Record<string, unknown>, ...extra: Record<string, unknown>[]) => ({
  name: 'lib_Book',
  attributes: [
    { name: 'title', type: 'string', length: 100 },
    { name: 'isbn', type: 'string', length: 20, ...isbn },
    { name: 'author', type: 'association', cardinality: 'MANY_TO_ONE', target: 'lib_Author' },
    ...extra,
  ],
})
const book = (...extra: Record<string, unknown>[]) => bookWith({}, ...extra)
const shelf = { name: 'lib_Shelf', attributes: [{ name: 'label', type: 'string', length: 10 }] }

/** Authors and books with data; two books share an ISBN. */
async function library() {
  await applyDoc({ entities: [author(), book()] })
  const [a] = await insertRows('lib_author', [{ name: 'Herbert' }])
  await insertRows('lib_book', [
    { title: 'Dune', isbn: '1', author_id: a.id },
    { title: 'Dune (reprint)', isbn: '1', author_id: a.id },
  ])
}

/** Changes to the first entities that would all apply on their own. */
const validChanges = () => [
  shelf,
  author({ name: 'born', type: 'int' }),
  book({ name: 'pages', type: 'int' }),
]

const changelog = (version: number) =>
  db.from('mg_schema_changelog').where('model_version', version).orderBy('id')

test.group('schema changes: dry run, atomicity, changelog', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('a dry run returns the steps with their SQL and changes nothing; applying runs exactly those steps', async ({
    assert,
  }) => {
    await library()
    const [title, , authorRelation] = book().attributes
    const renamedBook = {
      name: 'lib_Book',
      attributes: [
        title,
        { name: 'code', type: 'string', length: 20, renamedFrom: 'isbn' },
        authorRelation,
        { name: 'pages', type: 'int' },
      ],
    }
    const doc = { entities: [shelf, author({ name: 'born', type: 'int' }), renamedBook] }
    const before = await snapshotState()

    const dry = await importDoc(doc, { dryRun: true })

    assert.equal(dry.status, 'dry-run')
    assert.equal(dry.version, 1)
    assert.isAbove(dry.steps.length, 2)
    for (const step of dry.steps) {
      assert.isNotEmpty(step.sql, step.description)
      for (const sql of step.sql) assert.match(sql, /^(CREATE|ALTER|DROP|INSERT|UPDATE) /)
    }
    const sql = dry.steps.flatMap((s) => s.sql).join('\n')
    assert.include(sql, 'CREATE TABLE "lib_shelf"')
    assert.match(sql, /"pages" integer/)
    assert.match(sql, /RENAME COLUMN "isbn" TO "code"/)
    assert.includeMembers(dry.changes, ['entity lib_Shelf: added'])
    assert.equal(await snapshotState(), before)
    assert.isNull(await table('lib_shelf'))

    const applied = await applyDoc(doc)
    assert.deepEqual(applied.steps, dry.steps)
    assert.deepEqual(applied.changes, dry.changes)
    assert.deepEqual(await valuesOf('lib_book', 'code', 'title'), ['1', '1'])
  })

  test('a dry run of a refused change reports the refusal and changes nothing', async ({
    assert,
  }) => {
    await library()
    const before = await snapshotState()

    const result = await importDoc({ prune: true, entities: [author()] }, { dryRun: true })

    assert.equal(result.status, 'refused')
    assert.match(
      result.refusals[0].message,
      /dropping entity lib_Book \(table lib_book\) would delete 2 row\(s\)/
    )
    assert.equal(await snapshotState(), before)
  })

  test('a validation error in the last entity changes nothing at all', async ({ assert }) => {
    await library()
    const before = await snapshotState()
    const broken = {
      name: 'lib_Broken',
      attributes: [
        { name: 'x', type: 'strng' },
        { name: 'y', type: 'association', cardinality: 'MANY_TO_ONE', target: 'lib_Nowhere' },
      ],
    }

    const result = await importDoc({ entities: [...validChanges(), broken] })

    assert.equal(result.status, 'invalid')
    assert.deepEqual(
      result.problems.map((p) => p.path),
      ['$.entities[3].attributes[0].type', '$.entities[3].attributes[1].target']
    )
    assert.match(result.problems[0].message, /unknown type 'strng'/)
    assert.match(result.problems[1].message, /unknown entity 'lib_Nowhere'/)
    assert.equal(await snapshotState(), before)
    assert.isNull(await table('lib_shelf'))
  })

  test('a structural error (misspelt key) in the last entity changes nothing at all', async ({
    assert,
  }) => {
    await library()
    const before = await snapshotState()

    const result = await importDoc({
      entities: [
        ...validChanges(),
        { name: 'lib_Broken', attributes: [{ name: 'x', type: 'string', mandatroy: true }] },
      ],
    })

    assert.equal(result.status, 'invalid')
    assert.deepEqual(
      result.problems.map((p) => p.path),
      ['$.entities[3].attributes[0].mandatroy']
    )
    assert.equal(await snapshotState(), before)
  })

  test('a refusal only detectable against the data of the last entity changes nothing at all', async ({
    assert,
  }) => {
    await library()
    const before = await snapshotState()
    const [first, second] = validChanges()
    // The last entity adds a column (fine) and makes isbn unique (two books share one).
    const doc = {
      entities: [first, second, bookWith({ unique: true }, { name: 'pages', type: 'int' })],
    }

    for (const allowDataLoss of [false, true]) {
      const result = await importDoc(doc, { allowDataLoss })
      assert.equal(result.status, 'refused')
      assert.lengthOf(result.refusals, 1)
      assert.match(
        result.refusals[0].message,
        /unique index on lib_book\(isbn\) is impossible: the column\(s\) hold duplicate values/
      )
      assert.equal(await snapshotState(), before)
    }
    assert.isNull(await table('lib_shelf'))
  })

  test('a statement the database rejects while applying rolls back every earlier step', async ({
    assert,
  }) => {
    await library()
    const before = await snapshotState()
    // An index named like an existing table: validation lets it through, the database does not
    // (index and table names share one namespace on both dialects).
    const last = {
      ...book({ name: 'pages', type: 'int' }),
      indexes: [{ attributes: ['title'], name: 'lib_author' }],
    }

    const outcome = await importDoc({
      entities: [shelf, author({ name: 'born', type: 'int' }), last],
    }).then(
      (r) => r.status,
      (error: Error) => error.message
    )

    assert.notEqual(outcome, 'applied')
    assert.equal(await snapshotState(), before)
    assert.isNull(await table('lib_shelf'))
  })

  test('every applied import writes changelog rows with its SQL and bumps the model version by one', async ({
    assert,
  }) => {
    assert.equal(await modelVersion(), 0)

    const first = await applyDoc({ entities: [author(), book()] })
    assert.equal(first.version, 1)
    assert.equal(await modelVersion(), 1)
    const rows1 = await changelog(1)
    assert.deepEqual(
      rows1.map((r) => [r.operation, r.target, r.sql]),
      first.steps.map((s) => [s.kind, s.target, s.sql.join(';\n')])
    )
    assert.isTrue(
      rows1.some(
        (r) =>
          r.operation === 'createTable' &&
          r.target === 'lib_book' &&
          r.sql.includes('CREATE TABLE "lib_book"')
      )
    )
    assert.isTrue(rows1.every((r) => r.source === 'import' && r.applied_at))

    const [herbert] = await insertRows('lib_author', [{ name: 'Herbert' }])
    await insertRows('lib_book', [{ title: 'Dune', author_id: herbert.id }])
    const second = await applyDoc({ entities: [author({ name: 'born', type: 'int' })] })
    assert.equal(second.version, 2)
    assert.equal(await modelVersion(), 2)
    const rows2 = await changelog(2)
    assert.isNotEmpty(rows2)
    assert.deepEqual(
      rows2.map((r) => r.sql),
      second.steps.map((s) => s.sql.join(';\n'))
    )
    assert.match(rows2.map((r) => r.sql).join('\n'), /"born" integer/)

    // Nothing to do: no version, no changelog.
    const count = async () => {
      const [row] = await db.from('mg_schema_changelog').count('* as n')
      return Number(row.n)
    }
    const status = async (doc: Record<string, unknown>, options = {}) => {
      const result = await importDoc(doc, options)
      return result.status
    }
    const rowsBefore = await count()
    assert.equal(await status({ entities: [author({ name: 'born', type: 'int' })] }), 'unchanged')
    assert.equal(await status({ prune: true, entities: [author()] }), 'refused')
    const dryRun = { entities: [author({ name: 'died', type: 'int' })] }
    assert.equal(await status(dryRun, { dryRun: true }), 'dry-run')
    assert.equal(await modelVersion(), 2)
    assert.equal(await count(), rowsBefore)

    // A change without DDL (a caption) still counts as a version, logged as metadata.
    const third = await applyDoc({
      entities: [{ ...author({ name: 'born', type: 'int' }), caption: { en: 'Author' } }],
    })
    assert.deepEqual(third.steps, [])
    assert.equal(await modelVersion(), 3)
    const rows3 = await changelog(3)
    assert.deepEqual(
      rows3.map((r) => [r.operation, r.sql]),
      [['metadata', '']]
    )
    assert.include(rows3[0].target, 'lib_Author')
  })
})
