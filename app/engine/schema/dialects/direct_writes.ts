/**
 * Write transactions without knex's transaction machinery (app/engine/data/write/main.ts).
 *
 * A knex transaction creates a knex instance of its own and runs every statement through
 * Lucid's and knex's query runners: on SQLite that costs several times the database's own work
 * for a one-row create. Here a PostgreSQL transaction is a connection taken from knex's pool,
 * BEGIN (sent with the first statement, in one round trip), the statements, COMMIT (ROLLBACK
 * on any error), and the connection back to the pool.
 * On SQLite the write transactions that arrive together share one commit on the pool's only
 * connection (so writes stay serialised with every other user of the pool), each in a savepoint
 * of its own: sqlite_group_commit.ts.
 *
 * The write pipeline keeps composing its statements with Lucid's query builders:
 * `client.from(table)` and `client.table(table)` give builders whose execution (awaiting them,
 * `first()`, `update()`, `delete()`, `insert()`) compiles the statement and runs it on the
 * transaction's connection. Results are what knex gives: rows for selects and `returning`,
 * the number of changed rows for updates and deletes. Every statement is reported through
 * knex's `query` and `query-response` events, as a builder query is.
 */
import type { Knex } from 'knex'
import pg from 'pg'
import { DatabaseQueryBuilder, InsertQueryBuilder } from '@adonisjs/lucid/database'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type {
  DatabaseQueryBuilderContract,
  InsertQueryBuilderContract,
} from '@adonisjs/lucid/types/querybuilder'
import { report, sqliteValue } from './direct_reads.js'
import { groupCommit } from './sqlite_group_commit.js'
import { ShapeCache, type StatementShape } from './statement_shapes.js'
import { isPrepared, statementName, submit, type PgStatement } from './pg_statements.js'

type Row = Record<string, unknown>

type Built = DatabaseQueryBuilderContract | InsertQueryBuilderContract

/** What the write pipeline needs of a transaction: builders that run on its connection. */
export interface WriteClient {
  from(table: string): DatabaseQueryBuilderContract
  table(table: string): InsertQueryBuilderContract
  /**
   * Runs the statement `build()` makes (rows, or the changed count of an update or delete).
   * With a shape its SQL is compiled once per shape key and reused with the shape's values;
   * the first time, the builder's own values must equal them, else that shape always builds.
   */
  run(build: () => Built, shape?: StatementShape | null): Promise<any>
  /** The rows of compiled read SQL (dialect placeholders) run in the transaction. */
  all(sql: string, bindings: readonly unknown[]): Promise<Row[]>
}

/** Values that bind as `?` in any statement (never `DEFAULT`, a raw fragment or a list). */
export const isPlainValue = (value: unknown) =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value)

/** Compiled write statements per knex client (dialect) and shape key. */
const shapesByClient = new WeakMap<object, ShapeCache<Compiled>>()

function shapesOf(knex: Knex) {
  let shapes = shapesByClient.get(knex.client)
  if (!shapes) shapesByClient.set(knex.client, (shapes = new ShapeCache()))
  return shapes
}

interface Compiled {
  method: string
  sql: string
  bindings: readonly unknown[]
  returning?: unknown
}

type Execute = (statement: Compiled) => Promise<unknown>

function compile(knexQuery: Knex.QueryBuilder): Compiled {
  const sql = knexQuery.toSQL()
  const native = sql.toNative()
  return {
    method: sql.method,
    sql: native.sql,
    bindings: native.bindings,
    returning: (sql as any).returning,
  }
}

class TxQuery extends DatabaseQueryBuilder {
  declare execute: Execute

  clone(): this {
    const copy = new TxQuery(this.knexQuery.clone(), this.client)
    copy.execute = this.execute
    this.applyQueryFlags(copy)
    return copy as this
  }

  compiled() {
    this.applyWhere()
    return compile(this.knexQuery)
  }

  async exec() {
    return this.execute(this.compiled())
  }
}

class TxInsert extends InsertQueryBuilder {
  declare execute: Execute

  compiled() {
    return compile(this.knexQuery)
  }

  async exec() {
    return this.execute(this.compiled())
  }
}

/** One statement on a better-sqlite3 connection (prepared statements cached by the pool). */
function sqliteExecute(conn: any): Execute {
  return async ({ method, sql, bindings, returning }) => {
    const statement = conn.prepare(sql)
    const values = bindings.map(sqliteValue)
    if (statement.reader) return statement.all(values) as Row[]
    const result = statement.run(values)
    if (method === 'insert') return returning ? [] : [result.lastInsertRowid]
    return result.changes
  }
}

