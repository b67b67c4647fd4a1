/**
 * WEB_CONCURRENCY: how many server processes (README "All cores: workers"). Read from the
 * environment or, like the server's other settings, from .env, before AdonisJS loads it: the
 * cluster primary decides before any application code runs.
 */
import { existsSync, readFileSync } from 'node:fs'
import { parseEnv } from 'node:util'

export function webConcurrency(): number {
  let raw = process.env.WEB_CONCURRENCY
  const dotenv = new URL('../../.env', import.meta.url)
  if (raw === undefined && existsSync(dotenv))
    raw = (parseEnv(readFileSync(dotenv, 'utf8')) as Record<string, string>).WEB_CONCURRENCY
  if (raw === undefined || raw.trim() === '') return 1
  const count = Number(raw)
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`WEB_CONCURRENCY must be a whole number of at least 1, got '${raw}'`)
  return count
}
