/*
 * Catalogue FT14, memory ceiling: the server runs with NODE_OPTIONS=--max-old-space-size=256
 * and streams a 100,000-row CSV report and a 200 MiB upload (3 times each) without being killed
 * for memory. Prints the server's idle and peak RSS (sampled from /proc every 10 ms) and exits
 * non-zero when a run fails, the server dies, or its RSS grows more than --growth-mb above idle.
 *   node scripts/fault_memory.js [--pg] [--rows=100000] [--upload-mb=200] [--heap=256] [--runs=3]
 *                                [--growth-mb=200]
 * Scratch database: SQLite tmp/fault-memory.sqlite3, or --pg: modelgate_fault_memory.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { ensureEnv } from './ensure_env.js'
import {
  clientToken,
  freshDatabase,
  importDefinition,
  numberArg as arg,
  pgConfig,
  serverEnv,
  waitForServer,
} from './bench_common.js'

const argv = process.argv.slice(2)
const PG = argv.includes('--pg')
const ROWS = arg('rows', 100_000)
const UPLOAD_MB = arg('upload-mb', 200)
const HEAP_MB = arg('heap', 256)
const RUNS = arg('runs', 3)
const GROWTH_MB = arg('growth-mb', 200)
const PORT = 8197
const SECRET = 'fault-memory-secret-0123456789abcdefghijklmnopqrstuvwxyz'
const PG_DATABASE = process.env.BENCH_DB_DATABASE ?? 'modelgate_fault_memory'
const SQLITE_FILE = 'tmp/fault-memory.sqlite3'
const MB = 2 ** 20
const REPORT = '00000000-0000-4000-8000-00000000f014'

const DOC = {
  formatVersion: 1,
  entities: [
    {
      name: 'fm_Row',
      instanceName: 'code',
      attributes: [
        { name: 'code', type: 'string', length: 20 },
        { name: 'name', type: 'string', length: 60 },
        { name: 'day', type: 'date' },
        { name: 'amount', type: 'decimal', precision: 12, scale: 2 },
        { name: 'city', type: 'string', length: 40 },
      ],
      indexes: [{ attributes: ['code'] }],
    },
  ],
  resourceRoles: [
    {
      code: 'fault-memory',
      childRoles: ['rest-minimal'],
      entityPolicies: [{ entity: 'fm_Row', actions: ['read'] }],
      attributePolicies: [{ entity: 'fm_Row', attributes: ['*'], action: 'VIEW' }],
      specificPolicies: ['reports.rest.enabled', 'rest.fileUpload.enabled'],
    },
  ],
  clients: [
    {
      clientId: 'fault-memory',
      clientSecret: SECRET,
      authenticationMethods: ['client_secret_basic'],
      grantTypes: ['client_credentials'],
      accessTokenTimeToLive: '1h',
      resourceRoles: ['fault-memory'],
    },
  ],
  reports: [
    {
      id: REPORT,
      name: 'All rows',
      restAccess: true,
      bands: [
        {
          name: 'Rows',
          entity: 'fm_Row',
          sort: 'code',
          fields: ['code', 'name', 'day', 'amount', 'city'],
        },
      ],
      templates: [{ code: 'DEFAULT', outputType: 'CSV', default: true }],
    },
  ],
}

async function seed() {
  const seq = PG
    ? `select g as n from generate_series(1, ${ROWS}) g`
    : `with recursive s(n) as (select 1 union all select n + 1 from s where n < ${ROWS}) select n from s`
  const hex = PG
    ? `('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid`
    : `printf('00000000-0000-4000-8000-%012x', n)`
  const code = PG ? `'R' || lpad(n::text, 7, '0')` : `printf('R%07d', n)`
  const day = PG ? `date '2024-01-01' + (n % 365)` : `date('2024-01-01', '+' || (n % 365) || ' days')`
  const sql = `insert into fm_row (id, code, name, day, amount, city)
    select ${hex}, ${code}, 'Row name ' || n, ${day}, (n % 1000) + 0.5, 'Zürich' from (${seq}) q`
  if (PG) {
    const { default: pg } = await import('pg')
    const client = new pg.Client(pgConfig(PG_DATABASE))
    await client.connect()
    await client.query(sql)
    await client.end()
  } else {
    const { default: Database } = await import('better-sqlite3')
    const db = new Database(SQLITE_FILE)
    db.exec(sql)
    db.close()
  }
}

const rssOf = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024

/** One request whose response is counted (bytes, lines), never kept; `body` chunks streamed. */
function call(path, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: PORT, path, method, headers },
      (res) => {
        let bytes = 0
        let lines = 0
        let head = ''
        res.on('data', (chunk) => {
          bytes += chunk.length
          for (const b of chunk) if (b === 10) lines++
          if (head.length < 500) head += chunk.toString('utf8', 0, 500)
        })
        res.on('end', () => resolve({ status: res.statusCode, bytes, lines, head }))
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    ;(async () => {
      for (const chunk of body ?? []) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r))
      }
      req.end()
    })().catch(reject)
  })
}

