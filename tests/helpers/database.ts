/**
 * Test database helpers: every test file that changes the model starts from an empty database
 * (all tables dropped, system tables migrated), on whichever dialect the run uses.
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Engine } from '#engine/main'
import { migrate } from '#start/bootstrap'
import { dropAllTables as wipe } from '#engine/schema/wipe'
import { clearPermissionCache } from '#security/main'
import { captureMigrated, restoreMigrated } from './migrated_state.js'

export const dialect = () => (db.connection().dialect.name === 'postgres' ? 'pg' : 'sqlite')

export async function dropAllTables() {
  await wipe(db.connection())
}

export async function resetDatabase() {
  const engine = await app.container.make(Engine)
  // The change watcher polls mg_versions: pause it while the system tables do not exist (its
  // polls would otherwise log 'refresh failed' warnings in the middle of the test output).
  await engine.stop()
  if (!(await restoreMigrated())) {
    await dropAllTables()
    await migrate(app)
    await captureMigrated()
  }
  await engine.start()
  // The version counters restart with the database: nothing cached under them may survive.
  clearPermissionCache()
  await engine.registry.refresh(db, true)
  await engine.properties.refresh(db.connection(), true)
  return engine
}

/**
 * The write pool's connections in use once it settles: the change watcher may hold one for a
 * moment (its poll after a NOTIFY); a leaked connection stays in use and is counted.
 */
export async function poolInUseSettled(): Promise<number> {
  const used = () => (db.connection().getWriteClient().client as any).pool.numUsed() as number
  for (let i = 0; i < 50 && used() > 0; i++) await new Promise((r) => setTimeout(r, 20))
  return used()
}
