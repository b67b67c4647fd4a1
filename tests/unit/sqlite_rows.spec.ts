/**
 * The read pipeline's SQLite rows (app/engine/schema/dialects/sqlite_rows.ts) are the objects
 * better-sqlite3 itself builds: the same keys in the same order, the same values (integers,
 * reals, text, blobs, nulls), duplicate names resolved the same way, on every row and on a
 * statement run again; a column list it does not compile keeps the driver's own rows.
 */
import { test } from '@japa/runner'
import { createRequire } from 'node:module'
import { sqliteRows } from '#engine/schema/dialects/sqlite_rows'

const Database = createRequire(import.meta.url)('better-sqlite3')

function database() {
  const conn = new Database(':memory:')
  conn.exec(`create table t (id integer primary key, name text, price real, data blob, big integer);
    insert into t values (1, 'one', 1.5, x'0102', 9007199254740993),
      (2, null, null, null, null), (3, 'three "quoted"', -0.25, x'', 3)`)
  return conn
}

const EVERY_KIND = `select id, name, price, data, big, 'first' as dup, 'second' as dup,
  id * 2 as "weird ""name"" \\ key", null as empty from t where id <= ? order by id`

/** Keys in order and values, as the JSON writer and a deep comparison see them. */
const seen = (rows: Record<string, unknown>[]) =>
  rows.map((row) => ({ keys: Object.keys(row), row, proto: Object.getPrototypeOf(row) }))

test.group('sqlite rows: compiled row builders', () => {
  test('every kind of column comes out as better-sqlite3 builds it, on every row', ({ assert }) => {
    const conn = database()
    const own = conn.prepare(EVERY_KIND).all(3) as Record<string, unknown>[]
    const compiled = sqliteRows(conn as any)(EVERY_KIND, [3])
    assert.lengthOf(compiled, 3)
    assert.deepEqual(seen(compiled), seen(own))
    assert.strictEqual(compiled[0].name, 'one')
    assert.strictEqual(compiled[0].price, 1.5)
    assert.deepEqual(compiled[0].data, Buffer.from([1, 2]))
    assert.strictEqual(compiled[0].big, 9007199254740992) // the driver's own rounding
    assert.strictEqual(compiled[1].name, null)
    assert.strictEqual(compiled[2].name, 'three "quoted"')
    assert.strictEqual(compiled[0].dup, 'second')
    assert.strictEqual(compiled[0]['weird "name" \\ key'], 2)
    assert.deepEqual(Object.keys(compiled[0]).slice(-3), ['dup', 'weird "name" \\ key', 'empty'])
  })

  test('a statement run again, with other values, builds the rows the driver would', ({
    assert,
  }) => {
    const conn = database()
    const run = sqliteRows(conn as any)
    const first = run(EVERY_KIND, [1])
    const again = run(EVERY_KIND, [3])
    const none = run(EVERY_KIND, [0])
    assert.deepEqual(seen(first), seen(conn.prepare(EVERY_KIND).all(1) as any))
    assert.deepEqual(seen(again), seen(conn.prepare(EVERY_KIND).all(3) as any))
    assert.deepEqual(none, [])
  })

  test('a column named __proto__ keeps the driver rows: the name stays a plain key', ({
    assert,
  }) => {
    const conn = database()
    const sql = 'select id, name as "__proto__" from t where id = ?'
    const [row] = sqliteRows(conn as any)(sql, [1])
    assert.deepEqual(seen([row]), seen(conn.prepare(sql).all(1) as any))
    assert.isTrue(Object.hasOwn(row, 'id'))
    // A compiled literal would have set the prototype to 'one' (ignored) and lost the key.
    assert.strictEqual(Object.getPrototypeOf(row), Object.prototype)
  })
})
