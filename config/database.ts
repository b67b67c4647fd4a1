import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/lucid'
import { cachePreparedStatements } from '#engine/schema/dialects/sqlite_statements'

/*
 * One connection per dialect; only the active one (DB_CONNECTION, default sqlite) is opened.
 * SQLite runs in WAL mode with foreign keys enforced on every pooled connection, and
 * `synchronous = FULL`: a commit that has returned survives a power loss or OS crash, not only
 * an application crash (NORMAL would make commits about 6x cheaper here and lose that).
 */
const migrations = { naturalSort: true, paths: ['database/migrations'] }

/*
 * PostgreSQL unreachable or slow (catalogue FT5): a request waits at most this long for a pooled
 * connection or a new one (knex's default is 60 s), then fails with 503. A statement running
 * longer than MODELGATE_DB_STATEMENT_TIMEOUT_MS (default off) is cancelled by the server: 503
 * instead of requests piling up behind a lock.
 */
const acquireTimeout = env.get('MODELGATE_DB_ACQUIRE_TIMEOUT_MS') || 5000
/** PostgreSQL connections per server process (each worker of WEB_CONCURRENCY has its own pool). */
const poolMax = env.get('DB_POOL_MAX') || 10
const statementTimeout = env.get('MODELGATE_DB_STATEMENT_TIMEOUT_MS') || 0
/** node-postgres options Lucid's connection type does not list. */
const pgTimeouts: Record<string, number> = {
  connectionTimeoutMillis: acquireTimeout,
  ...(statementTimeout ? { statement_timeout: statementTimeout } : {}),
}

const dbConfig = defineConfig({
  connection: env.get('DB_CONNECTION', 'sqlite'),
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      connection: {
        filename: app.makePath(
          env.get('SQLITE_FILE', app.inTest ? 'tmp/test.sqlite3' : 'tmp/modelgate.sqlite3')
        ),
      },
      pool: {
        afterCreate: (conn: any, done: (err: Error | null, conn: any) => void) => {
          conn.pragma('journal_mode = WAL')
          conn.pragma('synchronous = FULL')
          conn.pragma('foreign_keys = ON')
          conn.pragma('busy_timeout = 5000')
          cachePreparedStatements(conn)
          done(null, conn)
        },
      },
      useNullAsDefault: true,
      migrations,
    },
    pg: {
      client: 'pg',
      connection: {
        host: env.get('DB_HOST', '127.0.0.1'),
        port: env.get('DB_PORT', 5432),
        user: env.get('DB_USER', 'postgres'),
        password: env.get('DB_PASSWORD', ''),
        database: env.get('DB_DATABASE', app.inTest ? 'modelgate_test' : 'modelgate'),
        ...pgTimeouts,
      },
      pool: { min: 0, max: poolMax, acquireTimeoutMillis: acquireTimeout },
      migrations,
    },
  },
})

export default dbConfig
