/*
|--------------------------------------------------------------------------
| HTTP server entrypoint
|--------------------------------------------------------------------------
| A start that fails exits non-zero with one line saying why (a port in use, a missing
| PostgreSQL database, ...); every exit, a signal included, logs one line with its reason.
| SIGTERM/SIGINT drain the server (app/operations/shutdown.ts) and exit 0. With
| WEB_CONCURRENCY > 1 this process becomes a node:cluster primary that runs that many workers,
| each one this same file (app/operations/cluster.ts).
*/
import 'reflect-metadata'
import cluster from 'node:cluster'
import type { Server } from 'node:http'
import { webConcurrency } from '../app/operations/cluster_config.js'

let workers = 1
try {
  workers = webConcurrency()
} catch (error) {
  process.stderr.write(`modelgate: cannot start: ${(error as Error).message}\n`)
  process.exit(1)
}
if (cluster.isPrimary && workers > 1) {
  const { runPrimary } = await import('../app/operations/cluster.js')
  await runPrimary(workers)
} else {
  await runServer()
}

async function runServer() {
  const { Ignitor } = await import('@adonisjs/core')
  const { startupFailure } = await import('../start/startup_failure.js')
  const { createHttpServer, drainHttpServer, shutdownTimeout } =
    await import('../app/operations/shutdown.js')
  const APP_ROOT = new URL('../', import.meta.url)
  const IMPORTER = (filePath: string) => {
    if (filePath.startsWith('./') || filePath.startsWith('../')) {
      return import(new URL(filePath, APP_ROOT).href)
    }
    return import(filePath)
  }

  const who = cluster.isWorker ? `worker ${cluster.worker!.id} (pid ${process.pid})` : ''
  let reason = 'the server closed'
  process.on('exit', (code) => {
    process.stderr.write(
      `modelgate: ${who ? who + ' ' : ''}stopped: ${reason} (exit code ${code})\n`
    )
  })

  let httpServer: Server | undefined
  let stopping = false
  let withFastReads: (typeof import('../app/controllers/rest/fast_reads.js'))['withFastReads']
  new Ignitor(APP_ROOT, { importer: IMPORTER })
    .tap((app) => {
      app.booting(async () => {
        await import('#start/env')
      })
      // Entity reads in front of the framework (app/controllers/rest/fast_reads.ts), loaded once
      // the application has booted.
      app.starting(async () => {
        ;({ withFastReads } = await import('../app/controllers/rest/fast_reads.js'))
      })
      for (const signal of ['SIGTERM', 'SIGINT'] as const)
        app.listen(signal, async () => {
          // A second signal (a terminal's Ctrl-C plus the cluster primary's SIGTERM) is the same stop.
          if (stopping) return
          stopping = true
          reason = `${signal} received`
          const timeout = shutdownTimeout()
          // Whatever hangs in the pools' or hooks' close, the process still ends.
          setTimeout(() => {
            reason = `${signal} received, shutdown did not finish within ${timeout + 5000} ms`
            process.exit(1)
          }, timeout + 5000).unref()
          if (httpServer) {
            const cut = await drainHttpServer(httpServer, timeout)
            if (cut)
              reason += `, ${cut} requests cut after MODELGATE_SHUTDOWN_TIMEOUT_MS=${timeout}`
          }
          await app.terminate()
          process.exit(0)
        })
    })
    .httpServer()
    .start((handler) => (httpServer = createHttpServer(withFastReads(handler))))
    .catch((error) => {
      reason = `cannot start: ${startupFailure(error)}`
      process.exit(1)
    })
}
