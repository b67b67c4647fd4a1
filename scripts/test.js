/*
 * Test runner wrapper.
 *   npm test            every suite on SQLite (unit, integration, functional, browser)
 *   npm run test:pg     every suite but the browser one on PostgreSQL (DB_* variables; database
 *                       modelgate_test on 127.0.0.1:5432 by default, created when missing)
 *   node scripts/test.js [--pg] [suite ...] [-- japa args]
 * Writes tmp/test-results-<label>.json ({passed, failed}) for .ci/run and prints
 * `N passed, N failed`. The browser suite needs Chromium (/usr/bin/chromium or CHROMIUM_PATH):
 * without it the suite is skipped with a warning, and fails when CI=true.
 */
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { ensureEnv } from './ensure_env.js'
import { ensureConsoleBuilt } from './console_build.js'

const argv = process.argv.slice(2)
const pg = argv.includes('--pg')
const dashdash = argv.indexOf('--')
const passThrough = dashdash >= 0 ? argv.slice(dashdash + 1) : []
let suites = (dashdash >= 0 ? argv.slice(0, dashdash) : argv).filter((a) => a !== '--pg')
const ci = process.env.CI === 'true'
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

ensureEnv()
const env = {
  ...process.env,
  NODE_ENV: 'test',
  PORT: process.env.TEST_PORT ?? '3334',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  MODELGATE_WATCH_INTERVAL_MS: '200',
}

if (suites.length === 0) suites = pg ? ['unit', 'integration', 'functional'] : ['unit', 'integration', 'functional', 'browser']
if (suites.includes('browser')) {
  if (!existsSync(chromium)) {
    const message = `Chromium not found at ${chromium}: the browser suite cannot run (apt-get install -y chromium)`
    if (ci) {
      console.error(message)
      process.exit(1)
    }
    console.warn(`WARNING: ${message}; skipping it`)
    suites = suites.filter((s) => s !== 'browser')
  } else {
    ensureConsoleBuilt()
  }
}

if (pg) {
  env.DB_CONNECTION = 'pg'
  env.DB_HOST ??= '127.0.0.1'
  env.DB_PORT ??= '5432'
  env.DB_USER ??= 'postgres'
  env.DB_DATABASE = process.env.TEST_DB_DATABASE ?? 'modelgate_test'
  await ensurePgDatabase(env)
} else {
  env.DB_CONNECTION = 'sqlite'
  env.SQLITE_FILE = 'tmp/test.sqlite3'
}

async function ensurePgDatabase(e) {
  const { default: pgLib } = await import('pg')
  const client = new pgLib.Client({ host: e.DB_HOST, port: Number(e.DB_PORT), user: e.DB_USER, password: e.DB_PASSWORD, database: 'postgres' })
  try {
    await client.connect()
  } catch (error) {
    console.error(`PostgreSQL is not reachable at ${e.DB_HOST}:${e.DB_PORT} (${error.message})`)
    process.exit(1)
  }
  const exists = await client.query('select 1 from pg_database where datname = $1', [e.DB_DATABASE])
  if (exists.rowCount === 0) await client.query(`create database "${e.DB_DATABASE.replace(/"/g, '')}"`)
  await client.end()
}

const label = pg ? 'pg' : 'sqlite'
const child = spawn(process.execPath, ['ace.js', 'test', ...suites, ...passThrough], { env, stdio: ['inherit', 'pipe', 'inherit'] })
let output = ''
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk)
  output += chunk.toString()
})
child.on('exit', (code) => {
  const plain = output.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
  const summary = [...plain.matchAll(/Tests\s+(.*)\((\d+)\)/g)].at(-1)
  const count = (word) => Number(summary?.[1].match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0)
  const passed = count('passed')
  let failed = count('failed')
  if (code !== 0 && failed === 0) failed = 1
  writeFileSync(`tmp/test-results-${label}.json`, JSON.stringify({ passed, failed, skipped: count('skipped') }))
  console.log(`${label}: ${passed} passed, ${failed} failed`)
  process.exit(code ?? 1)
})
