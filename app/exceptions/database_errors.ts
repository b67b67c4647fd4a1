/**
 * Failures of the database itself (as opposed to a bad request or a bug): the server cannot
 * reach it, lost its connection, or a statement ran out of time. They are passing conditions
 * that a retry fixes, so the client gets 503 with the documented error body (catalogue FT5),
 * never a 500 or a hanging request. Write transactions in flight are rolled back by the
 * database when their connection dies: nothing half-written.
 */
export type DatabaseFailure = 'unavailable' | 'timeout' | 'store'

/** Socket errors of the driver's connection to the database. */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * PostgreSQL SQLSTATEs: 08xxx connection exceptions; 57P01-57P03 the server shutting down,
 * crashed or starting (`pg_terminate_backend` is 57P01); 53300 too many connections.
 */
const unavailableState = (code: string) =>
  /^08/.test(code) || /^57P0[1-3]$/.test(code) || code === '53300'

/** 57014: statement_timeout (or a cancel); 55P03: lock_timeout. */
const TIMEOUT_STATES = new Set(['57014', '55P03'])

/** node-postgres reports a connection that died under a query without a code. */
const LOST_CONNECTION =
  /Connection terminated|connection ended unexpectedly|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect/i

export function databaseFailure(error: unknown, depth = 0): DatabaseFailure | null {
  if (!error || typeof error !== 'object' || depth > 3) return null
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown }
  const code = String(e.code ?? '')
  // ioredis gave up on a command after its retries (REDIS_URL, config/redis.ts): the store of
  // login sessions and rate limits is down; requests with a bearer token do not need it.
  if (e.name === 'MaxRetriesPerRequestError') return 'store'
  // knex's pool waited its acquire timeout for a connection (none could be made, or all busy).
  if (e.name === 'KnexTimeoutError') return 'unavailable'
  if (NETWORK.has(code) || unavailableState(code)) return 'unavailable'
  if (TIMEOUT_STATES.has(code)) return 'timeout'
  // SQLite shared by several processes (WEB_CONCURRENCY): the file stayed locked by another
  // one past busy_timeout, or a read transaction could not become a write one. Nothing of the
  // request was stored; entity writes map it the same way (app/engine/data/write).
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return 'timeout'
  if (!code && LOST_CONNECTION.test(String(e.message ?? ''))) return 'unavailable'
  return e.cause && e.cause !== error ? databaseFailure(e.cause, depth + 1) : null
}

/** The 503 body of a database failure. */
export function databaseFailureBody(failure: DatabaseFailure) {
  if (failure === 'store')
    return {
      error: 'Session store unavailable',
      details:
        'The store of login sessions and rate limits (Redis) cannot be reached; the request was not carried out. Try again shortly.',
    }
  return failure === 'timeout'
    ? {
        error: 'Database busy',
        details: 'The database did not answer in time; the request was cancelled. Try again.',
      }
    : {
        error: 'Database unavailable',
        details:
          'The database cannot be reached at the moment; the request was not carried out. Try again shortly.',
      }
}

/**
 * Errors of SQL built from a model snapshot that a model change (DDL) has just overtaken: a
 * renamed or dropped column or table, or a PostgreSQL prepared statement whose result columns
 * changed. Only a race when the model changed around the request (see `schemaRace`).
 */
export function staleSchemaError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown }
  const code = String(e?.code ?? '')
  const message = String(e?.message ?? '')
  if (code === '42703' || code === '42P01') return true
  if (code === '0A000' && /cached plan must not change result type/.test(message)) return true
  return code.startsWith('SQLITE_ERROR') && /no such (column|table)/.test(message)
}

/** How long after this instance loaded a new model a stale-schema error counts as a race. */
export const SCHEMA_RACE_WINDOW_MS = 2000

export const schemaRaceBody = {
  error: 'Model changed',
  details: 'The data model changed while the request ran; nothing was changed. Try again.',
}
