import { relative } from 'node:path'
import type { ApplicationService } from '@adonisjs/core/types'

/**
 * Which database a command works on, as one line on standard error (standard output may carry
 * a document): `database: sqlite tmp/modelgate.sqlite3` or `database: pg 127.0.0.1:5432/modelgate`.
 * A command run without the server's DB_* variables otherwise writes silently into the SQLite
 * file while the server runs on PostgreSQL.
 */
export async function describeDatabase(app: ApplicationService): Promise<string> {
  const db = await app.container.make('lucid.db')
  const config = db.manager.get(db.primaryConnectionName)?.config as any
  const connection = config?.connection ?? {}
  if (db.connection().dialect.name === 'postgres')
    return `pg ${connection.host}:${connection.port}/${connection.database}`
  return `sqlite ${relative(app.makePath(), String(connection.filename))}`
}

export async function announceDatabase(app: ApplicationService) {
  process.stderr.write(`database: ${await describeDatabase(app)}\n`)
}