function* payload(megabytes) {
  for (let i = 0; i < megabytes; i++) yield Buffer.alloc(MB, i % 251)
}

/** Runs `work` while sampling the server's RSS: the result, ms, and the peak RSS. */
async function sampled(pid, work) {
  let peak = rssOf(pid)
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid))
    } catch {}
  }, 10)
  const start = performance.now()
  try {
    const result = await work()
    return { result, ms: performance.now() - start, peak }
  } finally {
    clearInterval(sampler)
  }
}

async function main() {
  ensureEnv()
  const env = serverEnv(PORT)
  await freshDatabase(env, { pg: PG, pgDatabase: PG_DATABASE, sqliteFile: SQLITE_FILE })
  importDefinition(DOC, 'tmp/fault-memory.json', env)
  await seed()
  Object.assign(env, {
    NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --max-old-space-size=${HEAP_MB}`.trim(),
    MODELGATE_STORAGE_DIR: 'tmp/fault-memory-storage',
    SVC_REST_MAX_UPLOAD_SIZE: `${UPLOAD_MB + 10}MB`,
    SVC_REPORTS_MAX_ROWS: String(Math.max(ROWS, 100_000)),
    SVC_REPORTS_MAX_OUTPUT_SIZE: '500MB',
  })
  const server = spawn(process.execPath, ['server.js'], { env, stdio: 'inherit' })
  let exit = null
  server.on('exit', (code, signal) => (exit = signal ?? code))
  const failures = []
  try {
    await waitForServer(`http://127.0.0.1:${PORT}`)
    const token = await clientToken(`http://127.0.0.1:${PORT}`, 'fault-memory', SECRET)
    const auth = { authorization: `Bearer ${token}` }
    const idle = rssOf(server.pid)
    console.log(
      `FT14 memory ceiling (${PG ? 'PostgreSQL' : 'SQLite'}, --max-old-space-size=${HEAP_MB}): idle RSS ${(idle / MB).toFixed(1)} MB`
    )
    let worst = idle
    for (let run = 1; run <= RUNS; run++) {
      const report = await sampled(server.pid, () =>
        call(`/rest/reports/run/${REPORT}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: [Buffer.from('{}')],
        })
      )
      const r = report.result
      if (r.status !== 200 || r.lines < ROWS)
        failures.push(`report run ${run}: HTTP ${r.status}, ${r.lines} lines ${r.head.slice(0, 200)}`)
      const upload = await sampled(server.pid, () =>
        call('/rest/files?name=big.bin', {
          method: 'POST',
          headers: {
            ...auth,
            'content-type': 'application/octet-stream',
            'content-length': String(UPLOAD_MB * MB),
          },
          body: payload(UPLOAD_MB),
        })
      )
      const u = upload.result
      if (u.status !== 201) failures.push(`upload run ${run}: HTTP ${u.status} ${u.head.slice(0, 200)}`)
      worst = Math.max(worst, report.peak, upload.peak)
      console.log(
        `run ${run}: CSV ${ROWS} rows ${(r.bytes / MB).toFixed(1)} MB in ${(report.ms / 1000).toFixed(1)} s, peak RSS ${(report.peak / MB).toFixed(1)} MB; ` +
          `upload ${UPLOAD_MB} MiB in ${(upload.ms / 1000).toFixed(1)} s, peak RSS ${(upload.peak / MB).toFixed(1)} MB`
      )
    }
    const health = await fetch(`http://127.0.0.1:${PORT}/health`).catch(() => null)
    if (exit !== null || !health?.ok) failures.push(`server gone (exit ${exit})`)
    // The cap is V8's old space; the idle RSS already holds the sources compiled at start
    // (about 300 MB from server.js). Streaming shows as a bounded growth above idle.
    const budget = GROWTH_MB * MB
    console.log(
      `peak RSS ${(worst / MB).toFixed(1)} MB, ${((worst - idle) / MB).toFixed(1)} MB above idle (budget ${GROWTH_MB} MB)`
    )
    if (worst - idle > budget) failures.push(`RSS grew more than ${GROWTH_MB} MB above idle`)
  } catch (error) {
    failures.push(String(error))
  } finally {
    server.kill('SIGTERM')
  }
  if (failures.length) {
    console.error(`FAILED:\n  ${failures.join('\n  ')}`)
    process.exit(1)
  }
  console.log('OK: streamed, no OOM')
}

await main()
