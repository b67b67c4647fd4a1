/*
 * Runs a benchmark command against a scratch database that it may empty:
 *   node scripts/bench.js import [--pg] [-- --entities=200 --attributes=20]
 *   node scripts/bench.js add-column [--pg] [-- --rows=1000000]
 *   node scripts/bench.js admin [--pg] [-- --entities=200 --rounds=5]
 * SQLite: tmp/bench.sqlite3; PostgreSQL: database modelgate_bench on DB_HOST (default 127.0.0.1).
 */
import { spawnSync } from 'node:child_process'
import { ensureEnv } from './ensure_env.js'

const [name, ...rest] = process.argv.slice(2)
const pg = rest.includes('--pg')
const extra = rest.includes('--') ? rest.slice(rest.indexOf('--') + 1) : []
ensureEnv()
const env = { ...process.env, LOG_LEVEL: 'warn', MODELGATE_DEMO: 'false' }
if (pg) {
  Object.assign(env, {
    DB_CONNECTION: 'pg',
    DB_DATABASE: process.env.BENCH_DB_DATABASE ?? 'modelgate_bench',
  })
  env.DB_HOST ??= '127.0.0.1'
  env.DB_USER ??= 'postgres'
  const { default: pgLib } = await import('pg')
  const client = new pgLib.Client({
    host: env.DB_HOST,
    port: Number(env.DB_PORT ?? 5432),
    user: env.DB_USER,
    password: env.DB_PASSWORD,
    database: 'postgres',
  })
  await client.connect()
  const exists = await client.query('select 1 from pg_database where datname = $1', [
    env.DB_DATABASE,
  ])
  if (!exists.rowCount) await client.query(`create database "${env.DB_DATABASE.replace(/"/g, '')}"`)
  await client.end()
} else {
  Object.assign(env, { DB_CONNECTION: 'sqlite', SQLITE_FILE: 'tmp/bench.sqlite3' })
}
const result = spawnSync(process.execPath, ['ace.js', `bench:${name}`, ...extra], {
  env,
  stdio: 'inherit',
})
process.exit(result.status ?? 1)
