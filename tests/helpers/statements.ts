/**
 * The SQL statements an action ran, seen through knex's `query-response` event on the
 * connection's clients (the builder path and the read pipeline's direct path both report it).
 */
import db from '@adonisjs/lucid/services/db'
import type { Knex } from 'knex'

export interface ObservedStatement {
  sql: string
  /** How many rows the database returned. */
  rows: number
}

/**
 * Runs `action`; every statement it ran and how many rows each returned. The system tables
 * (`mg_*`) are left out: the change watcher polls them in the background.
 */
export async function observeStatements(
  action: () => Promise<unknown>
): Promise<ObservedStatement[]> {
  const connection = db.connection()
  const clients = new Set<Knex>([connection.getWriteClient(), connection.getReadClient()])
  const seen: ObservedStatement[] = []
  const listener = (response: unknown, query: { sql: string }) => {
    if (/\bmg_/.test(query.sql)) return
    const rows = Array.isArray(response) ? response : ((response as any)?.rows ?? [])
    seen.push({ sql: query.sql, rows: rows.length })
  }
  for (const client of clients) client.on('query-response', listener)
  try {
    await action()
  } finally {
    for (const client of clients) client.removeListener('query-response', listener)
  }
  return seen
}
