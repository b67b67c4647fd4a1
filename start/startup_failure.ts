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

/** Errors of a database that may come up shortly (down, restarting, still starting up). */
const TRANSIENT = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P03',
])

/**
 * Runs `connect` until it succeeds, retrying a database that is not reachable (README "Start,
 * stop and timeouts"): MODELGATE_DB_CONNECT_RETRIES retries (default 5), waiting 1, 2, 3, 4, 5 s
 * (about 15 s), one line per failed attempt; then the last error goes up and the server exits
 * non-zero with one line, for a supervisor to restart it. A missing database or refused
 * credentials are not retried: waiting does not fix them.
 */
export async function retryDatabaseConnect(
  connect: () => Promise<void>,
  log: (line: string) => void = (line) => process.stderr.write(`modelgate: ${line}\n`)
) {
  const raw = process.env.MODELGATE_DB_CONNECT_RETRIES
  const retries = raw === undefined || raw === '' ? 5 : Number(raw)
  if (!Number.isInteger(retries) || retries < 0)
    throw new Error(`MODELGATE_DB_CONNECT_RETRIES must be a whole number, got '${raw}'`)
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect()
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string }
      // pg's own connect timeout has no code, only this message.
      const transient = TRANSIENT.has(code ?? '') || /connection timeout/.test(message ?? '')
      if (attempt > retries || !transient) throw error
      const wait = Math.min(attempt, 5)
      log(
        `database not reachable (attempt ${attempt} of ${retries + 1}): ${startupFailure(error)}; retrying in ${wait} s`
      )
      await new Promise((resolve) => setTimeout(resolve, wait * 1000))
    }
  }
}
