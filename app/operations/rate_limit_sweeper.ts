/**
 * Deletes the limiter's database counters (`rate_limits`) that expired over an hour ago, once an
 * hour. rate-limiter-flexible has a sweep of its own (`clearExpiredByTimeout`), but after one
 * failed DELETE (a busy SQLite file, a table being reset) it stops for good and leaves the
 * rejection unhandled, which ends a Node process. This one logs the failure and tries again at
 * the next interval. With Redis (REDIS_URL) the counters expire in Redis and nothing is swept.
 */
import type { Database } from '@adonisjs/lucid/database'
import type { Logger } from '@adonisjs/core/logger'

export const RATE_LIMITS_TABLE = 'rate_limits'
const HOUR_MS = 3_600_000

/** Deletes counters that expired before `now - 1 h`; the number deleted, or null on failure. */
export async function sweepRateLimits(
  db: Database,
  logger: Pick<Logger, 'warn'>,
  now = Date.now()
): Promise<number | null> {
  try {
    const deleted = await db
      .from(RATE_LIMITS_TABLE)
      .where('expire', '<', now - HOUR_MS)
      .delete()
    return Array.isArray(deleted) ? Number(deleted[0] ?? 0) : Number(deleted)
  } catch (error) {
    logger.warn('expired rate-limit counters not swept (next try in an hour): %s', error.message)
    return null
  }
}

let timer: NodeJS.Timeout | null = null

/** Starts the hourly sweep (idempotent); it never keeps the process alive. */
export function startRateLimitSweeper(db: Database, logger: Pick<Logger, 'warn'>) {
  if (timer) return
  timer = setInterval(() => void sweepRateLimits(db, logger), HOUR_MS)
  timer.unref()
}

export function stopRateLimitSweeper() {
  if (timer) clearInterval(timer)
  timer = null
}
