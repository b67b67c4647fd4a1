/*
 * All cores (README "All cores: workers"): list and load throughput of the entities API with
 * WEB_CONCURRENCY=1 and 2 on one machine, where PostgreSQL and the load generator share the same
 * cores: wrk when installed, else autocannon (scripts/load_generator.js; --loadgen= chooses;
 * autocannon costs about twice wrk's CPU per request, which lowers the ceiling). Per scenario
 * and worker count: req/s, p50/p99 (ms), server CPU per request (user+system of the primary and
 * all its workers from /proc/<pid>/stat, over the requests), preempted/req (how often per
 * request the scheduler took a core from a runnable server process to run another: PostgreSQL,
 * the load generator, the other worker; nonvoluntary context switches from /proc/<pid>/status),
 * and the CPU shares of the server, PostgreSQL (the benchmark database's backends) and the load
 * generator in the machine's capacity (wall time x cores). Then the ratios 2/1 and the ceiling
 * those shares allow:
 *   ceiling req/s = cores x 1000 ms / (server + PostgreSQL + load generator CPU ms per request)
 * Target: >= 1.1x with 2 workers, server CPU per request within 10 % of one worker's. Ratios
 * are taken per round (1 then 2 workers back to back) and their median printed with the range.
 *   node scripts/bench_workers.js [--sqlite] [--duration=10] [--warmup=5] [--connections=50]
 *        [--rows=2000] [--rounds=2]   (rounds alternate 1 and 2 workers; medians are printed)
 *        [--pool-total=10]  PostgreSQL connections of the server, split over its workers
 *                           (DB_POOL_MAX = total / workers), so that PostgreSQL serves as many
 *                           backends with 2 workers as with 1
 * PostgreSQL database modelgate_bench_workers on DB_HOST (recreated); --sqlite:
 * tmp/bench-workers.sqlite3 (two processes then share the file).
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpus } from 'node:os'
import { ensureEnv } from './ensure_env.js'
import { serverV8Flags } from './v8_flags.js'
import { loadGenerator } from './load_generator.js'
import { cpuMs, preemptions } from './proc_stat.js'
import {
  benchAccess,
  clientToken,
  freshDatabase,
  importDefinition,
  numberArg as arg,
  pgConfig,
  serverEnv,
  waitForServer,
} from './bench_common.js'

const argv = process.argv.slice(2)
const PG = !argv.includes('--sqlite')
const duration = arg('duration', 10)
const connections = arg('connections', 50)
const ROWS = arg('rows', 2000)
// Warm-up per scenario: every worker compiles and optimises the request path on its first requests.
const warmup = arg('warmup', 5)
// Rounds alternate 1 and 2 workers, so that a change in the shared machine's load hits both.
const rounds = arg('rounds', 2)
const poolTotal = arg('pool-total', 10)
const loadgen = loadGenerator(argv)
const PG_DATABASE = process.env.BENCH_DB_DATABASE ?? 'modelgate_bench_workers'
const PORT = 8193
const base = `http://127.0.0.1:${PORT}`
const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz'
const CORES = cpus().length
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
ensureEnv()

const env = serverEnv(PORT)
await freshDatabase(env, {
  pg: PG,
  pgDatabase: PG_DATABASE,
  sqliteFile: 'tmp/bench-workers.sqlite3',
})
importDefinition(
  {
    formatVersion: 1,
    entities: [
      {
        name: 'bench_Item',
        idType: 'uuid',
        instanceName: 'name',
        attributes: [
          { name: 'code', type: 'string', length: 20, mandatory: true, unique: true },
          { name: 'name', type: 'string', length: 100 },
          { name: 'price', type: 'decimal', precision: 10, scale: 2 },
          { name: 'quantity', type: 'int' },
          { name: 'active', type: 'boolean' },
        ],
      },
    ],
    ...benchAccess(SECRET),
  },
  'tmp/bench-workers.json',
  env
)

const children = (pid) =>
  spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number)
const serverPids = (server) => [server.pid, ...children(server.pid)]
const sum = (pids) => pids.reduce((total, pid) => total + cpuMs(pid), 0)

/** PostgreSQL backends of the benchmark database (their pids stay for the pooled connections). */
async function pgPids() {
  if (!PG) return []
  const { default: pg } = await import('pg')
  const client = new pg.Client(pgConfig('postgres'))
  await client.connect()
  const { rows } = await client.query('select pid from pg_stat_activity where datname = $1', [
    PG_DATABASE,
  ])
  await client.end()
  return rows.map((r) => r.pid)
}

