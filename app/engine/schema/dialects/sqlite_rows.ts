/**
 * Rows of the read pipeline's SQLite statements (direct_reads.ts), built with less work per row
 * than better-sqlite3's own: the same objects (a key per column, in the statement's order, the
 * driver's values), but the driver hands each row over as an array (`raw` mode) and one object
 * literal is made from it by a function compiled once per statement. better-sqlite3 sets the
 * keys of its row objects one at a time from C++; on a page of 20 items that costs about a
 * third of the statement (`bench:entities`, list: 43 µs -> 30 µs per statement in a
 * micro-benchmark on the bench file). A column list this cannot compile (a name that an object
 * literal would read as its prototype) keeps the driver's own row objects. The builder is kept
 * with the statement: the read pipeline names every column it selects, so a statement's column
 * names and their order are those of its SQL text, whatever the schema becomes.
 */
import { perStatementText } from './sqlite_statements.js'

type Row = Record<string, unknown>
type Build = (values: unknown[]) => Row

interface Statement {
  reader: boolean
  raw(toggle?: boolean): Statement
  columns(): { name: string }[]
  all(...bindings: unknown[]): unknown[]
}

/** A prepared statement and how its rows are made. */
interface Runner {
  statement: Statement
  build: Build | null
}

function compile(names: string[]): Build | null {
  if (names.includes('__proto__')) return null
  const entries = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`)
  return new Function('v', `return { ${entries.join(', ')} }`) as Build
}

/**
 * `all(sql, values)` on a better-sqlite3 connection: each statement prepared once per SQL text,
 * with its row builder (sqlite_statements.ts `perStatementText`, bounded), rows as above.
 */
export function sqliteRows(conn: { prepare(sql: string): Statement }) {
  const runnerOf = perStatementText((sql): Runner => {
    const statement = conn.prepare(sql)
    const build = statement.reader ? compile(statement.columns().map((c) => c.name)) : null
    if (build) statement.raw(true)
    return { statement, build }
  })

  return (sql: string, values: unknown[]): Row[] => {
    const { statement, build } = runnerOf(sql)
    const rows = statement.all(values)
    if (!build) return rows as Row[]
    for (let i = 0; i < rows.length; i++) rows[i] = build(rows[i] as unknown[])
    return rows as Row[]
  }
}
