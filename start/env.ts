/*
|--------------------------------------------------------------------------
| Environment variables
|--------------------------------------------------------------------------
| Validated at boot. `npm start` / `npm test` write a .env with a fresh APP_KEY
| on a clone that has none (scripts/ensure_env.js).
*/
import { Env } from '@adonisjs/core/env'

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test'] as const),
  PORT: Env.schema.number.optional(),
  HOST: Env.schema.string.optional({ format: 'host' }),
  APP_KEY: Env.schema.string(),
  LOG_LEVEL: Env.schema.string.optional(),

  DB_CONNECTION: Env.schema.enum.optional(['sqlite', 'pg'] as const),
  SQLITE_FILE: Env.schema.string.optional(),
  DB_HOST: Env.schema.string.optional(),
  DB_PORT: Env.schema.number.optional(),
  DB_USER: Env.schema.string.optional(),
  DB_PASSWORD: Env.schema.string.optional(),
  DB_DATABASE: Env.schema.string.optional(),
  /** PostgreSQL: wait for a connection at most this long (503 after), and a statement timeout. */
  MODELGATE_DB_ACQUIRE_TIMEOUT_MS: Env.schema.number.optional(),
  DB_POOL_MAX: Env.schema.number.optional(),
  MODELGATE_DB_STATEMENT_TIMEOUT_MS: Env.schema.number.optional(),

  MODELGATE_DEMO: Env.schema.boolean.optional(),
  MODELGATE_AUTO_MIGRATE: Env.schema.boolean.optional(),
  MODELGATE_WATCH_INTERVAL_MS: Env.schema.number.optional(),
  /** Password of the `admin` user created on first start (else a generated one is logged once). */
  MODELGATE_ADMIN_PASSWORD: Env.schema.string.optional(),
  /** Operations (config/operations.ts, config/logger.ts): /metrics token, log format, access log. */
  MODELGATE_METRICS_TOKEN: Env.schema.string.optional(),
  LOG_FORMAT: Env.schema.enum.optional(['json', 'pretty'] as const),
  MODELGATE_ACCESS_LOG: Env.schema.boolean.optional(),
  MODELGATE_FAST_READS: Env.schema.boolean.optional(),

  /** Optional: sessions and rate limits in Redis (large deployments); unset: cookie + database. */
  REDIS_URL: Env.schema.string.optional(),
  /** Prefix of every Redis key (several deployments can share one Redis). */
  REDIS_KEY_PREFIX: Env.schema.string.optional(),
})
