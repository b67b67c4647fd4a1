import type { ApplicationService } from '@adonisjs/core/types'
import { Engine } from '#engine/engine'

/**
 * Registers the model engine. In the web environment the server applies pending migrations of
 * the system tables, loads the model and settings, starts watching for changes and (on an empty
 * model) imports the demo application — all before it starts listening.
 */
export default class EngineProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(Engine, async (resolver) => {
      const db = await resolver.make('lucid.db')
      const logger = await resolver.make('logger')
      const env = (await import('#start/env')).default
      return new Engine(db, logger, {
        propertiesFile: this.app.configPath('application.properties'),
        watchIntervalMs: env.get('MODELGATE_WATCH_INTERVAL_MS', 500),
      })
    })
  }

  async start() {
    if (this.app.getEnvironment() !== 'web') return
    const env = (await import('#start/env')).default
    const { bootstrapServer } = await import('#start/bootstrap')
    await bootstrapServer(this.app, await this.app.container.make(Engine), {
      migrate: env.get('MODELGATE_AUTO_MIGRATE', true),
      demo: env.get('MODELGATE_DEMO', true),
    })
  }

  /**
   * The change watcher stops in a `terminating` hook: those run before any provider's shutdown,
   * and Lucid's provider (registered earlier) closes the pools in its own shutdown. A refresh
   * still running then would wait for a pool that is gone (60 s acquire timeout at exit).
   */
  boot() {
    this.app.terminating(async () => {
      const { startDraining } = await import('#operations/readiness')
      startDraining()
      const { stopRateLimitSweeper } = await import('#operations/rate_limit_sweeper')
      stopRateLimitSweeper()
      const engine = await this.app.container.make(Engine)
      await engine.stop()
      // The reports' shared Chromium closes in a hook of its own (app/reports/renderers/browser.ts).
    })
  }
}
