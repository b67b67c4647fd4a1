/**
 * Direct execution of the read pipeline's statements (app/engine/data/read/shaped.ts): compiled
 * SQL goes to the driver without Lucid's and knex's query runners, which cost more than the
 * database on the API's hot path.
 *
 * - SQLite: a connection of its own on the same file, `query_only` (it cannot write), prepared
 *   statements kept per SQL text, rows built by a function compiled per statement
 *   (sqlite_rows.ts). WAL mode: it sees every committed write and never waits for
 *   a write transaction holding the pool's single connection.
 * - PostgreSQL: a connection from knex's pool (an idle one taken at once: pool_lease.ts), a
 *   parameterised query (prepared once it repeats: pg_statements.ts), the same type parsers
 *   except dates and timestamps, read as text (pg_text_types.ts), rows built by a function
 *   compiled per column list (pg_rows.ts).
 *
 * Each statement is reported through knex's `query` and `query-response` events, as a builder
 * query is (statement counts in tests, query logging). Only reads outside a transaction come
 * here; a transaction's reads stay on the transaction's connection.
 */
import type { Knex } from 'knex'
import type { ConnectionContract } from '@adonisjs/lucid/types/database'
import { ShapeCache } from './statement_shapes.js'
import { sqliteRows } from './sqlite_rows.js'
import { statementName, submit } from './pg_statements.js'
import { ReadQuery } from './pg_rows.js'
import { giveBack, leaseConnection } from './pool_lease.js'

type Row = Record<string, unknown>

export interface DirectReader {
  /** The statement's rows; `sql` in the dialect's placeholder syntax (`?`, `$1`). */
  all(sql: string, bindings: readonly unknown[]): Promise<Row[]>
  /** SQL text per statement shape (owned by the read pipeline; cleared with the model). */
  readonly shapes: ShapeCache<string>
  /** The model the shapes were compiled for. */
  model: unknown
  close(): void
}

/** Reports a statement run outside knex's runner through knex's `query` events. */
export function report(
  knex: Knex,
  sql: string,
  bindings: readonly unknown[],
  response: unknown,
  method = 'select'
) {
  if (!knex.listenerCount('query') && !knex.listenerCount('query-response')) return
  const query = { method, sql, bindings, options: {} }
  knex.client.emit('query', query)
  knex.client.emit('query-response', response, query)
}

/** A value as knex's better-sqlite3 client binds it (dates as epoch ms, booleans as 0/1). */
export const sqliteValue = (value: unknown) =>
  value instanceof Date ? value.valueOf() : typeof value === 'boolean' ? Number(value) : value

function sqliteReader(knex: Knex): DirectReader | null {
  const client = knex.client as any
  const filename: string | undefined = client.connectionSettings?.filename
  if (!filename || filename === ':memory:' || filename.startsWith('file:')) return null
  const conn = new client.driver(filename, { fileMustExist: true })
  conn.pragma('busy_timeout = 5000')
  conn.pragma('query_only = ON')
  const run = sqliteRows(conn)
  return {
    shapes: new ShapeCache(),
    model: null,
    async all(sql, bindings) {
      const rows = run(sql, bindings.map(sqliteValue))
      report(knex, sql, bindings, rows)
      return rows
    },
    close: () => conn.close(),
  }
}

function pgReader(knex: Knex): DirectReader {
  const client = knex.client as any
  const reader: DirectReader = {
    shapes: new ShapeCache(),
    model: null,
    async all(sql, bindings) {
      const name = statementName(reader.model as object | null, sql)
      const conn = (await leaseConnection(client)) as any
      try {
        // Dates and timestamps come back as text, rows from compiled builders (pg_rows.ts).
        const statement = { name, text: sql, values: bindings }
        const { rows } = await submit<{ rows: Row[] }>(conn, statement, ReadQuery as any)
        report(knex, sql, bindings, rows)
        return rows
      } finally {
        // To a waiting direct read, or to knex's pool (pool_lease.ts).
        giveBack(client, conn)
      }
    },
    close: () => {},
  }
  return reader
}

const readers = new WeakMap<ConnectionContract, DirectReader | null>()

/**
 * The direct reader of a Lucid connection (created on first use; null: not supported or not
 * connected). Closed with the connection.
 */
export function directReader(connection: ConnectionContract): DirectReader | null {
  let reader = readers.get(connection)
  if (reader === undefined) {
    const knex = connection.readClient ?? connection.client
    if (!knex) return null
    const dialect = (knex.client as any).dialect
    try {
      reader =
        dialect === 'postgresql'
          ? pgReader(knex)
          : dialect === 'sqlite3'
            ? sqliteReader(knex)
            : null
    } catch {
      reader = null // e.g. the SQLite file cannot be opened a second time: the builder path stays
    }
    readers.set(connection, reader)
    connection.once('disconnect', () => {
      readers.delete(connection)
      reader?.close()
    })
  }
  return reader
}
