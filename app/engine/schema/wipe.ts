/**
 * Drops every table of the connected database (PostgreSQL: the whole public schema). Only for
 * test and benchmark databases: nothing in the server calls it.
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

export async function dropAllTables(client: QueryClientContract) {
  if (client.dialect.name === 'postgres') {
    await client.rawQuery('DROP SCHEMA public CASCADE')
    await client.rawQuery('CREATE SCHEMA public')
    return
  }
  await client.rawQuery('PRAGMA foreign_keys = OFF')
  const tables = await client.rawQuery(
    `select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
  )
  for (const { name } of tables)
    await client.rawQuery(`DROP TABLE "${String(name).replace(/"/g, '""')}"`)
  await client.rawQuery('PRAGMA foreign_keys = ON')
}
