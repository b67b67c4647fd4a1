/*
 * What the benchmark scripts share: waiting for the API server to answer /health, a
 * client-credentials token, and the import of a definition document into the scratch database.
 */
import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'

/** A numeric `--name=value` flag of the command line, or `fallback`. */
export const numberArg = (name, fallback) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)

/** The environment of the API server a benchmark starts (port `port`, no demo, quiet log). */
export const serverEnv = (port) => ({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  MODELGATE_DEMO: 'false',
  MODELGATE_ADMIN_PASSWORD: 'bench-admin-password-0123456789',
})

/** Resolves once `${base}/health` answers 200 (90 s at most: a loaded machine boots slowly). */
export async function waitForServer(base) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return
    } catch {}
    if (i > 900) throw new Error('server did not start')
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** An access token of a confidential client (client_secret_basic, client_credentials). */
export async function clientToken(base, clientId, secret) {
  const response = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: {
      'authorization': `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  const body = await response.json()
  if (!body.access_token) throw new Error(`no token for ${clientId}: ${response.status}`)
  return body.access_token
}

/** `node ace app:import` of `doc` (written to `file`) with the server's environment. */
export function importDefinition(doc, file, env) {
  writeFileSync(file, JSON.stringify(doc))
  const imported = spawnSync(process.execPath, ['ace.js', 'app:import', file], { env })
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stdout}${imported.stderr}`)
}

/**
 * What an API client of an application typically holds, as every benchmark imports it: REST
 * access plus full rights on the application's entities (entity and attribute policies are
 * evaluated per request), for the confidential client `bench` (client_credentials).
 */
export const benchAccess = (secret, accessTokenTimeToLive = '1h') => ({
  resourceRoles: [
    {
      code: 'bench-full',
      childRoles: ['rest-minimal'],
      entityPolicies: [{ entity: '*', actions: ['create', 'read', 'update', 'delete'] }],
      attributePolicies: [{ entity: '*', attributes: ['*'], action: 'MODIFY' }],
    },
  ],
  clients: [
    {
      clientId: 'bench',
      clientSecret: secret,
      authenticationMethods: ['client_secret_basic'],
      grantTypes: ['client_credentials'],
      accessTokenTimeToLive,
      resourceRoles: ['bench-full'],
    },
  ],
})

/** Connection settings of the benchmark PostgreSQL server (DB_* variables) for `database`. */
export const pgConfig = (database) => ({
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: Number(process.env.DB_PORT ?? 5432),
  user: process.env.DB_USER ?? 'postgres',
  password: process.env.DB_PASSWORD,
  database,
})

/**
 * Recreates the scratch database (PostgreSQL `pgDatabase`, or the SQLite file `sqliteFile` and
 * its WAL files) and points the server's environment `env` at it.
 */
export async function freshDatabase(env, { pg: usePg, pgDatabase, sqliteFile }) {
  if (!usePg) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqliteFile}${suffix}`, { force: true })
    Object.assign(env, { DB_CONNECTION: 'sqlite', SQLITE_FILE: sqliteFile })
    return
  }
  const { default: pg } = await import('pg')
  const admin = new pg.Client(pgConfig('postgres'))
  await admin.connect()
  const name = pgDatabase.replace(/"/g, '')
  await admin.query(`drop database if exists "${name}"`)
  await admin.query(`create database "${name}"`)
  await admin.end()
  const c = pgConfig(pgDatabase)
  Object.assign(env, {
    DB_CONNECTION: 'pg',
    DB_DATABASE: pgDatabase,
    DB_HOST: c.host,
    DB_PORT: String(c.port),
    DB_USER: c.user,
  })
}
