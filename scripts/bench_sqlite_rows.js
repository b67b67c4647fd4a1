/*
 * CPU cost of the read pipeline's SQLite statements with their rows built by
 * app/engine/schema/dialects/sqlite_rows.ts (the driver's arrays, one compiled object literal
 * per row) against better-sqlite3's own row objects: the statement of an entity page (an item
 * with its category joined, 9 columns) for 1, 20 and 200 rows, on a scratch file of 10,000
 * items, in CPU time of this process. The statement's own work is in both figures. Then a load
 * by id without statistics, after ANALYZE, and with ANALYZE's value samples emptied.
 *   node scripts/bench_sqlite_rows.js [--n=20000] [--rounds=3]
 */
import './ts_loader.js'
import { createRequire } from 'node:module'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { numberArg as arg } from './bench_common.js'

const { sqliteRows } = await import('../app/engine/schema/dialects/sqlite_rows.js')
const Database = createRequire(import.meta.url)('better-sqlite3')

const N = arg('n', 20_000)
const ROUNDS = arg('rounds', 3)
const dir = mkdtempSync(join(tmpdir(), 'bench-sqlite-rows-'))
const file = join(dir, 'rows.sqlite3')
const conn = new Database(file)
conn.pragma('journal_mode = WAL')
conn.exec(`create table category (id char(36) primary key, name varchar(60) not null);
  create table item (id char(36) primary key, code varchar(20) not null, name varchar(100) not null,
    price numeric(12, 2), quantity integer, active boolean, version integer not null,
    category_id char(36) references category (id))`)
const uuid = () => crypto.randomUUID()
const categories = Array.from({ length: 100 }, uuid)
const addCategory = conn.prepare('insert into category values (?, ?)')
const addItem = conn.prepare('insert into item values (?, ?, ?, ?, ?, ?, 1, ?)')
conn.transaction(() => {
  categories.forEach((id, i) => addCategory.run(id, `C${i}`))
  for (let i = 0; i < 10_000; i++)
    addItem.run(uuid(), `I${i}`, `Item ${i}`, i * 1.25, i % 50, i % 2, categories[i % 100])
})()
const ids = conn.prepare('select id from item').pluck().all()
const PAGE = `select i.id, i.code, i.name, i.price, i.quantity, i.active, i.version,
  c.id as category_id, c.name as category_name
  from item i left join category c on c.id = i.category_id`
const BY_ID = `${PAGE} where i.id = ?`
const LIMIT = `${PAGE} order by i.id limit ?`

const own = (sql) => {
  const statement = conn.prepare(sql)
  return (values) => statement.all(values)
}
const compiled = sqliteRows(conn)
const sides = {
  'driver objects': { byId: own(BY_ID), page: own(LIMIT) },
  'compiled': { byId: (v) => compiled(BY_ID, v), page: (v) => compiled(LIMIT, v) },
}

console.log(`SQLite statement + rows, CPU µs per statement (best of ${ROUNDS} rounds)`)
for (const count of [1, 20, 200]) {
  const n = Math.max(1, Math.round((N * 20) / Math.max(count, 20)))
  const figures = {}
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, side] of Object.entries(sides)) {
      const run = (i) =>
        count === 1 ? side.byId([ids[(i * 7919) % ids.length]]) : side.page([count])
      for (let i = 0; i < n / 5; i++) run(i)
      const before = process.cpuUsage()
      for (let i = 0; i < n; i++) run(i)
      const cpu = process.cpuUsage(before)
      ;(figures[label] ??= []).push((cpu.user + cpu.system) / n)
    }
  }
  const driver = Math.min(...figures['driver objects'])
  const ours = Math.min(...figures['compiled'])
  console.log(
    `${String(count).padStart(3)} row(s): driver objects ${driver.toFixed(2)} µs, compiled ${ours.toFixed(2)} µs (${(driver / ours).toFixed(2)}x)`
  )
}

// SQLite's value samples: after ANALYZE (better-sqlite3's SQLite is built with STAT4), a
// statement is re-planned whenever a value bound against an indexed column changes - every load
// by id. Modelgate never analyzes; bench:entities keeps sqlite_stat1 and empties sqlite_stat4.
function loadById(db) {
  const run = sqliteRows(db)
  const figures = []
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage()
    for (let i = 0; i < N * 5; i++) run(BY_ID, [ids[(i * 7919) % ids.length]])
    const cpu = process.cpuUsage(before)
    figures.push((cpu.user + cpu.system) / (N * 5))
  }
  return Math.min(...figures)
}
const noStats = loadById(conn)
conn.exec('analyze')
const analyzed = new Database(file)
const withSamples = loadById(analyzed)
analyzed.close()
conn.exec('delete from sqlite_stat4')
const countsOnly = new Database(file)
const withoutSamples = loadById(countsOnly)
countsOnly.close()
console.log(
  `load by id: no statistics ${noStats.toFixed(2)} µs, after ANALYZE ${withSamples.toFixed(2)} µs, ` +
    `sqlite_stat4 emptied ${withoutSamples.toFixed(2)} µs`
)
conn.close()
rmSync(dir, { recursive: true, force: true })
