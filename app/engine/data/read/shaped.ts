/**
 * The read pipeline's statements run directly on the driver outside transactions
 * (app/engine/schema/dialects/direct_reads.ts): the query builder compiles them, Lucid's and
 * knex's query runners are skipped. The hot ones - a row by id, a page with or without a
 * filter, a relation batch - have a SQL text that depends only on their shape (table, columns,
 * order, paging clauses, IN-list length, the filter's structure: shapes.ts), never on the
 * values: their SQL is compiled once per shape and reused with the values of each call.
 *
 * Shapes are safe by construction:
 * - the caller builds the shape key only where nothing else shapes the SQL (no row-level rule
 *   on the entity or on an entity a filter path passes), and passes the values in statement
 *   order;
 * - on first use the builder's own bindings must equal those values, else the shape is never
 *   shortcut (it runs through the builder every time);
 * - the shapes are dropped whenever the model changes; on any error of the direct path (e.g. a
 *   table dropped since), the builder runs the statement instead.
 *
 * The response of a create or update is read in the write transaction (`ctx.transaction`,
 * app/engine/data/write/main.ts): the same compiled SQL runs on the transaction's connection.
 */
import type { Database } from '@adonisjs/lucid/database'
import { directReader, type DirectReader } from '../../schema/dialects/direct_reads.js'
import type { StatementShape } from '../../schema/dialects/statement_shapes.js'
import type { DataContext } from '../data_manager.js'
import type { Builder } from './filter_sql.js'

type Row = Record<string, unknown>
export type Binding = string | number

function readerOf(ctx: DataContext): DirectReader | null {
  const db = ctx.db as Database & { isTransaction?: boolean }
  if (db.isTransaction || !db.manager) return null
  const node = db.manager.get(db.primaryConnectionName)
  if (!node?.connection) return null
  const reader = directReader(node.connection)
  if (reader && reader.model !== ctx.model) {
    reader.shapes.clear()
    reader.model = ctx.model
  }
  return reader
}

/** Values the direct path binds as the builder would (no dates, booleans or buffers). */
export const isBinding = (value: unknown): value is Binding =>
  typeof value === 'string' || typeof value === 'number'

/** A statement whose SQL depends only on `key`, with its values in statement order. */
export interface Shape extends StatementShape {
  /** Ids and paging (strings, numbers); a filter's values may also be booleans. */
  bindings: (Binding | boolean)[]
}

/**
 * The rows of the statement `build()` makes. Outside a transaction the statement runs directly
 * on the driver: its SQL taken from the shape cache (`shape` given and seen before) or compiled
 * by the builder. Any failure of the direct path runs the builder's query instead (it throws
 * the driver's error as the rest of the pipeline expects it).
 */
export async function readRows(ctx: DataContext, build: () => Builder, shape?: Shape | null) {
  const reader = readerOf(ctx)
  const transaction = ctx.transaction
  if (!reader && !transaction) return (await build()) as Row[]
  let sql = shape ? reader?.shapes.get(shape.key) : undefined
  let bindings: readonly unknown[] | undefined = shape?.bindings
  let query: Builder | undefined
  if (sql === null && !transaction) return (await build()) as Row[]
  if (!sql) {
    query = build()
    const native = (query as any).toSQL().toNative()
    if (shape && sql === undefined) reader?.shapes.learn(shape, native.sql, native.bindings)
    sql = native.sql as string
    bindings = native.bindings
  }
  // In a write transaction its error is the answer (the transaction is rolled back).
  if (transaction) return transaction.all(sql!, bindings!)
  try {
    return await reader!.all(sql!, bindings!)
  } catch {
    if (shape) reader!.shapes.forget(shape.key)
    return (await (query ?? build())) as Row[]
  }
}
