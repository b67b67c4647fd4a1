/*
 * Benchmark of the Reports add-on (issue 20), against the real server on a scratch database
 * (SQLite tmp/bench-reports.sqlite3, or --pg: modelgate_bench_reports), in one run:
 *   - a 10,000-row XLSX and CSV report: time, document size, and the server's peak RSS above
 *     its idle RSS during the run (sampled from /proc every 10 ms; target < 100 MB: streaming);
 *   - a 20-page PDF (800 rows of HTML through Chromium): the cold run (browser launch) and
 *     the warm runs;
 *   - 20 concurrent small report runs (JSON, 20 rows) for --duration seconds: req/s and p99.
 *   node scripts/bench_reports.js [--pg] [--rows=10000] [--duration=10] [--connections=20]
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
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
const ROWS = arg('rows', 10_000)
const duration = arg('duration', 10)
const connections = arg('connections', 20)
const PORT = 8193
const base = `http://127.0.0.1:${PORT}`
const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz'
const id = (n) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`

const band = (limit) => ({
  name: 'Rows',
  entity: 'bench_Row',
  sort: 'code',
  ...(limit ? { limit } : {}),
  fields: ['code', 'name', 'day', 'amount', 'qty', 'active', 'city', 'note'],
})
const report = (n, name, limit, templates) => ({
  id: id(n),
  name,
  restAccess: true,
  bands: [band(limit)],
  valueFormats: [{ name: 'amount', format: '#,##0.00' }],
  templates,
})
const TABLE_HTML = `<!doctype html><html><head><meta charset="utf-8"><style>
 body{font-family:sans-serif;font-size:10pt} table{border-collapse:collapse;width:100%}
 td,th{border-bottom:1px solid #ccc;padding:3pt;text-align:left}</style></head><body>
 <h1>Rows</h1><table><thead><tr><th>Code</th><th>Name</th><th>Day</th><th>Amount</th><th>City</th></tr></thead><tbody>
 {{#each Root.bands.Rows}}<tr><td>{{fields.code}}</td><td>{{fields.name}}</td><td>{{fields.day}}</td><td>{{fields.amount}}</td><td>{{fields.city}}</td></tr>{{/each}}
 </tbody></table></body></html>`

const DOC = {
  formatVersion: 1,
  entities: [
    {
      name: 'bench_Row',
      instanceName: 'code',
      attributes: [
        { name: 'code', type: 'string', length: 20 },
        { name: 'name', type: 'string', length: 60 },
        { name: 'day', type: 'date' },
        { name: 'amount', type: 'decimal', precision: 12, scale: 2 },
        { name: 'qty', type: 'int' },
        { name: 'active', type: 'boolean' },
        { name: 'city', type: 'string', length: 40 },
        { name: 'note', type: 'string', length: 80 },
      ],
      indexes: [{ attributes: ['code'] }],
    },
  ],
  resourceRoles: [
    {
      code: 'bench-reports',
      childRoles: ['rest-minimal'],
      entityPolicies: [{ entity: 'bench_Row', actions: ['read'] }],
      attributePolicies: [{ entity: 'bench_Row', attributes: ['*'], action: 'VIEW' }],
      specificPolicies: ['reports.rest.enabled'],
    },
  ],
  clients: [
    {
      clientId: 'bench',
      clientSecret: SECRET,
      authenticationMethods: ['client_secret_basic'],
      grantTypes: ['client_credentials'],
      accessTokenTimeToLive: '1h',
      resourceRoles: ['bench-reports'],
    },
  ],
  reports: [
    report(1, 'Big XLSX', undefined, [{ code: 'DEFAULT', outputType: 'XLSX', default: true }]),
    report(2, 'Big CSV', undefined, [{ code: 'DEFAULT', outputType: 'CSV', default: true }]),
    report(3, 'Twenty pages', 800, [
      {
        code: 'DEFAULT',
        outputType: 'PDF',
        default: true,
        fileName: 'rows.html',
        file: `base64:${Buffer.from(TABLE_HTML).toString('base64')}`,
      },
    ]),
    report(4, 'Small', 20, [{ code: 'DEFAULT', outputType: 'JSON', default: true }]),
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
  const day = PG
    ? `date '2024-01-01' + (n % 365)`
    : `date('2024-01-01', '+' || (n % 365) || ' days')`
  const sql = `insert into bench_row (id, code, name, day, amount, qty, active, city, note)
    select ${hex}, ${code}, 'Row name ' || n, ${day}, (n % 1000) + 0.5, n % 50, n % 2 = 0,
           'Zürich', 'A "quoted" <note> ' || n from (${seq}) q`
  if (PG) {
    const { default: pg } = await import('pg')
    const client = new pg.Client(
      pgConfig(process.env.BENCH_DB_DATABASE ?? 'modelgate_bench_reports')
    )
    await client.connect()
    await client.query(sql)
    await client.end()
  } else {
    const { default: Database } = await import('better-sqlite3')
    const db = new Database('tmp/bench-reports.sqlite3')
    db.exec(sql)
    db.close()
  }
}

const rssOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) * 1024
}

/** Runs report `n` once: ms, bytes, and the server's peak RSS above its RSS before the run. */
async function runOnce(pid, token, n) {
  const idle = rssOf(pid)
  let peak = idle
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 10)
  const start = performance.now()
  const response = await fetch(`${base}/rest/reports/run/${id(n)}`, {
    method: 'POST',
    headers: { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  })
  const body = Buffer.from(await response.arrayBuffer())
  const bytes = body.length
  const pages = body.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0
  const ms = performance.now() - start
  clearInterval(sampler)
  peak = Math.max(peak, rssOf(pid))
  if (response.status !== 200) throw new Error(`report ${n}: HTTP ${response.status}`)
  return { ms, bytes, pages, above: (peak - idle) / 2 ** 20, idle: idle / 2 ** 20 }
}

