import { defineConfig, stores } from '@adonisjs/limiter'

/** Rate limits live in the database so that every instance counts the same attempts. */
const limiterConfig = defineConfig({
  default: 'database',
  stores: {
    database: stores.database({ tableName: 'rate_limits', clearExpiredByTimeout: true }),
    memory: stores.memory({}),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
