/*
 * Benchmark of the permission layer (issue 5), in one run, on a scratch database (SQLite:
 * tmp/bench-security.sqlite3; --pg: database modelgate_bench_security, both recreated).
 * Two client-credentials clients list the same 20 rows (`GET /rest/entities/bench_Item?
 * limit=20&fetchPlan=_base`) through the real server (`node server.js`):
 *   full        role with every entity and attribute permission, no row-level role;
 *   restricted  entity read, two attributes not viewable, and a row-level filter
 *               (`active = true`, half of the rows) AND-ed into the SQL.
 * The two are measured alternately (full, restricted, full, restricted) and the req/s of each
 * kind summed, so drift of the machine hits both alike. Prints req/s, p50, p99 and the ratio
 * restricted / full (target >= 0.9).
 *   node scripts/bench_security.js [--pg] [--duration=5] [--connections=20] [--rows=10000]
 */
import { spawn, spawnSync } from 'node:child_process'
import { ensureEnv } from './ensure_env.js'
import {
  clientToken,
  freshDatabase,
  importDefinition,
  serverEnv,
  waitForServer,
  numberArg as arg,
} from './bench_common.js'

const argv = process.argv.slice(2)
const PG = argv.includes('--pg')
const duration = arg('duration', 5)
const connections = arg('connections', 20)
const ROWS = arg('rows', 10_000)
const SQLITE_FILE = 'tmp/bench-security.sqlite3'
const PG_DATABASE = process.env.BENCH_DB_DATABASE ?? 'modelgate_bench_security'
const PORT = 8193
const base = `http://127.0.0.1:${PORT}`
const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz'

const client = (clientId, resourceRoles, rowLevelRoles = []) => ({
  clientId,
  clientSecret: SECRET,
  authenticationMethods: ['client_secret_basic'],
  grantTypes: ['client_credentials'],
  accessTokenTimeToLive: '1h',
  resourceRoles,
  rowLevelRoles,
})

const doc = {
  formatVersion: 1,
  entities: [
    {
      name: 'bench_Item',
      idType: 'uuid',
      traits: ['versioned'],
      instanceName: 'name',
      attributes: [
        { name: 'code', type: 'string', length: 20, mandatory: true },
        { name: 'name', type: 'string', length: 100, mandatory: true },
        { name: 'price', type: 'decimal', precision: 12, scale: 2 },
        { name: 'cost', type: 'decimal', precision: 12, scale: 2 },
        { name: 'supplierNotes', type: 'string', length: 200 },
        { name: 'quantity', type: 'int' },
        { name: 'active', type: 'boolean' },
      ],
    },
  ],
  resourceRoles: [
    {
      code: 'bench-full',
      childRoles: ['rest-minimal'],
      entityPolicies: [{ entity: '*', actions: ['create', 'read', 'update', 'delete'] }],
      attributePolicies: [{ entity: '*', attributes: ['*'], action: 'MODIFY' }],
    },
    {
      code: 'bench-restricted',
      childRoles: ['rest-minimal'],
      entityPolicies: [{ entity: 'bench_Item', actions: ['read'] }],
      attributePolicies: [
        {
          entity: 'bench_Item',
          attributes: ['code', 'name', 'price', 'quantity', 'active', 'version'],
          action: 'VIEW',
        },
      ],
    },
  ],
  rowLevelRoles: [
    {
      code: 'bench-active-only',
      policies: [
        {
          entity: 'bench_Item',
          type: 'filter',
          actions: ['read'],
          filter: { conditions: [{ property: 'active', operator: '=', value: true }] },
        },
      ],
    },
  ],
  clients: [
    client('full', ['bench-full']),
    client('restricted', ['bench-restricted'], ['bench-active-only']),
  ],
}

async function prepare(env) {
  await freshDatabase(env, { pg: PG, pgDatabase: PG_DATABASE, sqliteFile: SQLITE_FILE })
  importDefinition(doc, 'tmp/bench-security.json', env)
  const seq = PG
    ? `select g as n from generate_series(1, ${ROWS}) g`
    : `with recursive s(n) as (select 1 union all select n + 1 from s where n < ${ROWS}) select n from s`
  const id = PG
    ? `('00000000-0001-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid`
    : `printf('00000000-0001-4000-8000-%012x', n)`
  const sql = `insert into bench_item (id, code, name, price, cost, supplier_notes, quantity, active, version)
    select ${id}, 'C' || n, 'Item ' || n, (n % 1000) + 0.99, n % 700, 'notes ' || n, n % 50,
           ${PG ? 'n % 2 = 0' : '(n % 2 = 0)'}, 1 from (${seq}) q`
  const seeded = PG
    ? spawnSync('psql', ['-h', env.DB_HOST, '-U', env.DB_USER, '-d', PG_DATABASE, '-c', sql])
    : spawnSync(process.execPath, [
        '-e',
        `const D=require('better-sqlite3');const d=new D(${JSON.stringify(SQLITE_FILE)});d.exec(${JSON.stringify(sql)});d.close()`,
      ])
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`)
}

async function main() {
  const { default: autocannon } = await import('autocannon')
  ensureEnv()
  const env = serverEnv(PORT)
  await prepare(env)
  const server = spawn(process.execPath, ['server.js'], { env, stdio: 'inherit' })
  process.on('exit', () => server.kill('SIGTERM'))
  await waitForServer(base)
  const path = '/rest/entities/bench_Item?limit=20&fetchPlan=_base'
  const tokens = {
    full: await clientToken(base, 'full', SECRET),
    restricted: await clientToken(base, 'restricted', SECRET),
  }
  // Sanity: what each sees.
  for (const [kind, t] of Object.entries(tokens)) {
    const rows = await (
      await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${t}` } })
    ).json()
    const hidden = rows.some((r) => 'cost' in r || 'supplierNotes' in r || r.active === false)
    console.log(`${kind}: ${rows.length} rows, restricted attributes or rows present: ${hidden}`)
  }
  const run = (kind) =>
    autocannon({
      url: `${base}${path}`,
      connections,
      duration,
      headers: { authorization: `Bearer ${tokens[kind]}` },
    })
  await run('full') // warm-up
  const totals = { full: [], restricted: [] }
  for (const kind of ['full', 'restricted', 'full', 'restricted']) {
    const result = await run(kind)
    if (result.non2xx) throw new Error(`${kind}: ${result.non2xx} non-2xx responses`)
    totals[kind].push(result)
  }
  const summary = (kind) => {
    const results = totals[kind]
    const rps = results.reduce((s, r) => s + r.requests.average, 0) / results.length
    const p50 = Math.max(...results.map((r) => r.latency.p50))
    const p99 = Math.max(...results.map((r) => r.latency.p99))
    return { rps, p50, p99 }
  }
  const full = summary('full')
  const restricted = summary('restricted')
  console.log(
    `\nsecurity benchmark (${PG ? 'PostgreSQL' : 'SQLite'}, ${ROWS} rows, ${connections} connections, ${duration}s x2 each)`
  )
  for (const [name, s] of [
    ['list 20, full access', full],
    ['list 20, row filter + 2 hidden attributes', restricted],
  ])
    console.log(
      `${name.padEnd(45)} ${s.rps.toFixed(0).padStart(6)} req/s  p50 ${s.p50} ms  p99 ${s.p99} ms`
    )
  console.log(`ratio restricted/full: ${(restricted.rps / full.rps).toFixed(2)} (target >= 0.9)`)
  server.kill('SIGTERM')
  process.exit(0)
}

await main()
