/**
 * The node:cluster primary (README "All cores: workers"): runs WEB_CONCURRENCY server processes
 * that share the listening port. The first worker starts alone, since it migrates the system
 * tables and imports the demo into an empty model; the others are forked once it listens, so
 * two processes never migrate at once. A worker that dies is replaced after a backoff. SIGTERM
 * or SIGINT is passed on to every worker, which drains (shutdown.ts); the primary exits 0 once
 * they are all gone. The primary runs no application code and opens no database.
 */
import cluster, { type Worker } from 'node:cluster'

/** Replacement delays grow from 1 s to 30 s for a worker that keeps dying, and reset after 60 s up. */
const FIRST_DELAY_MS = 1_000
const MAX_DELAY_MS = 30_000
const HEALTHY_AFTER_MS = 60_000

function line(message: string) {
  process.stderr.write(`modelgate: primary (pid ${process.pid}): ${message}\n`)
}

function describeExit(code: number | null, signal: string | null) {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`
}

export async function runPrimary(count: number) {
  let stopping = false
  let delay = FIRST_DELAY_MS
  const startedAt = new Map<Worker, number>()

  const fork = () => {
    const worker = cluster.fork()
    startedAt.set(worker, Date.now())
    return worker
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return
      stopping = true
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w)
      line(`${signal} received: stopping ${alive.length} workers`)
      for (const worker of alive) worker.process.kill('SIGTERM')
      const wait = () => {
        if (Object.values(cluster.workers ?? {}).some(Boolean)) return setTimeout(wait, 50)
        line(`stopped: ${signal} received (exit code 0)`)
        process.exit(0)
      }
      wait()
    })
  }
  // /metrics of any worker answers for all of them (metrics_cluster.ts): the primary relays.
  if (process.env.MODELGATE_METRICS_TOKEN)
    (await import('./metrics_cluster.js')).relayClusterMetrics()
  line(`starting ${count} workers (WEB_CONCURRENCY)`)
  const first = fork()
  // A first worker that cannot start (database unreachable, port in use) stops the primary
  // with its exit code: a supervisor restarts the whole thing, as with a single process.
  const started = await new Promise<boolean>((resolve) => {
    const failed = (code: number | null, signal: string | null) => {
      if (!stopping) line(`first worker ${describeExit(code, signal)} before listening: stopping`)
      process.exitCode = code || 1
      resolve(false)
    }
    first.once('exit', failed)
    first.once('listening', () => {
      first.off('exit', failed)
      resolve(true)
    })
  })
  if (!started) return
  if (!stopping) for (let i = 1; i < count; i++) fork()

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0)
    startedAt.delete(worker)
    if (stopping) return
    if (lived > HEALTHY_AFTER_MS) delay = FIRST_DELAY_MS
    line(
      `worker ${worker.id} (pid ${worker.process.pid}) ${describeExit(code, signal)} after ${Math.round(lived / 1000)} s: starting a new one in ${delay / 1000} s`
    )
    setTimeout(() => stopping || fork(), delay)
    delay = Math.min(delay * 2, MAX_DELAY_MS)
  })
}
