/*
 * Benchmark of the entities API (issue 4), in one run, on a scratch database (SQLite:
 * tmp/bench-entities.sqlite3, recreated; --pg: database modelgate_bench_entities on DB_HOST,
 * recreated). Prints, for five scenarios against the real server (`node server.js`, bearer
 * token from client_credentials) and against a raw floor (plain node:http + the same driver
 * running equivalent SQL and JSON.stringify, a child process of this script), req/s, p50, p99
 * and the ratio API/floor:
 *   list    GET  /rest/entities/bench_Item?limit=20&fetchPlan=_base
 *   load    GET  /rest/entities/bench_Item/{random id}        (default fetch plan)
 *   search  GET  /rest/entities/bench_Item/search?filter=<2 conditions>&limit=20&fetchPlan=_base
 *   create  POST /rest/entities/bench_Item
 *   update  PUT  /rest/entities/bench_Item/{id}    (rows in turn; body {quantity})
 * Targets: list and load >= 0.5 of the floor; p99 < 50 ms at 50 connections. Then, on a
 * 1,000,000-row table (bench_Big, created by import, filled with SQL), the median time of a
 * sorted, filtered page of 20 on an indexed attribute through the HTTP API (target < 5 ms).
 *   node scripts/bench_entities.js [--pg] [--duration=7] [--connections=50] [--rows=10000]
 *                                  [--big-rows=1000000] [--no-big] [--only=list,load,search,create,update]
 *                                  [--profile]   (CPU profile of the API server: tmp/profiles/*.cpuprofile)
 */
import { spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { ensureEnv } from './ensure_env.js'
import {
  clientToken,
  freshDatabase,
  serverEnv,
  importDefinition,
  pgConfig,
  waitForServer,
  numberArg as arg,
} from './bench_common.js'

const argv = process.argv.slice(2)
const PG = argv.includes('--pg')
const duration = arg('duration', 7)
const connections = arg('connections', 50)
const ROWS = arg('rows', 10_000)
const BIG_ROWS = arg('big-rows', 1_000_000)
const CATEGORIES = 100
const SQLITE_FILE = 'tmp/bench-entities.sqlite3'
const PG_DATABASE = process.env.BENCH_DB_DATABASE ?? 'modelgate_bench_entities'

/** Deterministic uuids: row n of a table tagged `tag` (a 4-hex-digit group). */
const uuid = (tag, n) => `00000000-${tag}-4000-8000-${n.toString(16).padStart(12, '0')}`
const itemId = (n) => uuid('0001', n)
const categoryId = (n) => uuid('0002', n)
const randomItem = () => itemId(1 + Math.floor(Math.random() * ROWS))
const SEARCH_FILTER = JSON.stringify({
  conditions: [
    { property: 'active', operator: '=', value: true },
    { property: 'quantity', operator: '>', value: 25 },
  ],
})

// ---------------------------------------------------------------------------------------------
// The database, through the driver alone (seeding and the raw floor).
// ---------------------------------------------------------------------------------------------

/** `query(sql, params)` -> rows, `run(sql, params)`, `tx(fn)`, `close()`; `?` placeholders. */
async function openDriver() {
  if (!PG) {
    const { default: Database } = await import('better-sqlite3')
    const conn = new Database(SQLITE_FILE)
    conn.pragma('journal_mode = WAL')
    conn.pragma('foreign_keys = ON')
    conn.pragma('busy_timeout = 5000')
    const cache = new Map()
    const stmt = (sql) => cache.get(sql) ?? cache.set(sql, conn.prepare(sql)).get(sql)
    const all = (sql, params) => {
      const s = stmt(sql)
      return s.reader ? s.all(...params) : (s.run(...params), [])
    }
    return {
      query: async (sql, params = []) => all(sql, params),
      run: async (sql, params = []) => void stmt(sql).run(...params),
      exec: async (sql) => void conn.exec(sql),
      tx: async (fn) => {
        // better-sqlite3 is synchronous: nothing else runs between BEGIN and COMMIT.
        conn.exec('BEGIN IMMEDIATE')
        try {
          const result = await fn({ query: async (s, p = []) => all(s, p) })
          conn.exec('COMMIT')
          return result
        } catch (error) {
          conn.exec('ROLLBACK')
          throw error
        }
      },
      close: async () => conn.close(),
    }
  }
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ ...pgConfig(PG_DATABASE), max: 10 })
  const numbered = (sql) => {
    let i = 0
    return sql.replace(/\?/g, () => `$${++i}`)
  }
  const query = async (client, sql, params = []) => (await client.query(numbered(sql), params)).rows
  return {
    query: (sql, params) => query(pool, sql, params),
    run: async (sql, params) => void (await query(pool, sql, params)),
    exec: async (sql) => void (await pool.query(sql)),
    tx: async (fn) => {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn({ query: (s, p) => query(client, s, p) })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

// ---------------------------------------------------------------------------------------------
// The raw floor: node:http + the driver, equivalent SQL and JSON for each scenario.
// ---------------------------------------------------------------------------------------------

const ITEM_COLUMNS = 'id, code, name, price, quantity, active, version, category_id'
/** The page with its category joined, as the API's loader folds a to-one reference (folds.ts). */
const PAGE = `select i.id, i.code, i.name, i.price, i.quantity, i.active, i.version,
  c.id as category_id, c.name as category_name
  from bench_item i left join bench_category c on c.id = i.category_id`

function itemJson(row) {
  const out = {
    _entityName: 'bench_Item',
    _instanceName: `${row.name} (${row.category_name ?? ''})`,
    id: String(row.id),
    code: row.code,
    name: row.name,
    price: Number(row.price),
    quantity: row.quantity,
    active: Boolean(row.active),
    version: row.version,
  }
  if (row.category_id !== null) {
    out.category = {
      _entityName: 'bench_Category',
      _instanceName: row.category_name,
      id: String(row.category_id),
      name: row.category_name,
    }
  }
  return out
}

function readBody(req) {
  return new Promise((resolve) => {
    let data = ''
    req.on('data', (chunk) => (data += chunk))
    req.on('end', () => resolve(data))
  })
}

async function minimalItem(db, id) {
  const [row] = await db.query(
    `select i.id, i.name, i.version, c.name as category_name from bench_item i
     left join bench_category c on c.id = i.category_id where i.id = ?`,
    [id]
  )
  return {
    _entityName: 'bench_Item',
    _instanceName: `${row.name} (${row.category_name ?? ''})`,
    id: String(row.id),
    version: row.version,
  }
}

async function floorServer() {
  const db = await openDriver()
  const activeTrue = PG ? true : 1
  const send = (res, status, body, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers })
    res.end(JSON.stringify(body))
  }
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://floor')
      const [, , , , id] = url.pathname.split('/') // /rest/entities/bench_Item/{id|search}
      if (req.method === 'GET' && !id) {
        const rows = await db.query(`${PAGE} order by i.id limit ?`, [
          Number(url.searchParams.get('limit') ?? 20),
        ])
        return send(res, 200, rows.map(itemJson))
      }
      if (req.method === 'GET' && id === 'search') {
        const filter = JSON.parse(url.searchParams.get('filter'))
        const rows = await db.query(
          `${PAGE} where i.active = ? and i.quantity > ? order by i.id limit ?`,
          [activeTrue, filter.conditions[1].value, Number(url.searchParams.get('limit') ?? 20)]
        )
        return send(res, 200, rows.map(itemJson))
      }
      if (req.method === 'GET') {
        const rows = await db.query(`${PAGE} where i.id = ?`, [id])
        if (!rows.length) return send(res, 404, { error: 'Entity not found' })
        return send(res, 200, itemJson(rows[0]))
      }
      const body = JSON.parse(await readBody(req))
      if (req.method === 'POST') {
        const newId = crypto.randomUUID()
        const result = await db.tx(async (t) => {
          // Reference existence, insert, then the minimal response (instance name + version).
          const [found] = await t.query('select id from bench_category where id = ?', [
            body.category.id,
          ])
          if (!found) return null
          await t.query(
            `insert into bench_item (id, code, name, price, quantity, active, version, category_id)
             values (?, ?, ?, ?, ?, ?, 1, ?)`,
            [
              newId,
              body.code,
              body.name,
              body.price,
              body.quantity,
              PG ? body.active : Number(body.active),
              found.id,
            ]
          )
          return minimalItem(t, newId)
        })
        if (!result) return send(res, 400, [{ message: 'bad reference' }])
        return send(res, 201, result, { location: `/rest/entities/bench_Item/${newId}` })
      }
      if (req.method === 'PUT') {
        const result = await db.tx(async (t) => {
          const [row] = await t.query(`select ${ITEM_COLUMNS} from bench_item where id = ?`, [id])
          if (!row) return null
          await t.query('update bench_item set quantity = ?, version = version + 1 where id = ?', [
            body.quantity,
            id,
          ])
          return minimalItem(t, id)
        })
        if (!result) return send(res, 404, { error: 'Entity not found' })
        return send(res, 200, result)
      }
      send(res, 405, {})
    } catch (error) {
      send(res, 500, { error: String(error) })
    }
  })
  server.listen(Number(process.env.FLOOR_PORT), '127.0.0.1', () => process.send?.('ready'))
}

