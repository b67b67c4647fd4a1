import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import { readiness } from '#operations/readiness'

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

export default class HealthController {
  /** Liveness plus the model version this instance serves (used by probes and the console) and its pid. */
  show({ response }: HttpContext) {
    const model = engine.model
    response.header('Cache-Control', 'no-store')
    return {
      status: 'ok',
      version,
      modelVersion: model.version,
      modelChecksum: model.checksum,
      database: engine.db.connection().dialect.name === 'postgres' ? 'pg' : 'sqlite',
      // Which process answered: with WEB_CONCURRENCY workers or several instances, the pid.
      instance: process.pid,
    }
  }

  /** GET /health/live: the process answers (restart it when this fails). */
  live({ response }: HttpContext) {
    response.header('Cache-Control', 'no-store')
    return { status: 'ok' }
  }

  /**
   * GET /health/ready: whether to send this instance traffic: database reachable, migrations
   * applied, model loaded, not draining. 503 with the failing checks otherwise.
   */
  async ready({ response }: HttpContext) {
    response.header('Cache-Control', 'no-store')
    const result = await readiness(engine.db, app.migrationsPath(), engine.running)
    return response
      .status(result.ready ? 200 : 503)
      .send({ status: result.ready ? 'ok' : 'unavailable', ...result.checks })
  }
}