const mb = (x) => `${x.toFixed(1)} MB`

async function main() {
  ensureEnv()
  const env = serverEnv(PORT)
  await freshDatabase(env, {
    pg: PG,
    pgDatabase: process.env.BENCH_DB_DATABASE ?? 'modelgate_bench_reports',
    sqliteFile: 'tmp/bench-reports.sqlite3',
  })
  importDefinition(DOC, 'tmp/bench-reports.json', env)
  await seed()
  // --profile: a V8 CPU profile of the server (written when it stops) under tmp/profiles.
  const profile = argv.includes('--profile')
    ? ['--cpu-prof', '--cpu-prof-dir=tmp/profiles', '--cpu-prof-interval=250']
    : []
  const server = spawn(process.execPath, [...profile, 'server.js'], { env, stdio: 'inherit' })
  try {
    await waitForServer(base)
    const token = await clientToken(base, 'bench', SECRET)
    console.log(`Reports benchmark (${PG ? 'PostgreSQL' : 'SQLite'}, ${ROWS} rows x 8 columns)`)
    await runOnce(server.pid, token, 4) // warm the model, plans and permissions
    const smallOnly = argv.includes('--small-only')
    for (const [n, label] of smallOnly
      ? []
      : [
          [1, 'XLSX'],
          [2, 'CSV'],
        ]) {
      const runs = []
      for (let i = 0; i < 3; i++) runs.push(await runOnce(server.pid, token, n))
      const best = runs.reduce((a, b) => (a.ms < b.ms ? a : b))
      const peak = Math.max(...runs.map((r) => r.above))
      console.log(
        `${label.padEnd(5)} ${ROWS} rows: ${best.ms.toFixed(0)} ms (best of 3), ${mb(best.bytes / 2 ** 20)}, ` +
          `server RSS peak above idle ${mb(peak)} (idle ${mb(best.idle)})`
      )
    }
    if (!smallOnly) await pdf(server.pid, token)
    await concurrent(token)
  } finally {
    server.kill('SIGTERM')
  }
}

async function pdf(pid, token) {
  const cold = await runOnce(pid, token, 3)
  const warm = []
  for (let i = 0; i < 3; i++) warm.push((await runOnce(pid, token, 3)).ms)
  console.log(
    `PDF   800 rows (${cold.pages} pages, ${(cold.bytes / 1024).toFixed(0)} kB): cold ${cold.ms.toFixed(0)} ms, ` +
      `warm ${Math.min(...warm).toFixed(0)}-${Math.max(...warm).toFixed(0)} ms`
  )
}

async function concurrent(token) {
  const { default: autocannon } = await import('autocannon')
  const result = await autocannon({
    url: `${base}/rest/reports/run/${id(4)}`,
    method: 'POST',
    headers: { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
    connections,
    duration,
  })
  console.log(
    `Small runs, ${connections} concurrent for ${duration} s: ${result.requests.average.toFixed(0)} req/s, ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`
  )
}

await main()
