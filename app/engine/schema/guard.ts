/**
 * The data-loss guard: evaluates the risks the planner attached to operations against the data
 * that is in the database now. Refusals of kind `rows`, `values` and `truncate` can be overridden
 * with allowDataLoss; the others describe changes that cannot succeed at all.
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Operation, Risk } from './operations.js'

export interface Refusal {
  message: string
  overridable: boolean
  /** The table the risk is about and the rows (values) it affects (duplicates: 1 or more). */
  table?: string
  rows?: number
}

async function count(client: QueryClientContract, risk: Risk): Promise<number> {
  const q = client.from(risk.table)
  switch (risk.kind) {
    case 'rows':
    case 'needsValue':
      break
    case 'values':
      q.whereNotNull(risk.column)
      break
    case 'nulls':
      q.whereNull(risk.column)
      break
    case 'truncate': {
      // The column may not be text yet (int -> string(5)): PostgreSQL has no char_length(int),
      // so measure the value as the text it will become.
      const fn = client.dialect.name === 'postgres' ? 'char_length' : 'length'
      q.whereRaw(`${fn}(CAST(?? AS TEXT)) > ?`, [risk.column, risk.length])
      break
    }
    case 'duplicates': {
      const groups = client
        .from(risk.table)
        .select(risk.columns)
        .groupBy(risk.columns)
        .havingRaw('count(*) > 1')
      for (const c of risk.columns) groups.whereNotNull(c)
      if (risk.whereNull) groups.whereNull(risk.whereNull)
      const rows = await groups.limit(1)
      return rows.length
    }
  }
  const [row] = await q.count('* as total')
  return Number(row.total)
}

function refusal(risk: Risk, n: number): Refusal {
  switch (risk.kind) {
    case 'rows':
      return { message: `${risk.what} would delete ${n} row(s)`, overridable: true }
    case 'values':
      return { message: `${risk.what} would lose the values of ${n} row(s)`, overridable: true }
    case 'truncate':
      return {
        message: `${risk.what} would cut ${n} value(s) longer than ${risk.length}`,
        overridable: true,
      }
    case 'nulls':
      return {
        message: `${risk.what} is impossible: ${n} row(s) have no value`,
        overridable: false,
      }
    case 'needsValue':
      return {
        message: `${risk.what} is impossible: the table has ${n} row(s) without a value for it`,
        overridable: false,
      }
    case 'duplicates':
      return {
        message: `${risk.what} is impossible: the column(s) hold duplicate values`,
        overridable: false,
      }
  }
}

export async function checkDataLoss(
  client: QueryClientContract,
  operations: Operation[],
  existingTables: ReadonlySet<string>
): Promise<Refusal[]> {
  const refusals: Refusal[] = []
  for (const op of operations) {
    for (const risk of op.risks ?? []) {
      if (!existingTables.has(risk.table)) continue
      const n = await count(client, risk)
      if (n > 0) refusals.push({ ...refusal(risk, n), table: risk.table, rows: n })
    }
  }
  return refusals
}
