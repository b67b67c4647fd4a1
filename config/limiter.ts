import { defineConfig, stores } from '@adonisjs/limiter'
import { redisUrl } from '#config/redis'

/**
 * Rate limits are shared by every instance: in the database by default (no extra service), in
 * Redis when REDIS_URL is set (no write to the database per counted attempt). The Redis store is
 * declared only then: declaring it resolves the Redis manager at boot. Expired database counters
 * are swept by app/operations/rate_limit_sweeper.ts, not by the library's own timer (which stops
 * after one failure and leaves its rejection unhandled).
 */
const limiterConfig = defineConfig({
  default: redisUrl ? 'redis' : 'database',
  stores: {
    database: stores.database({ tableName: 'rate_limits', clearExpiredByTimeout: false }),
    memory: stores.memory({}),
    // Typed as always present (the limiter's types infer its stores), declared only with Redis.
    ...((redisUrl ? { redis: stores.redis({ connectionName: 'main' }) } : {}) as {
      redis: ReturnType<typeof stores.redis>
    }),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
