/**
 * The SQLite direct reader (app/engine/schema/dialects/direct_reads.ts) builds its rows with the
 * compiled row builders (sqlite_rows.ts): each statement is prepared once per SQL text and run in
 * better-sqlite3's `raw` mode, and the rows it returns are still plain objects keyed by column.
 * The rows are the same either way, so only watching the driver shows which path ran (the
 * builders were once committed unused without any test noticing).
 */
import { test } from '@japa/runner'
import { createRequire } from 'node:module'
import db from '@adonisjs/lucid/services/db'
import { dialect } from '#tests/helpers/database'
import { directReader } from '#engine/schema/dialects/direct_reads'

const ONLY_SQLITE = 'SQLite only: PostgreSQL rows are covered by pg_rows.spec.ts'
const Database = createRequire(import.meta.url)('better-sqlite3')

/** Records, per SQL text, how often the driver prepared it and whether it was set to raw. */
function watchDriver() {
  const scratch = new Database(':memory:')
  const statementProto = Object.getPrototypeOf(scratch.prepare('select 1'))
  scratch.close()
  const databaseProto = Database.prototype
  const { prepare } = databaseProto
  const { raw } = statementProto
  const prepared = new Map<string, number>()
  const rawSources = new Set<string>()
  databaseProto.prepare = function (this: unknown, sql: string) {
    prepared.set(sql, (prepared.get(sql) ?? 0) + 1)
    return prepare.call(this, sql)
  }
  statementProto.raw = function (this: { source: string }, toggle?: boolean) {
    if (toggle !== false) rawSources.add(this.source)
    return raw.call(this, toggle)
  }
  const restore = () => {
    databaseProto.prepare = prepare
    statementProto.raw = raw
  }
  return { prepared, rawSources, restore }
}

test.group('sqlite direct reader: compiled row builders', () => {
  test('statements run raw, prepared once per SQL text; rows are objects keyed by column', async ({
    assert,
  }) => {
    const table = `direct_rows_${Date.now()}`
    await db.rawQuery(`create table ${table} (id integer primary key, label text, price real)`)
    const watch = watchDriver()
    try {
      await db.rawQuery(`insert into ${table} values (1, 'one', 1.5), (2, null, 2), (3, 'x', 0)`)
      const reader = directReader(db.manager.get(db.primaryConnectionName)!.connection!)
      assert.isNotNull(reader)
      const sql = `select id, label, price from ${table} where id <= ? order by id`
      const first = await reader!.all(sql, [2])
      const again = await reader!.all(sql, [3])
      assert.deepEqual(first, [
        { id: 1, label: 'one', price: 1.5 },
        { id: 2, label: null, price: 2 },
      ])
      assert.deepEqual(Object.keys(first[0]), ['id', 'label', 'price'])
      assert.strictEqual(Object.getPrototypeOf(first[0]), Object.prototype)
      assert.lengthOf(again, 3)
      assert.deepEqual(again[2], { id: 3, label: 'x', price: 0 })
      assert.strictEqual(watch.prepared.get(sql), 1)
      assert.isTrue(watch.rawSources.has(sql), 'the statement runs in raw mode')
    } finally {
      watch.restore()
      await db.rawQuery(`drop table ${table}`)
    }
  }).skip(() => dialect() !== 'sqlite', ONLY_SQLITE)
})
