/**
 * One line for an error that stops the server from starting: what failed and what to do, not a
 * stack (a port in use, a PostgreSQL server that is down or lacks the database, a bad .env).
 */
export function startupFailure(error: unknown): string {
  const e = error as { code?: string; message?: string; port?: number; address?: string }
  const env = process.env
  if (e?.code === 'EADDRINUSE')
    return `port ${e.port ?? env.PORT} on ${e.address ?? env.HOST} is already in use: stop the other process or set PORT`
  if (e?.code === '3D000') {
    const name = env.DB_DATABASE ?? 'modelgate'
    return `the PostgreSQL database "${name}" does not exist: create it with \`createdb ${name}\` (or set DB_DATABASE)`
  }
  if (e?.code === 'ECONNREFUSED' && env.DB_CONNECTION === 'pg')
    return `PostgreSQL is not reachable at ${env.DB_HOST ?? '127.0.0.1'}:${env.DB_PORT ?? 5432} (DB_HOST, DB_PORT)`
  if (e?.code === '28P01' || e?.code === '28000')
    return `PostgreSQL refused the credentials of ${env.DB_USER ?? 'postgres'} (DB_USER, DB_PASSWORD)`
  const message = String(e?.message ?? error).split('\n')[0]
  return message || 'unknown error'
}
