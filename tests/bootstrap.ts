import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import testUtils from '@adonisjs/core/services/test_utils'
import { resetDatabase } from '#tests/helpers/database'

export const plugins: Config['plugins'] = [assert(), apiClient(), pluginAdonisJS(app)]

/** Every run starts from an empty database with the system tables migrated. */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [async () => void (await resetDatabase())],
  teardown: [],
}

export const configureSuite: Config['configureSuite'] = (suite) => {
  if (['browser', 'functional'].includes(suite.name)) {
    // The server factory and the entity-read fast path of bin/server.ts.
    return suite.setup(async () => {
      const { createHttpServer } = await import('#operations/shutdown')
      const { withFastReads } = await import('#controllers/rest/fast_reads')
      return testUtils.httpServer().start((handler) => createHttpServer(withFastReads(handler)))
    })
  }
}
