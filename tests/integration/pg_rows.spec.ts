/**
 * The read pipeline's PostgreSQL rows (app/engine/schema/dialects/pg_rows.ts) are the objects
 * node-postgres itself builds with the same type parsers: the same keys in the same order, the
 * same values (parsed, text, null), duplicate names resolved the same way, on every row and on
 * a statement run again; a column list it does not compile falls back to pg's own rows.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import pg from 'pg'
import { dialect } from '#tests/helpers/database'
import { ReadQuery } from '#engine/schema/dialects/pg_rows'
import { TEXT_TEMPORAL_TYPES } from '#engine/schema/dialects/pg_text_types'
import { submit } from '#engine/schema/dialects/pg_statements'

const ONLY_PG = 'PostgreSQL only: SQLite rows come from better-sqlite3'

/** pg's own Query and Result with the read pipeline's type parsers (the reference). */
class PgOwnRows extends (pg.Query as any) {
  constructor(text: string, values: unknown[], callback: unknown) {
    super(text, values, callback)
    this.types = TEXT_TEMPORAL_TYPES
    this._result._types = TEXT_TEMPORAL_TYPES
  }
}

const EVERY_KIND = `
  select n as id, n::int4 as small, (n * 1.5)::numeric(10, 2) as price, n % 2 = 0 as even,
    case when n % 3 = 0 then null else 'name ' || n end as label,
    ('2025-01-02 03:04:05.678912'::timestamp + n * interval '1 day') as at,
    (9007199254740993 + n)::int8 as big, jsonb_build_object('n', n) as doc,
    array[n, n + 1] as pair, gen_random_uuid()::text is not null as has_uuid,
    'first' as dup, 'second' as dup, null::date as nothing
  from generate_series(1, $1::int) as n`

async function rowsOf(kind: unknown, text: string, values: unknown[], name?: string) {
  const client = (db.connection().getWriteClient() as any).client
  const conn = await client.acquireConnection()
  try {
    const result = await submit<{ rows: Record<string, unknown>[] }>(
      conn,
      { name, text, values },
      kind as any
    )
    return result.rows
  } finally {
    await client.releaseConnection(conn)
  }
}

/** Keys in order and values, as the JSON writer and a deep comparison see them. */
const seen = (rows: Record<string, unknown>[]) =>
  rows.map((row) => ({ keys: Object.keys(row), json: JSON.stringify(row), row }))

test.group('pg rows: compiled row builders', () => {
  test('every kind of column comes out as pg builds it, on every row', async ({ assert }) => {
    const own = await rowsOf(PgOwnRows, EVERY_KIND, [25])
    const compiled = await rowsOf(ReadQuery, EVERY_KIND, [25])
    assert.lengthOf(compiled, 25)
    assert.deepEqual(seen(compiled), seen(own))
    // Parsed where pg parses, text where it keeps text, null where the database said null.
    assert.strictEqual(compiled[1].small, 2)
    assert.strictEqual(compiled[1].price, '3.00')
    assert.strictEqual(compiled[1].even, true)
    assert.strictEqual(compiled[2].label, null)
    assert.strictEqual(compiled[0].at, '2025-01-03 03:04:05.678')
    assert.strictEqual(compiled[0].big, '9007199254740994')
    assert.deepEqual(compiled[0].doc, { n: 1 })
    assert.deepEqual(compiled[0].pair, [1, 2])
    assert.strictEqual(compiled[0].dup, 'second')
    assert.deepEqual(Object.keys(compiled[0]).slice(-2), ['dup', 'nothing'])
  }).skip(() => dialect() !== 'pg', ONLY_PG)

  test('a prepared statement run again builds the same rows', async ({ assert }) => {
    const name = `pg_rows_test_${Date.now()}`
    const first = await rowsOf(ReadQuery, EVERY_KIND, [3], name)
    const again = await rowsOf(ReadQuery, EVERY_KIND, [3], name)
    const own = await rowsOf(PgOwnRows, EVERY_KIND, [3])
    assert.deepEqual(seen(again), seen(first))
    assert.deepEqual(seen(again), seen(own))
  }).skip(() => dialect() !== 'pg', ONLY_PG)

  test('the same SQL text returning other column types builds rows for the new types', async ({
    assert,
  }) => {
    const table = `pg_rows_retyped_${Date.now()}`
    const sql = `select id, amount, label from ${table} order by id`
    await db.rawQuery(`create table ${table} (id int primary key, amount int, label text)`)
    try {
      await db.rawQuery(`insert into ${table} values (1, 42, 'a'), (2, null, 'b')`)
      const before = await rowsOf(ReadQuery, sql, [])
      assert.deepEqual(before, [
        { id: 1, amount: 42, label: 'a' },
        { id: 2, amount: null, label: 'b' },
      ])
      // Same text, another type and another column order under the same names.
      await db.rawQuery(`alter table ${table} alter column amount type numeric(8, 2)`)
      const after = await rowsOf(ReadQuery, sql, [])
      assert.deepEqual(seen(after), seen(await rowsOf(PgOwnRows, sql, [])))
      assert.strictEqual(after[0].amount, '42.00')
      await db.rawQuery(`alter table ${table} alter column id type text`)
      const third = await rowsOf(ReadQuery, sql, [])
      assert.strictEqual(third[0].id, '1')
      assert.deepEqual(seen(third), seen(await rowsOf(PgOwnRows, sql, [])))
    } finally {
      await db.rawQuery(`drop table ${table}`)
    }
  }).skip(() => dialect() !== 'pg', ONLY_PG)

  test('a column named __proto__ keeps pg own rows', async ({ assert }) => {
    const sql = `select 'x' as "__proto__", n as id from generate_series(1, 2) as n`
    const compiled = await rowsOf(ReadQuery, sql, [])
    const own = await rowsOf(PgOwnRows, sql, [])
    assert.deepEqual(seen(compiled), seen(own))
    assert.strictEqual(Object.getPrototypeOf(compiled[0]), Object.prototype)
  }).skip(() => dialect() !== 'pg', ONLY_PG)

  test('an error in the statement rejects as pg rejects it', async ({ assert }) => {
    const failing = 'select 1 / (n - 2) as ratio from generate_series(1, 3) as n'
    await assert.rejects(() => rowsOf(ReadQuery, failing, []), /division by zero/)
  }).skip(() => dialect() !== 'pg', ONLY_PG)
})