if (argv.includes('--floor-server')) {
  await floorServer()
} else {
  await main()
}

// ---------------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------------

async function main() {
  const { default: autocannon } = await import('autocannon')
  const PORT = 8191
  const FLOOR_PORT = 8192
  const base = `http://127.0.0.1:${PORT}`
  const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz'
  ensureEnv()

  const env = serverEnv(PORT)
  await freshDatabase(env, { pg: PG, pgDatabase: PG_DATABASE, sqliteFile: SQLITE_FILE })

  // The model: bench_Item (typed attributes, indexed `code`, MANY_TO_ONE category whose name is
  // part of the item's instance name, so `_base` loads it) and bench_Big (the 1M-row table).
  const doc = {
    formatVersion: 1,
    entities: [
      {
        name: 'bench_Category',
        idType: 'uuid',
        instanceName: 'name',
        attributes: [{ name: 'name', type: 'string', length: 60, mandatory: true }],
      },
      {
        name: 'bench_Item',
        idType: 'uuid',
        traits: ['versioned'],
        instanceName: '{name} ({category.name})',
        attributes: [
          { name: 'code', type: 'string', length: 20, mandatory: true },
          { name: 'name', type: 'string', length: 100, mandatory: true },
          { name: 'price', type: 'decimal', precision: 12, scale: 2 },
          { name: 'quantity', type: 'int' },
          { name: 'active', type: 'boolean' },
          {
            name: 'category',
            type: 'association',
            cardinality: 'MANY_TO_ONE',
            target: 'bench_Category',
            onDelete: 'deny',
          },
        ],
        indexes: [{ attributes: ['code'] }],
      },
      {
        name: 'bench_Big',
        idType: 'uuid',
        instanceName: 'code',
        attributes: [
          { name: 'code', type: 'string', length: 20, mandatory: true },
          { name: 'label', type: 'string', length: 40 },
          { name: 'number', type: 'int', mandatory: true },
        ],
        indexes: [{ attributes: ['code'] }, { attributes: ['number'] }],
      },
    ],
    // What an API client of an application typically holds: REST access plus full rights on
    // the application's entities (entity and attribute policies are evaluated per request).
    resourceRoles: [
      {
        code: 'bench-full',
        childRoles: ['rest-minimal'],
        entityPolicies: [{ entity: '*', actions: ['create', 'read', 'update', 'delete'] }],
        attributePolicies: [{ entity: '*', attributes: ['*'], action: 'MODIFY' }],
      },
    ],
    clients: [
      {
        clientId: 'bench',
        clientSecret: SECRET,
        authenticationMethods: ['client_secret_basic'],
        grantTypes: ['client_credentials'],
        accessTokenTimeToLive: '1h',
        resourceRoles: ['bench-full'],
      },
    ],
  }
  importDefinition(doc, 'tmp/bench-entities.json', env)

  // Seed with the driver alone.
  const db = await openDriver()
  const seq = (n) =>
    PG
      ? `select g as n from generate_series(1, ${Number(n)}) g`
      : `with recursive s(n) as (select 1 union all select n + 1 from s where n < ${Number(n)}) select n from s`
  const hexId = (tag, expr) =>
    PG
      ? `('00000000-${tag}-4000-8000-' || lpad(to_hex(${expr}), 12, '0'))::uuid`
      : `printf('00000000-${tag}-4000-8000-%012x', ${expr})`
  const code = (prefix, expr) =>
    PG ? `'${prefix}' || lpad((${expr})::text, 7, '0')` : `printf('${prefix}%07d', ${expr})`
  await db.exec(
    `insert into bench_category (id, name) select ${hexId('0002', 'n')}, 'Category ' || n from (${seq(CATEGORIES)}) q`
  )
  await db.exec(
    `insert into bench_item (id, code, name, price, quantity, active, version, category_id)
     select ${hexId('0001', 'n')}, ${code('C', 'n')}, 'Item ' || n, (n % 1000) + 0.99, n % 50,
            ${PG ? 'n % 2 = 0' : 'n % 2 = 0'}, 1, ${hexId('0002', `(n % ${CATEGORIES}) + 1`)}
     from (${seq(ROWS)}) q`
  )
  if (PG) await db.exec('analyze')

  // --profile: a V8 CPU profile of the API server (written when it stops) under tmp/profiles.
  const profile = argv.includes('--profile')
    ? ['--cpu-prof', '--cpu-prof-dir=tmp/profiles', '--cpu-prof-interval=250']
    : []
  const server = spawn(process.execPath, [...profile, 'server.js'], { env, stdio: 'inherit' })
  const floor = spawn(process.execPath, [import.meta.filename, '--floor-server', ...argv], {
    env: { ...process.env, FLOOR_PORT: String(FLOOR_PORT) },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  })
  const stop = () => {
    server.kill('SIGTERM')
    floor.kill('SIGTERM')
  }
  process.on('exit', stop)
  await new Promise((resolve) => floor.once('message', resolve))
  await waitForServer(base)
  const token = await clientToken(base, 'bench', SECRET)
  const headers = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }

  // The scenarios: each request path/body built per request (random ids, unique codes).
  const E = '/rest/entities/bench_Item'
  let created = 0
  let updated = 0
  const scenarios = [
    { name: 'list 20 rows, _base', method: 'GET', path: () => `${E}?limit=20&fetchPlan=_base` },
    { name: 'load by id', method: 'GET', path: () => `${E}/${randomItem()}` },
    {
      name: 'search, 2-condition filter',
      method: 'GET',
      path: () =>
        `${E}/search?filter=${encodeURIComponent(SEARCH_FILTER)}&limit=20&fetchPlan=_base`,
    },
    {
      name: 'create',
      method: 'POST',
      path: () => E,
      body: () =>
        JSON.stringify({
          code: `N${String(++created).padStart(9, '0')}`,
          name: `New ${created}`,
          price: 9.99,
          quantity: created % 50,
          active: true,
          category: { id: categoryId(1 + (created % CATEGORIES)) },
        }),
    },
    {
      name: 'update',
      method: 'PUT',
      // Rows in turn, not at random: two in-flight updates of the same row would be a
      // legitimate optimistic-locking conflict (409) rather than a measurement.
      path: () => `${E}/${itemId(1 + (updated++ % ROWS))}`,
      body: () => JSON.stringify({ quantity: Math.floor(Math.random() * 50) }),
    },
  ]

  // Sanity: both servers answer every scenario with 2xx before anything is measured.
  for (const s of scenarios) {
    for (const origin of [base, `http://127.0.0.1:${FLOOR_PORT}`]) {
      const response = await fetch(`${origin}${s.path()}`, {
        method: s.method,
        headers,
        body: s.body?.(),
      })
      if (!response.ok)
        throw new Error(`${s.name} on ${origin}: ${response.status} ${await response.text()}`)
    }
  }

  const run = (origin, s, seconds) =>
    new Promise((resolve, reject) =>
      autocannon(
        {
          url: origin,
          connections,
          duration: seconds,
          headers,
          requests: [
            {
              method: s.method,
              setupRequest: (req) => ({ ...req, path: s.path(), body: s.body?.() }),
            },
          ],
        },
        (err, result) => (err ? reject(err) : resolve(result))
      )
    )

  console.log(
    `bench:entities on ${PG ? 'PostgreSQL' : 'SQLite'}: bench_Item ${ROWS.toLocaleString('en')} rows, ` +
      `${connections} connections, ${duration} s per run (after a 2 s warm-up); floor = node:http + ${PG ? 'pg' : 'better-sqlite3'}`
  )
  console.log(
    `  ${'scenario'.padEnd(28)} ${'API req/s'.padStart(9)} ${'p50'.padStart(4)} ${'p99'.padStart(4)} | ` +
      `${'floor req/s'.padStart(11)} ${'p50'.padStart(4)} ${'p99'.padStart(4)} | ratio  targets`
  )
  /**
   * CPU time (user + system, ms) a process has used so far (Linux /proc; null elsewhere). Per
   * request it is what the throughput ratio would be on a machine with nothing else running:
   * this machine's cores are shared, so req/s varies from run to run far more than CPU/request.
   */
  const ticksPerSecond = Number(
    spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim() || 100
  )
  const cpuMs = (pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
    } catch {
      return null
    }
  }
  const failures = []
  const cpuLines = []
  const only = argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',')
  for (const s of scenarios) {
    if (only && !only.some((o) => s.name.startsWith(o))) continue
    const measured = []
    const cpu = []
    for (const [origin, pid] of [
      [base, server.pid],
      [`http://127.0.0.1:${FLOOR_PORT}`, floor.pid],
    ]) {
      await run(origin, s, 2)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const cpuBefore = cpuMs(pid)
      const r = await run(origin, s, duration)
      const cpuAfter = cpuMs(pid)
      // autocannon stops sending at the deadline, but the server may still be working through
      // queued requests (writes wait for the single SQLite writer): let it drain, so the next
      // run (another process writing the same file) does not overlap it.
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const bad = r.non2xx + r.errors + r.timeouts
      if (bad) failures.push(`${s.name} on ${origin}: ${bad} failed of ${r.requests.total}`)
      measured.push(r)
      // Requests still queued at the deadline finish during the drain, outside the window.
      cpu.push(cpuBefore === null ? null : ((cpuAfter - cpuBefore) * 1000) / r.requests.total)
    }
    if (cpu[0] !== null && cpu[1] !== null)
      cpuLines.push(
        `  ${s.name.padEnd(28)} ${cpu[0].toFixed(0).padStart(9)} | ${cpu[1].toFixed(0).padStart(11)} | ` +
          `${(cpu[1] / cpu[0]).toFixed(2).padStart(5)}`
      )
    const [api, raw] = measured
    const ratio = api.requests.average / raw.requests.average
    const checks = [`p99<50ms ${api.latency.p99 < 50 ? 'met' : 'NOT met'}`]
    if (s.name.startsWith('list') || s.name.startsWith('load'))
      checks.unshift(`ratio>=0.5 ${ratio >= 0.5 ? 'met' : 'NOT met'}`)
    console.log(
      `  ${s.name.padEnd(28)} ${api.requests.average.toFixed(0).padStart(9)} ${String(api.latency.p50).padStart(4)} ${String(api.latency.p99).padStart(4)} | ` +
        `${raw.requests.average.toFixed(0).padStart(11)} ${String(raw.latency.p50).padStart(4)} ${String(raw.latency.p99).padStart(4)} | ` +
        `${ratio.toFixed(2).padStart(5)}  ${checks.join(', ')}`
    )
  }
  if (cpuLines.length) {
    console.log(
      `  CPU per request of the Node process (µs; PostgreSQL's own CPU not included) and the ` +
        `ratio floor/API (the req/s ratio with the process alone on a core):`
    )
    console.log(
      `  ${'scenario'.padEnd(28)} ${'API µs'.padStart(9)} | ${'floor µs'.padStart(11)} | ratio`
    )
    for (const line of cpuLines) console.log(line)
  }
  for (const f of failures) console.log(`  FAILED REQUESTS: ${f}`)
  floor.kill('SIGTERM')

  if (!argv.includes('--no-big')) {
    // 1,000,000 rows in bench_Big (created by the import above), filled with SQL.
    const fillStart = performance.now()
    await db.exec(
      `insert into bench_big (id, code, label, number)
       select ${hexId('0003', 'n')}, ${code('B', 'n')}, 'row ' || n, n from (${seq(BIG_ROWS)}) q`
    )
    await db.exec(PG ? 'analyze bench_big' : 'analyze')
    const fillMs = performance.now() - fillStart
    const B = '/rest/entities/bench_Big/search'
    const pivot = Math.floor(BIG_ROWS / 2)
    const queries = [
      {
        name: `number > ${pivot}, sort number`,
        sort: 'number',
        filter: { conditions: [{ property: 'number', operator: '>', value: pivot }] },
      },
      {
        name: `code startsWith 'B05', sort code`,
        sort: 'code',
        filter: { conditions: [{ property: 'code', operator: 'startsWith', value: 'B05' }] },
      },
      {
        // Selective, lower case (the match is case-insensitive), sorted by another attribute.
        name: `code startsWith 'b0512', sort number`,
        sort: 'number',
        filter: { conditions: [{ property: 'code', operator: 'startsWith', value: 'b0512' }] },
      },
    ]
    console.log(
      `1,000,000-row check: bench_Big ${BIG_ROWS.toLocaleString('en')} rows (filled in ${(fillMs / 1000).toFixed(1)} s), ` +
        `indexes on code and number; sequential requests, median of up to 300 after 50 warm-up`
    )
    for (const q of queries) {
      const url = `${base}${B}?filter=${encodeURIComponent(JSON.stringify(q.filter))}&sort=${q.sort}&limit=20`
      const times = []
      let first
      // 50 warm-up requests, then up to 300 measured ones, or fewer (at least 30) when a slow
      // query would make the run long.
      const deadline = performance.now() + 6000
      for (let i = 0; i < 350 && (i < 80 || performance.now() < deadline); i++) {
        const start = performance.now()
        const response = await fetch(url, { headers })
        const body = await response.json()
        const ms = performance.now() - start
        if (!response.ok) throw new Error(`${q.name}: ${response.status} ${JSON.stringify(body)}`)
        first ??= body
        if (i >= 50) times.push(ms)
      }
      times.sort((a, b) => a - b)
      const median = times[Math.floor(times.length / 2)]
      const p99 = times[Math.floor(times.length * 0.99)]
      console.log(
        `  ${q.name.padEnd(34)} median ${median.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms  ` +
          `(${times.length} samples; ${first.length} rows, first ${first[0]?.code}) -> under 5 ms ${median < 5 ? 'met' : 'NOT met'}`
      )
    }
  }
  await db.close()
  const exited = new Promise((resolve) => server.once('exit', resolve))
  stop()
  if (profile.length) await exited // the profile is written as the server stops
  process.exit(0)
}
