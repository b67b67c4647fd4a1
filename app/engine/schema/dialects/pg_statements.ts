/**
 * Server-side prepared statements on PostgreSQL for the statements the API runs again and
 * again (app/engine/schema/dialects/direct_reads.ts, direct_writes.ts).
 *
 * An unnamed statement is parsed, analysed and planned by the server on every execution; for a
 * row by id that is most of the server's work (pgbench on this project's tables: about 2.8x the
 * throughput with prepared statements). Like PgJDBC's `prepareThreshold` (what upstream Jmix
 * gets through its JDBC driver), a SQL text seen a second time gets a name: node-postgres
 * parses it once per connection and afterwards only binds and executes it.
 *
 * - Names belong to a generation, one per model (`generation` is the model object): when the
 *   model changes, a changed table may change a statement's result type under the same SQL
 *   text (PostgreSQL refuses to run such a prepared statement), so the new model's statements
 *   get new names.
 * - At most MAX_NAMED SQL texts per generation are named (and as many counted); past that,
 *   statements run unnamed. A connection prepares only the names it runs; an older model's
 *   statements stay prepared on a connection until the pool closes it (idle for 30 s).
 */
import pg from 'pg'

const PREPARE_AFTER = 2
const MAX_NAMED = 256

let generations = 0

class StatementNames {
  readonly #prefix = `mg${++generations}_`
  /** SQL text -> uses so far, or its name once it has one. */
  readonly #entries = new Map<string, number | string>()
  #named = 0

  name(sql: string): string | undefined {
    const entry = this.#entries.get(sql)
    if (typeof entry === 'string') return entry
    if (this.#named >= MAX_NAMED) return undefined
    const uses = (entry ?? 0) + 1
    if (uses < PREPARE_AFTER) {
      if (this.#entries.size < 2 * MAX_NAMED) this.#entries.set(sql, uses)
      return undefined
    }
    const name = `${this.#prefix}${++this.#named}`
    this.#entries.set(sql, name)
    return name
  }
}

const byGeneration = new WeakMap<object, StatementNames>()

/** The prepared-statement name of `sql` in `generation` (undefined: run it unnamed). */
export function statementName(generation: object | null, sql: string): string | undefined {
  if (!generation) return undefined
  let names = byGeneration.get(generation)
  if (!names) byGeneration.set(generation, (names = new StatementNames()))
  return names.name(sql)
}

/** Whether `name` is already prepared on the pg connection `conn` (node-postgres' own record). */
export const isPrepared = (conn: any, name: string | undefined) =>
  name !== undefined && conn.connection?.parsedStatements?.[name] !== undefined

/** A statement as the direct paths run it: its text, values and prepared-statement name. */
export interface PgStatement {
  name: string | undefined
  text: string
  values: readonly unknown[]
}

type QueryClass = new (text: string, values: unknown[], callback: Callback) => any
type Callback = (error: Error | null, result: any) => void

/**
 * Runs `statement` on `conn` as a `Query` (or a subclass). Built from its text, not from a
 * config object: node-postgres copies a config object property by property on every query,
 * which is measurable on the hot path. Resolves with pg's result (an array when the query has
 * several).
 */
export function submit<R = pg.QueryResult>(
  conn: pg.ClientBase,
  statement: PgStatement,
  Kind: QueryClass = pg.Query as unknown as QueryClass
): Promise<R> {
  return new Promise((resolve, reject) => {
    const query = new Kind(statement.text, statement.values as unknown[], (error, result) =>
      error ? reject(error) : resolve(result)
    )
    if (statement.name !== undefined) query.name = statement.name
    conn.query(query)
  })
}
