/**
 * Test database helpers: every test file that changes the model starts from an empty database
 * (all tables dropped, system tables migrated), on whichever dialect the run uses.
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Engine } from '#engine/main'
import { migrate } from '#start/bootstrap'

export const dialect = () => (db.connection().dialect.name === 'postgres' ? 'pg' : 'sqlite')

export async function dropAllTables() {
  const client = db.connection()
  if (dialect() === 'pg') {
    await client.rawQuery('DROP SCHEMA public CASCADE')
    await client.rawQuery('CREATE SCHEMA public')
    return
  }
  await client.rawQuery('PRAGMA foreign_keys = OFF')
  const tables = await client.rawQuery(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`)
  for (const { name } of tables) await client.rawQuery(`DROP TABLE "${name}"`)
  await client.rawQuery('PRAGMA foreign_keys = ON')
}

export async function resetDatabase() {
  await dropAllTables()
  await migrate(app)
  const engine = await app.container.make(Engine)
  await engine.start()
  await engine.registry.refresh(db, true)
  await engine.properties.refresh(db.connection(), true)
  return engine
}
