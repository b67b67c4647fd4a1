/**
 * SQLite keeps temporal values as text and compares them as text, so every value of a column
 * must be in the one canonical form the write pipeline and the filters produce
 * (query/values/temporal.ts): `yyyy-MM-dd HH:mm:ss[.f]` for `dateTime` (fraction without
 * trailing zeros, at most 6 digits), `yyyy-MM-ddTHH:mm:ss.SSSZ` for `offsetDateTime`.
 * PostgreSQL has typed columns and needs none of this.
 *
 * - `sqliteTemporalCopy`: the copy expression of a table rebuild that turns a `date` or
 *   `dateTime` column into a wider temporal type (plain copying kept `2024-01-01` in a
 *   `dateTime` column).
 * - `normalizeSqliteDateTimes`: rewrites values stored by earlier versions (the fraction as the
 *   client sent it: `.000`, `.50`, nine digits; a date alone or a `T` left by a conversion);
 *   run once by a migration (database/migrations/*_normalize_local_date_times.ts).
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { columnNameFor } from '../metadata/naming.js'
import { dbBoolean } from '#changes/db_values'
import type { ColumnType } from './physical.js'

const q = (name: string) => `"${name.replace(/"/g, '""')}"`
const DAY = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'

/** SQL copying `src` into a wider temporal column, or undefined when a plain copy is right. */
export function sqliteTemporalCopy(
  from: ColumnType['kind'],
  to: ColumnType['kind'],
  src: string
): string | undefined {
  if (from === 'date' && to === 'dateTime') return `${src} || ' 00:00:00'`
  if ((from === 'date' || from === 'dateTime') && to === 'offsetDateTime') {
    return `strftime('%Y-%m-%dT%H:%M:%fZ', ${src})`
  }
  return undefined
}

/** The statements bringing one `dateTime` column's stored text into the canonical form. */
export function dateTimeNormalization(table: string, column: string): string[] {
  const [t, c] = [q(table), q(column)]
  return [
    `UPDATE ${t} SET ${c} = substr(${c}, 1, 10) || ' ' || substr(${c}, 12) WHERE ${c} GLOB '${DAY}T*'`,
    `UPDATE ${t} SET ${c} = ${c} || ' 00:00:00' WHERE ${c} GLOB '${DAY}'`,
    `UPDATE ${t} SET ${c} = rtrim(rtrim(substr(${c}, 1, 26), '0'), '.') ` +
      `WHERE ${c} GLOB '${DAY} [0-9][0-9]:[0-9][0-9]:[0-9][0-9].*' ` +
      `AND (${c} GLOB '*0' OR length(${c}) > 26)`,
  ]
}

/**
 * The `dateTime` columns of the stored model, read from the system rows themselves (a migration
 * must not depend on the model code of later versions).
 */
export async function storedDateTimeColumns(client: QueryClientContract) {
  const rows = await client
    .from('mg_attributes as a')
    .join('mg_entities as e', 'e.id', 'a.entity_id')
    .where('a.type', 'dateTime')
    .select('e.table_name', 'a.column_name', 'a.name', 'a.transient')
  return rows
    .filter((r) => !dbBoolean(r.transient))
    .map((r) => ({ table: String(r.table_name), column: r.column_name ?? columnNameFor(r.name) }))
}

/** Rewrites the given `dateTime` columns on SQLite; returns the number of rows changed. */
export async function normalizeSqliteDateTimes(
  client: QueryClientContract,
  columns: { table: string; column: string }[]
): Promise<number> {
  if (client.dialect.name === 'postgres') return 0
  let changed = 0
  for (const { table, column } of columns) {
    for (const sql of dateTimeNormalization(table, column)) {
      const result = await client.rawQuery(sql)
      changed += Number(result?.changes ?? 0)
    }
  }
  return changed
}
