/*
|--------------------------------------------------------------------------
| HTTP server entrypoint
|--------------------------------------------------------------------------
| A start that fails exits non-zero with one line saying why (a port in use, a missing
| PostgreSQL database, ...); every exit, a signal included, logs one line with its reason.
*/
import 'reflect-metadata'
import { Ignitor } from '@adonisjs/core'
import { startupFailure } from '../start/startup_failure.js'

const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

let reason = 'the server closed'
process.on('exit', (code) => {
  process.stderr.write(`modelgate: stopped: ${reason} (exit code ${code})\n`)
})

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      app.listen(signal, () => {
        reason = `${signal} received`
        return app.terminate()
      })
  })
  .httpServer()
  .start()
  .catch((error) => {
    reason = `cannot start: ${startupFailure(error)}`
    process.exit(1)
  })
