/*
 * Test runner wrapper.
 *   npm test            every suite on SQLite (unit, integration, functional, browser)
 *   npm run test:pg     every suite on PostgreSQL, the console in Chromium included (DB_* variables; database
 *                       modelgate_test on 127.0.0.1:5432 by default, created when missing)
 *   node scripts/test.js [--pg] [suite ...] [-- japa args]
 * Writes tmp/test-results-<label>.json ({passed, failed}) for .ci/run and prints
 * `N passed, N failed`. TEST_ID=<word> isolates parallel runs (own SQLite file, own PostgreSQL
 * database, own port). The browser suite needs Chromium (/usr/bin/chromium or CHROMIUM_PATH):
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
const testId = (process.env.TEST_ID ?? '').replace(/[^a-z0-9_]/gi, '').toLowerCase()
const suffix = testId ? `_${testId}` : ''
const preferredPort =
  3334 + (testId ? [...testId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1000, 7) + 1 : 0)
const port = await firstFreePort(preferredPort)

/** The preferred port, or the next one nothing listens on (local services own some ports). */
async function firstFreePort(start) {
  const { createServer } = await import('node:net')
  for (let candidate = start; ; candidate++) {
    const free = await new Promise((resolve) => {
      const probe = createServer()
      probe.once('error', () => resolve(false))
      probe.listen(candidate, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return candidate
  }
}

ensureEnv()
const env = {
  ...process.env,
  NODE_ENV: 'test',
  PORT: process.env.TEST_PORT ?? String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  MODELGATE_WATCH_INTERVAL_MS: '200',
}

if (suites.length === 0) suites = ['unit', 'integration', 'functional', 'browser']
if (suites.includes('browser')) {
  if (!existsSync(chromium)) {
    const message = `Chromium not found at ${chromium}: the browser suite cannot run (apt-get install -y chromium)`
    if (ci) {
      console.error(message)
      process.exit(1)
    }
    console.warn(`WARNING: ${message}; skipping it`)
    suites = suites.filter((s) => s !== 'browser')
  }
}
// The functional suite also serves the console (health.spec), the browser suite drives it.
if (suites.includes('browser') || suites.includes('functional')) ensureConsoleBuilt()

if (pg) {
  env.DB_CONNECTION = 'pg'
  env.DB_HOST ??= '127.0.0.1'
  env.DB_PORT ??= '5432'
  env.DB_USER ??= 'postgres'
  env.DB_DATABASE = process.env.TEST_DB_DATABASE ?? `modelgate_test${suffix}`
  await ensurePgDatabase(env)
} else {
  env.DB_CONNECTION = 'sqlite'
  env.SQLITE_FILE = `tmp/test${suffix}.sqlite3`
}

async function ensurePgDatabase(e) {
  const { default: pgLib } = await import('pg')
  const client = new pgLib.Client({
    host: e.DB_HOST,
    port: Number(e.DB_PORT),
    user: e.DB_USER,
    password: e.DB_PASSWORD,
    database: 'postgres',
  })
  try {
    await client.connect()
  } catch (error) {
    console.error(`PostgreSQL is not reachable at ${e.DB_HOST}:${e.DB_PORT} (${error.message})`)
    process.exit(1)
  }
  const exists = await client.query('select 1 from pg_database where datname = $1', [e.DB_DATABASE])
  if (exists.rowCount === 0)
    await client.query(`create database "${e.DB_DATABASE.replace(/"/g, '')}"`)
  await client.end()
}

const label = (pg ? 'pg' : 'sqlite') + suffix
await acquireLock(`tmp/test-${label}.lock`)

/** Runs against the same database wait for each other instead of wiping each other's tables. */
async function acquireLock(file) {
  const { openSync, writeFileSync: write, readFileSync, unlinkSync } = await import('node:fs')
  for (let waited = 0; ; waited += 250) {
    try {
      const fd = openSync(file, 'wx')
      write(fd, String(process.pid))
      process.on('exit', () => {
        try {
          unlinkSync(file)
        } catch {}
      })
      return
    } catch (error) {
      if (error.code !== 'EEXIST') throw error
      const holder = Number(readFileSync(file, 'utf8'))
      try {
        process.kill(holder, 0)
      } catch {
        unlinkSync(file)
        continue
      }
      if (waited % 10000 === 0)
        console.log(`waiting for another test run on ${label} (pid ${holder})`)
      await new Promise((r) => setTimeout(r, 250))
    }
  }
}
// bin/test.ts as `node ace test` would run it, without booting ace first.
const child = spawn(
  process.execPath,
  ['--import=./scripts/ts_loader.js', 'bin/test.js', ...suites, ...passThrough],
  {
    env,
    stdio: ['inherit', 'pipe', 'inherit'],
  }
)
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
  writeFileSync(
    `tmp/test-results-${label}.json`,
    JSON.stringify({ passed, failed, skipped: count('skipped') })
  )
  console.log(`${label}: ${passed} passed, ${failed} failed`)
  process.exit(code ?? 1)
})
