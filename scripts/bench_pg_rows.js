/*
 * CPU cost of building the read pipeline's PostgreSQL rows (app/engine/schema/dialects/
 * pg_rows.ts) against node-postgres' own Result with the same type parsers: per result of 20
 * and of 200 rows, `addFields` (once per statement) plus `parseRow` per row, on the column list
 * and the texts of a real statement (an entity list row: uuid, varchar, numeric, int, boolean,
 * timestamp, a foreign key), in CPU time of this process. No network: the driver's protocol
 * work is the same on both sides and is left out.
 *   node scripts/bench_pg_rows.js [--n=100000] [--rounds=3]   (PostgreSQL on DB_HOST)
 */
import './ts_loader.js'
import pg from 'pg'
import { numberArg as arg, pgConfig } from './bench_common.js'

const { CompiledRowsResult } = await import('../app/engine/schema/dialects/pg_rows.js')
const { TEXT_TEMPORAL_TYPES } = await import('../app/engine/schema/dialects/pg_text_types.js')

const N = arg('n', 100_000)
const ROUNDS = arg('rounds', 3)

const client = new pg.Client(pgConfig('postgres'))
await client.connect()
// The texts as the server sends them (rowMode array with every parser off: raw text).
const raw = { getTypeParser: () => (text) => text }
const { fields, rows } = await client.query({
  text: `select gen_random_uuid() as id, 'I' || n as code, 'Item ' || n as name,
           (n * 1.25)::numeric(12, 2) as price, n % 50 as quantity, n % 2 = 0 as active,
           1 as version, gen_random_uuid() as category_id,
           '2025-01-02 03:04:05.678'::timestamp + n * interval '1 minute' as created_date
         from generate_series(1, 200) as n`,
  rowMode: 'array',
  types: raw,
})
await client.end()

function result(Kind, count) {
  const res = new Kind(undefined, TEXT_TEMPORAL_TYPES)
  res.addFields(fields)
  for (let i = 0; i < count; i++) res.rows.push(res.parseRow(rows[i]))
  return res.rows
}

console.log(`building rows, ${N} results per figure, CPU µs per result (${ROUNDS} rounds)`)
for (const count of [20, 200]) {
  const n = Math.max(1, Math.round((N * 20) / count))
  const figures = { 'pg own': [], 'compiled': [] }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, Kind] of [
      ['pg own', pg.Result],
      ['compiled', CompiledRowsResult],
    ]) {
      for (let i = 0; i < n / 5; i++) result(Kind, count)
      const before = process.cpuUsage()
      for (let i = 0; i < n; i++) result(Kind, count)
      const cpu = process.cpuUsage(before)
      figures[label].push((cpu.user + cpu.system) / n)
    }
  }
  const best = (xs) => Math.min(...xs)
  const own = best(figures['pg own'])
  const compiled = best(figures['compiled'])
  console.log(
    `${String(count).padStart(3)} rows: pg own ${own.toFixed(2)} µs, compiled ${compiled.toFixed(2)} µs (${(own / compiled).toFixed(1)}x less CPU; best of ${ROUNDS})`
  )
}