/**
 * pg's query with `BEGIN` in front, in one write and one round trip: Parse/Bind/Execute of
 * `BEGIN`, then the statement's own messages and Sync (an error in the statement leaves the
 * transaction failed; the caller rolls back). The results are BEGIN's, then the statement's.
 */
const PgQuery = pg.Query as unknown as new (...args: any[]) => any

class BeginThen extends PgQuery {
  /** The extended protocol even without values: `prepare` below puts BEGIN in front. */
  requiresPreparation() {
    return true
  }

  prepare(connection: any) {
    connection.parse({ text: 'BEGIN' })
    connection.bind({})
    connection.execute({})
    super.prepare(connection)
  }
}

async function beginThen(conn: pg.PoolClient, statement: PgStatement) {
  const results = await submit<pg.QueryResult[]>(conn, statement, BeginThen)
  return results[results.length - 1]
}

/**
 * A transaction on a pg connection: BEGIN goes with its first statement, COMMIT or ROLLBACK
 * only if BEGIN was sent. Statements run again and again are prepared (pg_statements.ts;
 * `generation`: the model). BEGIN travels alone before a statement not yet prepared on this
 * connection: node-postgres would take BEGIN's parse for the statement's.
 */
function pgTransaction(conn: pg.PoolClient, generation: object | null) {
  let begun = false
  const run = async (statement: PgStatement) => {
    if (begun) return submit(conn, statement)
    begun = true
    if (statement.name === undefined || isPrepared(conn, statement.name))
      return beginThen(conn, statement)
    await conn.query('BEGIN')
    return submit(conn, statement)
  }
  const execute: Execute = async ({ method, sql, bindings, returning }) => {
    const name = statementName(generation, sql)
    const result = await run({ name, text: sql, values: bindings })
    if (method === 'select' || method === 'first' || returning) return result.rows as Row[]
    if (method === 'update' || method === 'del') return result.rowCount as number
    return result
  }
  return {
    execute,
    commit: async () => void (begun && (await conn.query('COMMIT'))),
    rollback: async () => void (begun && (await conn.query('ROLLBACK'))),
  }
}

function reporting(knex: Knex, execute: Execute): Execute {
  return async (statement) => {
    const result = await execute(statement)
    report(knex, statement.sql, statement.bindings, result, statement.method)
    return result
  }
}

/** The write client of one transaction on `conn`. */
function writeClient(client: QueryClientContract, knex: Knex, execute: Execute): WriteClient {
  return {
    from(table) {
      const query = new TxQuery(knex.queryBuilder(), client)
      query.execute = execute
      return query.from(table) as unknown as DatabaseQueryBuilderContract
    },
    table(table) {
      const query = new TxInsert(knex.queryBuilder(), client)
      query.execute = execute
      return query.table(table) as unknown as InsertQueryBuilderContract
    },
    async run(build, shape) {
      if (!shape) return build()
      const shapes = shapesOf(knex)
      const known = shapes.get(shape.key)
      if (known === null) return build()
      if (known) return execute({ ...known, bindings: shape.bindings })
      const compiled = (build() as unknown as TxQuery | TxInsert).compiled()
      shapes.learn(shape, compiled, compiled.bindings)
      return execute(compiled)
    },
    all(sql, bindings) {
      return execute({ method: 'select', sql, bindings }) as Promise<Row[]>
    },
  }
}

/**
 * Runs `work` in one transaction: committed when `work` resolves, rolled back when it throws
 * (the error is rethrown). SQLite: a savepoint in the current group commit
 * (sqlite_group_commit.ts). PostgreSQL: a transaction on a connection of the pool.
 */
export async function directTransaction<T>(
  client: QueryClientContract,
  work: (trx: WriteClient) => Promise<T>,
  generation: object | null = null
): Promise<T> {
  const knex = client.getWriteClient()
  const knexClient = knex.client as any
  if (knexClient.dialect === 'sqlite3') {
    return groupCommit(knexClient, (conn) =>
      work(writeClient(client, knex, reporting(knex, sqliteExecute(conn))))
    )
  }
  const conn = await knexClient.acquireConnection()
  const transaction = pgTransaction(conn, generation)
  try {
    const result = await work(writeClient(client, knex, reporting(knex, transaction.execute)))
    await transaction.commit()
    return result
  } catch (error) {
    try {
      await transaction.rollback()
    } catch {
      // The connection is gone: the pool's validation disposes of it.
    }
    throw error
  } finally {
    await knexClient.releaseConnection(conn)
  }
}
