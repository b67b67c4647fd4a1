/**
 * SQL datasets: an administrator's one SELECT, run in a read-only transaction with a statement
 * timeout (PostgreSQL) and a row cap. `${alias}` and `${Band.field}` become bindings (an array
 * becomes `(?, ?, ...)`), never text. They bypass entity and row-level security, which is why a
 * caller needs the specific policy `reports.sql.enabled` to run a report that has one.
 */
import type { Database } from '@adonisjs/lucid/database'
import { SQL_PLACEHOLDER, type Placeholder } from './bind.js'
import { checkSql } from './sql_shape.js'
import { ReportError, type ReportValue } from './types.js'

export interface SqlRun {
  db: Database
  sql: string
  valueOf: (p: Placeholder) => unknown
  maxRows: number
  timeoutMs: number
}

function toValue(value: unknown): ReportValue {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return value.toString()
  if (Buffer.isBuffer(value)) return null
  if (typeof value === 'object') return JSON.stringify(value)
  return value as ReportValue
}

/** The statement with `?` bindings, and their values. */
export function bindSql(sql: string, valueOf: (p: Placeholder) => unknown) {
  const bindings: unknown[] = []
  const text = sql.replace(SQL_PLACEHOLDER, (_, name: string, field?: string) => {
    const value = valueOf(field ? { name, field } : { name })
    if (Array.isArray(value)) {
      if (!value.length) return '(NULL)'
      bindings.push(...value)
      return `(${value.map(() => '?').join(', ')})`
    }
    bindings.push(value === undefined ? null : value)
    return '?'
  })
  return { text: text.trim().replace(/;\s*$/, ''), bindings }
}

/** Rows of the statement (at most `maxRows`; one more is a 413). */
export async function runSql(run: SqlRun): Promise<Record<string, ReportValue>[]> {
  const problem = checkSql(run.sql)
  if (problem) throw new ReportError(`SQL dataset: ${problem}`)
  const { text, bindings } = bindSql(run.sql, run.valueOf)
  const capped = `select * from (${text}) mg_report_rows limit ${run.maxRows + 1}`
  const pg = run.db.connection().dialect.name === 'postgres'
  let rows: Record<string, unknown>[] = []
  const trx = await run.db.transaction()
  try {
    if (pg) {
      await trx.rawQuery('set transaction read only')
      // The shape check reads string literals as this setting (the default) makes PostgreSQL.
      await trx.rawQuery('set local standard_conforming_strings = on')
      await trx.rawQuery(`set local statement_timeout = ${Math.max(1, Math.floor(run.timeoutMs))}`)
      rows = (await trx.rawQuery(capped, bindings as any[])).rows
    } else {
      await trx.rawQuery('pragma query_only = 1')
      try {
        rows = await trx.rawQuery(capped, bindings as any[])
      } finally {
        await trx.rawQuery('pragma query_only = 0')
      }
    }
  } catch (error) {
    const e = error as { code?: string; message?: string }
    if (e.code === '57014') throw new ReportError('SQL dataset: the statement took too long', 503)
    throw new ReportError(`SQL dataset: ${e.message ?? String(error)}`)
  } finally {
    await trx.rollback()
  }
  if (rows.length > run.maxRows)
    throw new ReportError(
      `The report reads more than ${run.maxRows} rows (svc.reports.max-rows)`,
      413
    )
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toValue(v)])))
}
