/**
 * What the server does before it listens: migrate the system tables, load the model, create the
 * built-in users (`admin`, `anonymous`) on first start, sync the OAuth clients declared by
 * `svc.authserver.client.<name>.*` properties, and seed the demo application into an empty model
 * (MODELGATE_DEMO=false turns that off).
 */
import type { ApplicationService } from '@adonisjs/core/types'
import type { Logger } from '@adonisjs/core/logger'
import type { Engine } from '#engine/engine'
import { ensureBuiltInUsers } from '#oauth/accounts'
import { syncConfigClients } from '#oauth/config_clients'
import { UnconstrainedDataManager } from '#engine/data/data_manager'
import { Readable } from 'node:stream'
import { importDemoData, type SaveFile } from '#database/demo/bookstore_data'
import { fileStorage } from '#files/storages'
import { storeFile } from '#files/upload'
import type { ClientSubject } from '#security/subject'
import { definitions } from '#definition/main'
import { retryDatabaseConnect } from '#start/startup_failure'
import { startRateLimitSweeper } from '#operations/rate_limit_sweeper'
import { redisUrl } from '#config/redis'

export const DEMO_FILE = 'database/demo/bookstore.json'

/** The PostgreSQL advisory lock key of the system-table migrations (any constant). */
const MIGRATION_LOCK = 7_361_024

/**
 * Applies pending migrations of the system tables. On PostgreSQL, instances starting together
 * take turns through a session advisory lock held on ONE pooled connection for the whole run:
 * Lucid's own lock takes and releases its lock with two statements that the pool may send on
 * two different connections (the release then fails, and the lock stays held by the first).
 */
export async function migrate(app: ApplicationService) {
  const { MigrationRunner } = await import('@adonisjs/lucid/migration')
  const db = await app.container.make('lucid.db')
  const run = async () => {
    const runner = new MigrationRunner(db, app, { direction: 'up', disableLocks: true })
    await runner.run()
    if (runner.error) throw runner.error
  }
  const client = db.connection()
  if (client.dialect.name !== 'postgres') return run()
  const knex = client.getWriteClient().client as any
  const connection = await knex.acquireConnection()
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      await run()
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } finally {
    await knex.releaseConnection(connection)
  }
}

/** Syncs the property-declared OAuth clients; a configuration problem stops the start. */
export async function syncClientsFromProperties(
  engine: Engine,
  logger: Logger,
  consolePort?: number
) {
  // A second attempt covers instances starting together (the other one inserted a row first).
  const result = await syncConfigClients(engine.properties, consolePort).catch(() =>
    syncConfigClients(engine.properties, consolePort)
  )
  for (const warning of result.warnings) logger.warn('OAuth client configuration: %s', warning)
  if (result.problems.length) {
    const lines = result.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')
    throw new Error(`invalid OAuth client configuration, nothing was synced:\n${lines}`)
  }
  for (const [what, ids] of Object.entries(result)) {
    if (what !== 'problems' && what !== 'warnings' && ids.length)
      logger.info('OAuth clients from configuration %s: %s', what, ids.join(', '))
  }
  return result
}

/**
 * PostgreSQL reachable with the configured database and credentials? Asked with one plain
 * client before the pool's first use, so that a missing database is one clear line
 * (start/startup_failure.ts), not the pool's warnings with their stacks.
 */
async function checkDatabase(app: ApplicationService) {
  const db = await app.container.make('lucid.db')
  if (db.connection().dialect.name !== 'postgres') return
  const { default: pg } = await import('pg')
  const config = (db.manager.get(db.primaryConnectionName)?.config as any)?.connection
  // A server that is down is retried a few times (one line each) before the start fails.
  await retryDatabaseConnect(async () => {
    const client = new pg.Client({ ...config, connectionTimeoutMillis: 3000 })
    try {
      await client.connect()
    } finally {
      await client.end().catch(() => {})
    }
  })
}

export async function bootstrapServer(
  app: ApplicationService,
  engine: Engine,
  options: { migrate: boolean; demo: boolean }
) {
  const logger = await app.container.make('logger')
  await checkDatabase(app)
  if (options.migrate) await migrate(app)
  await engine.start()
  if (!redisUrl) startRateLimitSweeper(engine.db, logger)
  const env = (await import('#start/env')).default
  await ensureBuiltInUsers({
    adminPassword: env.get('MODELGATE_ADMIN_PASSWORD'),
    log: (message) => logger.warn(message),
    info: (message) => logger.info(message),
  })
  // The console's public client is seeded with the others (app/oauth/config_clients.ts).
  await syncClientsFromProperties(engine, logger, env.get('PORT') ?? 8080)
  if (options.demo && engine.model.entities.size === 0 && engine.model.version === 0) {
    logger.info('empty model: importing the demo application from %s', DEMO_FILE)
    const result = await definitions(engine).importFile(app.makePath(DEMO_FILE), {
      source: 'demo',
      author: { kind: 'system', name: 'demo' },
    })
    if (result.status !== 'applied') {
      throw new Error(
        `demo import failed: ${JSON.stringify(result.problems.concat(result.refusals as any))}`
      )
    }
    const rows = await importDemoData(
      new UnconstrainedDataManager({
        db: engine.db,
        model: engine.model,
        subject: DEMO_SUBJECT,
        maxFetchSize: 10000,
        maxBulkSize: 10000,
        securityTokens: false,
        caption: (key) => key,
      }),
      demoFileSaver(engine)
    )
    logger.info(
      'demo application imported (model version %d, %d sample rows)',
      result.version,
      rows
    )
    const secret = result.secrets?.find((s) => s.clientId === DEMO_CLIENT)?.secret
    if (secret) logger.warn(firstTokenBanner(secret, env.get('PORT') ?? 8080))
  }
}

/** Stores a demo file in the default file storage (as an upload would). */
function demoFileSaver(engine: Engine): SaveFile {
  const name = String(engine.properties.get('svc.core.default-file-storage'))
  return async (fileName, content) => {
    const storage = fileStorage(name)
    if (!storage) throw new Error(`demo files: no file storage '${name}'`)
    const stored = await storeFile(
      storage,
      fileName,
      Readable.from([Buffer.from(content)]),
      1 << 20
    )
    return stored.fileRef
  }
}

/** The demo's read-only client (database/demo/bookstore.json). */
export const DEMO_CLIENT = 'bookstore-demo'

/** Who the sample rows are written as (audit columns: createdBy `demo`). */
const DEMO_SUBJECT: ClientSubject = {
  kind: 'client',
  clientId: 'demo',
  resourceRoles: [],
  rowLevelRoles: [],
  tokenId: '',
}

/** Printed once, at the demo's import: the demo client's secret and the first two requests. */
export function firstTokenBanner(secret: string, port: number) {
  const base = `http://localhost:${port}`
  return [
    '',
    '==================================================================',
    ` Demo client '${DEMO_CLIENT}' (reads every entity), generated secret:`,
    `     ${secret}`,
    ' It is shown this once. Get a token, then read the sample books:',
    `   curl -s -u ${DEMO_CLIENT}:${secret} -d grant_type=client_credentials ${base}/oauth2/token`,
    `   curl -s -H "Authorization: Bearer <access_token>" ${base}/rest/entities/bookstore_Book`,
    ' A client of your own: node ace client:create <id> --resource-roles rest-minimal,<role>',
    '==================================================================',
  ].join('\n')
}
