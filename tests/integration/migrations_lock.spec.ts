/**
 * System-table migrations of instances starting together (start/bootstrap.ts `migrate`): they
 * take turns instead of failing, and no lock is left behind. PostgreSQL holds its advisory lock on
 * one pooled connection for the whole run; Lucid's own lock was taken and released through the
 * pool, possibly on two connections, which left it held and stopped every later migration.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { migrate } from '#start/bootstrap'
import { dialect, dropAllTables, resetDatabase } from '#tests/helpers/database'
import { engine } from '#tests/helpers/engine'

const advisoryLocks = async () => {
  const { rows } = await db.rawQuery(
    `select count(*)::int as n from pg_locks where locktype = 'advisory' and database =
       (select oid from pg_database where datname = current_database())`
  )
  return rows[0].n as number
}

test.group('migrations: instances starting together', (group) => {
  group.each.teardown(async () => void (await resetDatabase()))

  test('concurrent runs all succeed, in turn; no lock is left held', async ({ assert }) => {
    const e = await engine()
    await e.stop()
    await dropAllTables()
    // Connections busy elsewhere: the pool hands the migrations different connections.
    const busy = Array.from({ length: 4 }, () => db.rawQuery('select pg_sleep(0.05)'))
    await Promise.all([migrate(app), migrate(app), migrate(app), ...busy])
    assert.equal(await advisoryLocks(), 0)
    for (let i = 0; i < 3; i++) await migrate(app)
    assert.equal(await advisoryLocks(), 0)
    const names = (await db.from('adonis_schema').select('name')).map((r) => r.name)
    assert.equal(new Set(names).size, names.length, 'every migration recorded once')
    assert.isAbove(names.length, 0)
  }).skip(
    () => dialect() !== 'pg',
    'advisory locks: PostgreSQL only (SQLite migrates in one file lock)'
  )
})
