import env from '#start/env'
import { defineConfig } from '@adonisjs/redis'
import type { InferConnections } from '@adonisjs/redis/types'

/**
 * Redis is optional: with `REDIS_URL` set, login sessions (config/session.ts) and rate limits
 * (config/limiter.ts) live in it; without it they stay in the signed cookie and the database,
 * and nothing here connects (the manager opens a connection on first use only).
 */
export const redisUrl = env.get('REDIS_URL') || null

/** `redis://[user:password@]host[:port][/db]`, `rediss://` for TLS (ioredis takes no URL here). */
export function connectionFromUrl(value: string) {
  const url = new URL(value)
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new Error(`REDIS_URL must start with redis:// or rediss:// (got ${url.protocol})`)
  const db = url.pathname.replace(/^\//, '')
  return {
    host: url.hostname || '127.0.0.1',
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: db ? Number(db) : 0,
    tls: url.protocol === 'rediss:' ? {} : undefined,
    // Several deployments (or test runs) can share one Redis without seeing each other's keys.
    keyPrefix: env.get('REDIS_KEY_PREFIX', 'modelgate:'),
    // A Redis restart must not surface as a flood of errors: retry with a capped back-off.
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
    maxRetriesPerRequest: 3,
  }
}

const redisConfig = defineConfig({
  connection: 'main',
  connections: { main: connectionFromUrl(redisUrl ?? 'redis://127.0.0.1:6379') },
})

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}
