/*
 * CPU cost per request of the request context (app/operations/request_context_middleware.ts),
 * in CPU time of this process (process.cpuUsage: user + system of all its threads, the log
 * writes included), so that other load on the machine does not move the figures. Variants:
 *   baseline        what the framework does anyway (a response object, its child logger)
 *   id (incoming)   a safe X-Request-Id from the load balancer kept: a regex test, one header
 *   id (generated)  no incoming id: randomUUID, request_id bound to that child, one header
 *   + access log    the 'close' listener and the JSON access line (pino with the production
 *                   redaction paths, asynchronous sonic-boom to /dev/null)
 *   + metrics       and HttpMetrics.observe (the /metrics families)
 * Compare with the server-process CPU per request that `npm run bench:entities -- --only=list`
 * prints (a list of 20 rows).
 *   node scripts/bench_request_context.js [--n=200000] [--rounds=5]
 */
import './ts_loader.js'
import { EventEmitter } from 'node:events'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { setImmediate as tick } from 'node:timers/promises'
import { pino } from 'pino'
import { numberArg as arg } from './bench_common.js'

const { HttpMetrics } = await import('../app/operations/http_metrics.js')
const { REDACT_PATHS, REDACT_CENSOR } = await import('../app/operations/log_redaction.js')
const { SAFE_REQUEST_ID } = await import('../app/operations/request_id.js')

const N = arg('n', 200_000)
const ROUNDS = arg('rounds', 5)
const BATCH = 1000

const logger = pino(
  { name: 'modelgate', level: 'info', redact: { paths: REDACT_PATHS, censor: REDACT_CENSOR } },
  pino.destination({ dest: '/dev/null', sync: false })
)
const metrics = new HttpMetrics()

/** The parts of a Node response the middleware touches. */
class FakeResponse extends EventEmitter {
  statusCode = 200
  writableFinished = true
  #headers = { 'content-length': '1234' }
  setHeader(name, value) {
    this.#headers[name.toLowerCase()] = value
  }
  getHeader(name) {
    return this.#headers[name]
  }
}

function finished(ctx, start, withMetrics) {
  const seconds = (performance.now() - start) / 1000
  const res = ctx.res
  const route = '/rest/entities/:entity'
  if (withMetrics) metrics.observe(route, 'GET', res.statusCode, seconds)
  const length = res.getHeader('content-length')
  ctx.logger.info(
    {
      method: 'GET',
      route,
      path: '/rest/entities/bench_Item',
      status: res.statusCode,
      duration_ms: Math.round(seconds * 1e6) / 1e3,
      bytes: length === undefined ? undefined : Number(length),
      aborted: res.writableFinished ? undefined : true,
    },
    'request'
  )
}

/** What the framework does for every request: a response, a child logger from the header. */
function frameworkContext(headers) {
  return { res: new FakeResponse(), logger: logger.child({ request_id: headers['x-request-id'] }) }
}

/** The middleware's request-id part (request_context_middleware.ts). */
function withId(ctx, headers) {
  let id = headers['x-request-id']
  if (typeof id !== 'string') {
    id = randomUUID()
    ctx.logger.setBindings({ request_id: id })
  } else if (!SAFE_REQUEST_ID.test(id)) {
    id = randomUUID()
    ctx.logger = logger.child({ request_id: id })
  }
  ctx.res.setHeader('X-Request-Id', id)
  return ctx
}

const LB = { 'x-request-id': 'lb-0a1b2c3d4e5f' }
const NONE = {}
const variants = {
  'baseline': () => frameworkContext(NONE),
  'id (incoming)': () => withId(frameworkContext(LB), LB),
  'id (generated)': () => withId(frameworkContext(NONE), NONE),
  '+ access log': () => {
    const start = performance.now()
    const ctx = withId(frameworkContext(NONE), NONE)
    ctx.res.once('close', () => finished(ctx, start, false))
    ctx.res.emit('close')
  },
  '+ metrics': () => {
    const start = performance.now()
    const ctx = withId(frameworkContext(NONE), NONE)
    ctx.res.once('close', () => finished(ctx, start, true))
    ctx.res.emit('close')
  },
}

const results = Object.fromEntries(Object.keys(variants).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(variants)) {
    await tick()
    const before = process.cpuUsage()
    for (let done = 0; done < N; done += BATCH) {
      for (let i = 0; i < BATCH; i++) run()
      // Lets sonic-boom write what the batch logged (its CPU is counted too).
      await tick()
    }
    const used = process.cpuUsage(before)
    results[name].push((used.user + used.system) / N)
  }
}

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]
const base = median(results.baseline)
console.log(`request context: CPU µs per request, median of ${ROUNDS} rounds of ${N}`)
console.log('  variant           µs/req   above baseline')
for (const [name, values] of Object.entries(results)) {
  const us = median(values)
  console.log(`  ${name.padEnd(16)} ${us.toFixed(2).padStart(7)}   ${(us - base).toFixed(2).padStart(6)}`)
}
logger.flush()
