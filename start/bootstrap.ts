/**
 * What the server does before it listens: migrate the system tables, load the model, and seed
 * the demo application into an empty model (MODELGATE_DEMO=false turns that off).
 */
import type { ApplicationService } from '@adonisjs/core/types'
import type { Engine } from '#engine/engine'

export const DEMO_FILE = 'database/demo/bookstore.json'

export async function migrate(app: ApplicationService) {
  const { MigrationRunner } = await import('@adonisjs/lucid/migration')
  const db = await app.container.make('lucid.db')
  const runner = new MigrationRunner(db, app, { direction: 'up' })
  await runner.run()
  if (runner.error) throw runner.error
}

export async function bootstrapServer(
  app: ApplicationService,
  engine: Engine,
  options: { migrate: boolean; demo: boolean }
) {
  const logger = await app.container.make('logger')
  if (options.migrate) await migrate(app)
  await engine.start()
  if (options.demo && engine.model.entities.size === 0 && engine.model.version === 0) {
    logger.info('empty model: importing the demo application from %s', DEMO_FILE)
    const result = await engine.importFile(app.makePath(DEMO_FILE), { source: 'demo' })
    if (result.status !== 'applied') {
      throw new Error(
        `demo import failed: ${JSON.stringify(result.problems.concat(result.refusals as any))}`
      )
    }
    logger.info('demo application imported (model version %d)', result.version)
  }
}