async function startServer(workers) {
  // With the V8 flags of `npm start` and the README's production command; workers inherit them.
  const server = spawn(process.execPath, [...serverV8Flags(), 'server.js'], {
    env: {
      ...env,
      WEB_CONCURRENCY: String(workers),
      DB_POOL_MAX: String(Math.max(1, Math.round(poolTotal / workers))),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  await waitForServer(base)
  // Every worker answers (the others start once the first listens).
  const seen = new Set()
  for (let i = 0; seen.size < workers && i < 1200; i++) {
    seen.add((await (await fetch(`${base}/health`)).json()).instance)
    await sleep(50)
  }
  return server
}

async function stopServer(server) {
  const exited = new Promise((resolve) => server.once('exit', resolve))
  server.kill('SIGTERM')
  await exited
}

/** One load run over `paths` (in random order): requests, p50/p99, bad answers, loadgen CPU ms. */
const run = (headers, paths, seconds) =>
  loadgen.run({ base, paths, headers, connections, duration: seconds })

let ids = []
const results = {}
for (const workers of Array.from({ length: rounds }, () => [1, 2]).flat()) {
  const server = await startServer(workers)
  const token = await clientToken(base, 'bench', SECRET)
  const headers = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }
  if (ids.length === 0) {
    for (let i = 0; i < ROWS; i += 50) {
      const batch = Array.from({ length: Math.min(50, ROWS - i) }, (_, j) =>
        fetch(`${base}/rest/entities/bench_Item`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            code: `I${i + j}`,
            name: `Item ${i + j}`,
            price: 9.99,
            quantity: j,
            active: true,
          }),
        }).then((r) => r.json())
      )
      ids.push(...(await Promise.all(batch)).map((b) => b.id))
    }
  }
  const scenarios = {
    list: ['/rest/entities/bench_Item?limit=20&fetchPlan=_base'],
    load: ids.map((id) => `/rest/entities/bench_Item/${id}`),
  }
  for (const [name, paths] of Object.entries(scenarios)) {
    await run(headers, paths, warmup)
    const pids = serverPids(server)
    const pgBefore = await pgPids()
    const before = { server: sum(pids), pg: sum(pgBefore), preempted: preemptions(pids) }
    const started = performance.now()
    const r = await run(headers, paths, duration)
    const wall = performance.now() - started
    const pgAfter = [...new Set([...pgBefore, ...(await pgPids())])]
    const count = r.requests
    const cpu = {
      server: sum(pids) - before.server,
      pg: sum(pgAfter) - before.pg,
      gen: r.cpuMs,
    }
    const bad = r.bad
    ;(results[`${name} ${workers}`] ??= []).push({
      rps: count / (wall / 1000),
      p50: r.p50,
      p99: r.p99,
      perReq: (cpu.server / count) * 1000,
      preempted: (preemptions(pids) - before.preempted) / count,
      shares: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v / (wall * CORES)])),
      perReqAll: (cpu.server + cpu.pg + cpu.gen) / count,
      bad,
    })
  }
  await stopServer(server)
}

// Ratios per round (a round is one 1-worker and one 2-worker run back to back), so that a drift
// of the shared machine between rounds cancels out; then their median and range.
const byRound = Object.fromEntries(
  ['list', 'load'].map((name) => {
    const ones = results[`${name} 1`]
    const twos = results[`${name} 2`]
    return [
      name,
      ones.map((one, i) => ({ rps: twos[i].rps / one.rps, cpu: twos[i].perReq / one.perReq })),
    ]
  })
)
const middle = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
const range = (xs) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`
/** The round with the median req/s (its other figures with it). */
const median = (runs) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor((runs.length - 1) / 2)]
for (const key of Object.keys(results)) results[key] = median(results[key])

const pct = (x) => `${(x * 100).toFixed(0)} %`.padStart(5)
console.log(
  `\nentities API, ${PG ? 'PostgreSQL' : 'SQLite'}, ${CORES} cores, ${connections} connections, ${duration} s per run, median of ${rounds} rounds, load from ${loadgen.name}\n`
)
console.log(
  'scenario workers    req/s   p50   p99  server µs/req  preempted/req   server    db  loadgen  errors'
)
for (const [key, r] of Object.entries(results)) {
  const [name, workers] = key.split(' ')
  console.log(
    `${name.padEnd(8)} ${workers.padStart(7)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(5)} ${String(r.p99).padStart(5)} ${r.perReq.toFixed(0).padStart(14)} ${r.preempted.toFixed(2).padStart(14)}   ${pct(r.shares.server)} ${pct(r.shares.pg)}    ${pct(r.shares.gen)} ${String(r.bad).padStart(7)}`
  )
}
console.log('')
for (const name of ['list', 'load']) {
  const one = results[`${name} 1`]
  const two = results[`${name} 2`]
  const rps = byRound[name].map((r) => r.rps)
  const cpu = byRound[name].map((r) => r.cpu)
  // What two cores allow if every request cost what it costs with one worker (server +
  // PostgreSQL + load generator), and with the costs measured with two.
  const ceilingOne = (CORES * 1000) / one.perReqAll
  const ceilingTwo = (CORES * 1000) / two.perReqAll
  console.log(
    `${name}: 2 workers / 1 = ${middle(rps).toFixed(2)}x req/s (rounds ${range(rps)}; target >= 1.10x); server CPU per request ${middle(cpu).toFixed(2)}x (rounds ${range(cpu)}; target <= 1.10x)\n` +
      `  ceiling at one worker's costs: ${CORES} cores x 1000 ms / ${one.perReqAll.toFixed(3)} ms per request (server + db + loadgen) = ${ceilingOne.toFixed(0)} req/s = ${(ceilingOne / one.rps).toFixed(2)}x; at two workers' costs (${two.perReqAll.toFixed(3)} ms) = ${(ceilingTwo / one.rps).toFixed(2)}x`
  )
}
