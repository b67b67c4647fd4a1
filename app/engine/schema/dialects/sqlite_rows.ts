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

const MAX_STATEMENTS = 1000

function compile(names: string[]): Build | null {
  if (names.includes('__proto__')) return null
  const entries = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`)
  return new Function('v', `return { ${entries.join(', ')} }`) as Build
}

/**
 * `all(sql, values)` on a better-sqlite3 connection: statements prepared once per SQL text
 * (bounded: the cache starts over past 1000 texts, e.g. IN lists of many sizes), rows as above.
 */
export function sqliteRows(conn: { prepare(sql: string): Statement }) {
  const runners = new Map<string, Runner>()

  function runnerOf(sql: string): Runner {
    let runner = runners.get(sql)
    if (!runner) {
      const statement = conn.prepare(sql)
      const build = statement.reader ? compile(statement.columns().map((c) => c.name)) : null
      if (build) statement.raw(true)
      if (runners.size >= MAX_STATEMENTS) runners.clear()
      runners.set(sql, (runner = { statement, build }))
    }
    return runner
  }

  return (sql: string, values: unknown[]): Row[] => {
    const { statement, build } = runnerOf(sql)
    const rows = statement.all(values)
    if (!build) return rows as Row[]
    for (let i = 0; i < rows.length; i++) rows[i] = build(rows[i] as unknown[])
    return rows as Row[]
  }
}
