/**
 * PostgreSQL companion indexes for `startsWith` (schema/dialects/pg.ts): every index led by a
 * string/text attribute gets `lower(col) text_pattern_ops` next to it, dropped with it and kept
 * in step with type changes of its column. SQLite gets none (its range conditions use the
 * ordinary index).
 */
import { test } from '@japa/runner'
import { Model } from '#engine/metadata/model'
import { normalizeModel } from '#engine/metadata/normalize'
import type { ModelDefinition } from '#engine/metadata/types'
import { physicalSchema } from '#engine/schema/physical'
import { planSchema } from '#engine/schema/planner'
import { NO_RENAMES, type RenameHints } from '#engine/schema/operations'
import { dialectFor } from '#engine/schema/dialects/index'
import { prefixIndexName } from '#engine/schema/dialects/text_search'
import { entity, int, m2o, model, str } from '#tests/unit/_fixtures'

function sql(
  before: ModelDefinition,
  after: ModelDefinition,
  dialect: 'pg' | 'sqlite' = 'pg',
  hints: RenameHints = NO_RENAMES
): string[] {
  const current = physicalSchema(new Model(1, normalizeModel(before)))
  const wanted = physicalSchema(new Model(2, normalizeModel(after)))
  const { operations } = planSchema(current, wanted, hints, { tables: new Set(current.keys()) })
  return dialectFor(dialect)
    .compile(operations, { current, wanted, hints })
    .flatMap((s) => s.sql)
}

const EMPTY = model([])
const lib = (attributes: ModelDefinition['entities'][number]['attributes'], extra = {}) =>
  model([entity('lib_Shelf'), entity('lib_Book', attributes, extra)])
const companions = (statements: string[]) => statements.filter((s) => s.includes('__mg_lp_'))

test.group('schema: PostgreSQL prefix-search companion indexes', () => {
  test('created with the table for unique and declared indexes led by text', ({ assert }) => {
    const def = lib(
      [
        str('title', { unique: true }),
        { name: 'summary', type: 'text' },
        int('pages'),
        m2o('shelf', 'lib_Shelf'),
      ],
      { indexes: [{ attributes: ['summary', 'pages'] }, { attributes: ['pages', 'title'] }] }
    )
    assert.deepEqual(companions(sql(EMPTY, def)), [
      'CREATE INDEX "__mg_lp_uq_lib_book_title" ON "lib_book" (lower("title") text_pattern_ops)',
      'CREATE INDEX "__mg_lp_ix_lib_book_summary_pages" ON "lib_book" (lower("summary") text_pattern_ops)',
    ])
    // Foreign keys (ix_lib_book_shelf_id) and indexes led by a number get none; SQLite none.
    assert.deepEqual(companions(sql(EMPTY, def, 'sqlite')), [])
  })

  test('created and dropped with their index; IF EXISTS for indexes made before', ({ assert }) => {
    const plain = lib([str('title'), int('pages')])
    const indexed = lib([str('title'), int('pages')], {
      indexes: [{ attributes: ['title'] }, { attributes: ['pages'] }],
    })
    assert.deepEqual(sql(plain, indexed), [
      'CREATE INDEX "ix_lib_book_title" ON "lib_book" ("title")',
      'CREATE INDEX "__mg_lp_ix_lib_book_title" ON "lib_book" (lower("title") text_pattern_ops)',
      'CREATE INDEX "ix_lib_book_pages" ON "lib_book" ("pages")',
    ])
    assert.deepEqual(sql(indexed, plain), [
      'DROP INDEX IF EXISTS "__mg_lp_ix_lib_book_title"',
      'DROP INDEX "ix_lib_book_title"',
      'DROP INDEX "ix_lib_book_pages"',
    ])
  })

  test('follow type changes of the column they index', ({ assert }) => {
    const asText = lib([str('code', { unique: true })])
    const asInt = lib([int('code', { unique: true })])
    assert.deepEqual(sql(asText, asInt), [
      'DROP INDEX IF EXISTS "__mg_lp_uq_lib_book_code"',
      'ALTER TABLE "lib_book" ALTER COLUMN "code" TYPE integer USING "code"::integer',
    ])
    assert.deepEqual(sql(asInt, asText), [
      'ALTER TABLE "lib_book" ALTER COLUMN "code" TYPE varchar(255) USING "code"::varchar(255)',
      'CREATE INDEX "__mg_lp_uq_lib_book_code" ON "lib_book" (lower("code") text_pattern_ops)',
    ])
    // string -> text keeps the companion (PostgreSQL rebuilds it with the column).
    const asLongText = lib([{ name: 'code', type: 'text', unique: true }])
    assert.deepEqual(companions(sql(asText, asLongText)), [])
  })

  test('renames recreate them with their index', ({ assert }) => {
    const before = lib([str('title', { unique: true })])
    const after = lib([str('name', { unique: true })])
    const hints: RenameHints = {
      tables: new Map(),
      columns: new Map([['lib_book', new Map([['name', 'title']])]]),
    }
    const statements = sql(before, after, 'pg', hints)
    assert.includeMembers(statements, [
      'DROP INDEX IF EXISTS "__mg_lp_uq_lib_book_title"',
      'CREATE INDEX "__mg_lp_uq_lib_book_name" ON "lib_book" (lower("name") text_pattern_ops)',
    ])
  })

  test('names stay within 63 characters and unique', ({ assert }) => {
    const long = `ix_${'a'.repeat(60)}`
    const name = prefixIndexName(long)
    assert.isAtMost(name.length, 63)
    assert.match(name, /^__mg_lp_/)
    assert.notEqual(name, prefixIndexName(`${long}b`))
    assert.equal(prefixIndexName('ix_t_c'), '__mg_lp_ix_t_c')
  })
})
