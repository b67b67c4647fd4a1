import type { HttpContext } from '@adonisjs/core/http'
import engine from '#engine/services/engine'
import { readFileSync } from 'node:fs'

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

export default class HealthController {
  /** Liveness plus the model version this instance serves (used by probes and the console). */
  show({ response }: HttpContext) {
    const model = engine.model
    response.header('Cache-Control', 'no-store')
    return {
      status: 'ok',
      version,
      modelVersion: model.version,
      modelChecksum: model.checksum,
      database: engine.db.connection().dialect.name === 'postgres' ? 'pg' : 'sqlite',
    }
  }
}
