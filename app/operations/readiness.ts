/**
 * Readiness of this instance (README "Operations"): the database answers, every migration file
 * of the project is applied, the model is loaded, and the instance is not draining (a SIGTERM
 * was received: the load balancer should stop sending it requests while in-flight ones finish).
 */
import { readdirSync } from 'node:fs'
import type { Database } from '@adonisjs/lucid/database'

let draining = false

/** Called once the process is asked to stop: /health/ready answers 503 from then on. */
export function startDraining() {
  draining = true
}

export interface Readiness {
  ready: boolean
  checks: { database: string; migrations: string; model: string; draining: boolean }
}

/** The migration names the project ships (`database/migrations/<file>` without extension). */
function migrationNames(directory: string): string[] {
  return readdirSync(directory)
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => `database/migrations/${f.replace(/\.(ts|js)$/, '')}`)
}

export async function readiness(
  db: Database,
  migrationsDirectory: string,
  modelLoaded: boolean
): Promise<Readiness> {
  const checks = {
    database: 'ok',
    migrations: 'ok',
    model: modelLoaded ? 'ok' : 'not loaded',
    draining,
  }
  try {
    const applied = new Set(
      (await db.connection().from('adonis_schema').select('name')).map((r: any) => r.name)
    )
    const pending = migrationNames(migrationsDirectory).filter((name) => !applied.has(name))
    if (pending.length) checks.migrations = `${pending.length} pending`
  } catch (error) {
    checks.database = `unreachable: ${(error as Error).message.split('\n')[0]}`
    checks.migrations = 'unknown'
  }
  const ready =
    checks.database === 'ok' && checks.migrations === 'ok' && checks.model === 'ok' && !draining
  return { ready, checks }
}
