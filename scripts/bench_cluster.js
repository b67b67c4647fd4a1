/*
 * Several instances behind a load balancer vs one instance (issue 23), on PostgreSQL (scratch
 * database modelgate_bench_cluster on DB_HOST, recreated): three `node server.js` behind HAProxy
 * (round-robin, the production example's configuration) and one of them asked directly, with
 * the same load (wrk when installed, else autocannon: scripts/load_generator.js):
 *   list  GET /rest/entities/cl_Item?limit=20&fetchPlan=_base
 *   load  GET /rest/entities/cl_Item/{random id}
 * Per scenario: req/s, p50/p99 (ms), CPU per request of the server processes (the sum of
 * /proc/<pid>/stat user+system of all three over the run / its requests) and the CPU shares of
 * the servers, HAProxy, PostgreSQL (every `postgres` process: the machine's, so other load
 * counts) and the load generator, so that the ratio can be read against what the cores allow.
 *   node scripts/bench_cluster.js [--duration=10] [--connections=20] [--rows=5000]
 *        [--loadgen=wrk|autocannon]
 */
import { ensureEnv } from './ensure_env.js'
import { numberArg as arg } from './bench_common.js'
import { loadGenerator } from './load_generator.js'
import { cpuMs, cpuMsOf } from './proc_stat.js'
import {
  ENTITY,
  prepareDatabase,
  seed,
  startHaproxy,
  startInstance,
  stopAll,
  token as getToken,
} from './cluster_common.js'

const duration = arg('duration', 10)
const connections = arg('connections', 20)
const ROWS = arg('rows', 5000)
const PORTS = [8391, 8392, 8393]
const LB_PORT = 8390
const loadgen = loadGenerator()
ensureEnv()

const env = await prepareDatabase(
  { pg: true, pgDatabase: process.env.BENCH_DB_DATABASE ?? 'modelgate_bench_cluster' },
  PORTS[0]
)
const children = []
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM')))
// One at a time: the first one runs the migrations.
for (const port of PORTS) children.push(await startInstance(env, port))
children.push(await startHaproxy(LB_PORT, PORTS))
const [servers, haproxy] = [children.slice(0, 3), children[3]]

const direct = `http://127.0.0.1:${PORTS[0]}`
const balanced = `http://127.0.0.1:${LB_PORT}`
const token = await getToken(direct)
const ids = await seed(direct, token, ROWS)
const headers = { authorization: `Bearer ${token}` }

const paths = {
  list: [`/rest/entities/${ENTITY}?limit=20&fetchPlan=_base`],
  load: ids.map((id) => `/rest/entities/${ENTITY}/${id}`),
}
const run = (base, scenario, seconds) =>
  loadgen.run({ base, paths: paths[scenario], headers, connections, duration: seconds })

const rows = []
for (const scenario of ['list', 'load']) {
  for (const [label, base] of [
    ['1 instance, direct', direct],
    ['3 instances, HAProxy', balanced],
  ]) {
    await run(base, scenario, 2) // warm-up
    const before = {
      servers: servers.reduce((s, c) => s + cpuMs(c.pid), 0),
      haproxy: cpuMs(haproxy.pid),
      postgres: cpuMsOf('postgres'),
    }
    const started = Date.now()
    const result = await run(base, scenario, duration)
    const wall = Date.now() - started
    const used = {
      servers: servers.reduce((s, c) => s + cpuMs(c.pid), 0) - before.servers,
      haproxy: cpuMs(haproxy.pid) - before.haproxy,
      postgres: cpuMsOf('postgres') - before.postgres,
      generator: result.cpuMs,
    }
    const requests = result.requests
    const failed = result.bad
    const share = (ms) => `${((ms / wall) * 100).toFixed(0)}%`
    rows.push({
      scenario,
      'setup': label,
      'req/s': Math.round(requests / (wall / 1000)),
      'p50 ms': result.p50,
      'p99 ms': result.p99,
      'server CPU µs/req': Math.round((used.servers * 1000) / requests),
      'servers': share(used.servers),
      'haproxy': share(used.haproxy),
      'postgres': share(used.postgres),
      'load gen': share(used.generator),
      'failed': failed,
    })
  }
}

console.log(
  `\n${connections} connections, ${duration} s per run, ${ROWS} rows, load from ${loadgen.name}; CPU shares are of one core (200% = both cores)`
)
console.table(rows)
for (const scenario of ['list', 'load']) {
  const [one, three] = rows.filter((r) => r.scenario === scenario)
  console.log(
    `${scenario}: 3 instances / 1 instance = ${(three['req/s'] / one['req/s']).toFixed(2)}x req/s, ` +
      `${(three['server CPU µs/req'] / one['server CPU µs/req']).toFixed(2)}x server CPU per request`
  )
}
// The balancer first, so that no connection of its own reaches an instance that drains.
await stopAll([haproxy])
await stopAll(servers)
