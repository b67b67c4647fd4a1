/*
 * Soak (issue 23): one `node server.js` on a scratch PostgreSQL database (modelgate_soak on
 * DB_HOST, recreated; --sqlite: tmp/soak.sqlite3) under a steady open-loop load of mixed reads
 * and writes for --minutes (default 10), at --rate requests per second (default 50):
 *   55 % list  GET    /rest/entities/cl_Item?limit=20&fetchPlan=_base
 *   20 % load  GET    /rest/entities/cl_Item/{id}
 *   10 % create POST  /rest/entities/cl_Item
 *   10 % update PUT   /rest/entities/cl_Item/{id}
 *    5 % delete DELETE /rest/entities/cl_Item/{id of a row this run created}
 * The server's heap used and RSS come from its /metrics (prom-client, MODELGATE_METRICS_TOKEN),
 * sampled every 2 s. Heap used moves with every GC cycle, so each figure is the lowest sample
 * of a window (one minute, or a tenth of the run when shorter): right after the warm-up (the
 * first window) and at the end (the last one). Prints errors, req/s, p50/p99 and the growth;
 * exits 1 unless 0 errors, heap growth < 10 % and RSS growth < 50 MB.
 *   node scripts/soak.js [--minutes=10] [--rate=50] [--rows=2000] [--sqlite]
 */
import { randomBytes } from 'node:crypto'
import { ensureEnv } from './ensure_env.js'
import { numberArg as arg } from './bench_common.js'
import {
  ENTITY,
  prepareDatabase,
  seed,
  startInstance,
  stopAll,
  token as getToken,
} from './cluster_common.js'

const minutes = arg('minutes', 10)
const rate = arg('rate', 50)
const ROWS = arg('rows', 2000)
const SQLITE = process.argv.includes('--sqlite')
const PORT = 8395
const METRICS_TOKEN = randomBytes(16).toString('hex')
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
ensureEnv()

const env = await prepareDatabase(
  SQLITE
    ? { pg: false, sqliteFile: 'tmp/soak.sqlite3' }
    : { pg: true, pgDatabase: process.env.SOAK_DB_DATABASE ?? 'modelgate_soak' },
  PORT
)
const server = await startInstance(env, PORT, { MODELGATE_METRICS_TOKEN: METRICS_TOKEN })
process.on('exit', () => server.exitCode === null && server.kill('SIGTERM'))
const base = `http://127.0.0.1:${PORT}`
const token = await getToken(base)
const ids = await seed(base, token, ROWS)
const created = []
const headers = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }

async function memory() {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text()
  const value = (name) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1])
  return { heap: value('nodejs_heap_size_used_bytes'), rss: value('process_resident_memory_bytes') }
}

const pick = () => ids[Math.floor(Math.random() * ids.length)]
function nextRequest(n) {
  const r = n % 20
  if (r < 11) return ['GET', `/rest/entities/${ENTITY}?limit=20&fetchPlan=_base`, undefined, 200]
  if (r < 15) return ['GET', `/rest/entities/${ENTITY}/${pick()}`, undefined, 200]
  if (r < 17)
    return ['POST', `/rest/entities/${ENTITY}`, { name: `soak ${n}`, quantity: n % 50 }, 201]
  if (r < 19) return ['PUT', `/rest/entities/${ENTITY}/${pick()}`, { quantity: n % 1000 }, 200]
  if (created.length === 0) return ['GET', `/rest/entities/${ENTITY}/${pick()}`, undefined, 200]
  return ['DELETE', `/rest/entities/${ENTITY}/${created.shift()}`, undefined, 204]
}

const errors = []
const latencies = []
let sent = 0
let inFlight = 0
async function one(n) {
  const [method, path, body, expected] = nextRequest(n)
  const started = performance.now()
  inFlight++
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body && JSON.stringify(body),
    })
    const text = await response.text()
    if (response.status !== expected)
      errors.push(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`)
    else if (method === 'POST') created.push(JSON.parse(text).id)
  } catch (error) {
    errors.push(`${method} ${path}: ${error.cause?.code ?? error.message}`)
  } finally {
    inFlight--
    latencies.push(performance.now() - started)
  }
}

const durationMs = minutes * 60_000
const windowMs = Math.min(60_000, durationMs / 10)
const samples = []
const start = Date.now()
const sampler = setInterval(async () => {
  samples.push({ at: Date.now() - start, ...(await memory().catch(() => ({}))) })
}, 2000)
// Open loop: a request every 1000/rate ms whatever the answers do (at most 200 outstanding).
let lastReport = start
while (Date.now() - start < durationMs) {
  const due = start + (sent * 1000) / rate
  if (due > Date.now()) await sleep(due - Date.now())
  if (inFlight < 200) void one(sent)
  else errors.push('more than 200 requests outstanding: the server falls behind the rate')
  sent++
  if (Date.now() - lastReport > 60_000) {
    lastReport = Date.now()
    const last = samples.at(-1) ?? {}
    console.log(
      `${Math.round((Date.now() - start) / 1000)} s: ${sent} sent, ${errors.length} errors, heap ${(last.heap / 1e6).toFixed(1)} MB, RSS ${(last.rss / 1e6).toFixed(1)} MB`
    )
  }
}
while (inFlight > 0) await sleep(50)
clearInterval(sampler)
samples.push({ at: Date.now() - start, ...(await memory()) })

const floor = (from, to, key) =>
  Math.min(...samples.filter((s) => s.at >= from && s.at <= to && s[key]).map((s) => s[key]))
const end = Date.now() - start
const heapStart = floor(windowMs, 2 * windowMs, 'heap')
const heapEnd = floor(end - windowMs, end, 'heap')
const rssStart = floor(windowMs, 2 * windowMs, 'rss')
const rssEnd = floor(end - windowMs, end, 'rss')
latencies.sort((a, b) => a - b)
const pct = (p) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]
const heapGrowth = (heapEnd - heapStart) / heapStart
const rssGrowth = rssEnd - rssStart
console.log(`
soak: ${minutes} min at ${rate} req/s (${SQLITE ? 'SQLite' : 'PostgreSQL'}), ${sent} requests, ${(sent / (end / 1000)).toFixed(1)} req/s
errors: ${errors.length}${errors.length ? `\n  ${[...new Set(errors)].slice(0, 10).join('\n  ')}` : ''}
latency: p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms
heap used (lowest of a ${windowMs / 1000} s window): ${(heapStart / 1e6).toFixed(1)} MB after warm-up -> ${(heapEnd / 1e6).toFixed(1)} MB at the end (${(heapGrowth * 100).toFixed(1)} %, limit 10 %)
RSS (lowest of the same windows): ${(rssStart / 1e6).toFixed(1)} MB -> ${(rssEnd / 1e6).toFixed(1)} MB (${(rssGrowth / 1e6).toFixed(1)} MB, limit 50 MB)
rows: ${ROWS} seeded, ${created.length} created and not deleted`)
await stopAll([server])
const ok = errors.length === 0 && heapGrowth < 0.1 && rssGrowth < 50e6
console.log(ok ? 'PASS' : 'FAIL')
process.exit(ok ? 0 : 1)
