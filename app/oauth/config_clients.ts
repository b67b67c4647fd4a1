/**
 * Clients declared with `svc.authserver.client.<name>.*` properties (file, environment, stored
 * settings), synced into oauth_clients at start: created or brought up to date with
 * managed_by='config' and config_name=<name>; configuration clients whose properties are gone
 * are deactivated (their tokens stop), and come back active when the properties return. The
 * secret is stored as its SHA-256 digest; `{noop}secret` (Spring's notation) is accepted, as is
 * `{sha256}<hex digest>`. All or nothing: with any problem, nothing is written.
 */
import db from '@adonisjs/lucid/services/db'
import OAuthClient from '#models/oauth_client'
import type { PropertyResolver } from '#settings/property_resolver'
import {
  checkRegistration,
  checkSecret,
  type ClientSettings,
  type PathOf,
  type Problem,
  type SecretInput,
} from './client_rules.js'
import { saveClient, setClientActive } from './clients.js'

export const CLIENT_PREFIX = 'svc.authserver.client.'
/** Shorter secrets are accepted from configuration (upstream templates use 10) with a warning. */
const RECOMMENDED_SECRET_LENGTH = 16

const PROPERTY_OF: Record<string, string> = {
  clientId: 'client-id',
  clientSecret: 'client-secret',
  clientSecretHash: 'client-secret',
  authenticationMethods: 'authentication-methods',
  grantTypes: 'grant-types',
  redirectUris: 'redirect-uris',
  requireProofKey: 'require-proof-key',
  accessTokenFormat: 'access-token-format',
  accessTokenTimeToLive: 'access-token-time-to-live',
  refreshTokenTimeToLive: 'refresh-token-time-to-live',
  resourceRoles: 'resource-roles',
  rowLevelRoles: 'row-level-roles',
}

export interface ConfigClient {
  name: string
  settings: ClientSettings
  secret: SecretInput
}

export interface ConfigSyncResult {
  created: string[]
  updated: string[]
  deactivated: string[]
  reactivated: string[]
  problems: Problem[]
  warnings: string[]
}

/** The `<name>`s that have at least one property set. */
export function configClientNames(properties: PropertyResolver): string[] {
  const names = properties.names(CLIENT_PREFIX).map((n) => {
    const rest = n.slice(CLIENT_PREFIX.length)
    return rest.slice(0, rest.indexOf('.'))
  })
  return [...new Set(names)].filter(Boolean).sort()
}

/** `{noop}s3cret` -> the secret; `{sha256}<hex>` -> a digest; any other `{id}` is a problem. */
function parseSecret(raw: string, path: string, out: Problem[]): SecretInput {
  if (raw === '') return {}
  const encoded = /^\{([^}]*)\}(.*)$/s.exec(raw)
  if (!encoded) return { clientSecret: raw }
  if (encoded[1] === 'noop') return { clientSecret: encoded[2] }
  if (encoded[1] === 'sha256') return { clientSecretHash: encoded[2].toLowerCase() }
  out.push({
    path,
    message: `unsupported secret encoding '{${encoded[1]}}' (use {noop}<secret> or {sha256}<hex digest>)`,
  })
  return {}
}

/** The console's own public client (authorization code + PKCE against this server). */
export const CONSOLE_CLIENT_ID = 'modelgate-console'

/**
 * The console client's redirect URIs: the console callback on `svc.server.base-url` (set it in
 * production) and on this server's loopback addresses (127.0.0.1 matches any port, RFC 8252).
 */
export function consoleRedirectUris(baseUrl: string, port: number): string[] {
  const uris = [`http://localhost:${port}/console/callback`, 'http://127.0.0.1/console/callback']
  if (baseUrl) uris.unshift(`${baseUrl.replace(/\/+$/, '')}/console/callback`)
  return [...new Set(uris)]
}

/**
 * The console client as a configuration client named `console`: seeded and kept up to date at
 * every start, never exported, not changeable by import. Properties
 * `svc.authserver.client.console.*` replace it.
 */
function consoleClient(properties: PropertyResolver, port: number): ConfigClient {
  const { settings } = checkRegistration(
    {
      clientId: CONSOLE_CLIENT_ID,
      authenticationMethods: ['none'],
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: consoleRedirectUris(properties.get<string>('svc.server.base-url') ?? '', port),
      requireProofKey: true,
      accessTokenFormat: 'reference',
      accessTokenTimeToLive: '5m',
      refreshTokenTimeToLive: '8h',
      resourceRoles: [],
      rowLevelRoles: [],
    },
    (field) => `console client ${field}`
  )
  return { name: 'console', settings, secret: {} }
}

/**
 * Reads and checks every configured client; problems name the property. With `consolePort`, the
 * console's built-in client is one of them (start-up; not in tests of the configuration).
 */
export function readConfigClients(properties: PropertyResolver, consolePort?: number) {
  const clients: ConfigClient[] = []
  const problems: Problem[] = []
  const warnings: string[] = []
  for (const name of configClientNames(properties)) {
    const property = (suffix: string) => `${CLIENT_PREFIX}${name}.${suffix}`
    const get = <T>(suffix: string) => properties.get(property(suffix)) as T
    const pathOf: PathOf = (field) => property(PROPERTY_OF[field])
    const clientId = get<string>('client-id').trim()
    if (!clientId) {
      problems.push({
        path: property('client-id'),
        message: `is required: the other ${CLIENT_PREFIX}${name}.* properties are set`,
      })
      continue
    }
    const out: Problem[] = []
    const secret = parseSecret(get<string>('client-secret'), property('client-secret'), out)
    const { settings, problems: registration } = checkRegistration(
      {
        clientId,
        authenticationMethods: get('authentication-methods'),
        grantTypes: get('grant-types'),
        redirectUris: get('redirect-uris'),
        requireProofKey: get('require-proof-key'),
        accessTokenFormat: get('access-token-format'),
        accessTokenTimeToLive: get('access-token-time-to-live'),
        refreshTokenTimeToLive: get('refresh-token-time-to-live'),
        resourceRoles: get('resource-roles'),
        rowLevelRoles: get('row-level-roles'),
      },
      pathOf
    )
    out.push(...registration)
    const isPublic = settings.authenticationMethods.includes('none')
    out.push(...checkSecret(secret, isPublic, pathOf, 1))
    const secretPath = property('client-secret')
    const noSecret = secret.clientSecret === undefined && secret.clientSecretHash === undefined
    if (!isPublic && noSecret && !out.some((p) => p.path === secretPath)) {
      out.push({
        path: secretPath,
        message: `is required (or ${property('authentication-methods')}=none for a public client)`,
      })
    }
    if (secret.clientSecret !== undefined && secret.clientSecret.length < RECOMMENDED_SECRET_LENGTH)
      warnings.push(
        `${property('client-secret')} is shorter than ${RECOMMENDED_SECRET_LENGTH} characters`
      )
    problems.push(...out)
    if (!out.length) clients.push({ name, settings, secret })
  }
  const declared = configClientNames(properties)
  if (consolePort !== undefined && !declared.includes('console'))
    clients.push(consoleClient(properties, consolePort))
  const seen = new Map<string, string>()
  for (const c of clients) {
    const other = seen.get(c.settings.clientId)
    if (other)
      problems.push({
        path: `${CLIENT_PREFIX}${c.name}.client-id`,
        message: `'${c.settings.clientId}' is also the client id of ${CLIENT_PREFIX}${other}`,
      })
    seen.set(c.settings.clientId, c.name)
  }
  return { clients, problems, warnings }
}

/** Brings oauth_clients in line with the configured clients (one transaction). */
export async function syncConfigClients(
  properties: PropertyResolver,
  consolePort?: number
): Promise<ConfigSyncResult> {
  const { clients, problems, warnings } = readConfigClients(properties, consolePort)
  const result: ConfigSyncResult = {
    created: [],
    updated: [],
    deactivated: [],
    reactivated: [],
    problems,
    warnings,
  }
  const rows = await OAuthClient.all()
  for (const c of clients) {
    const row = rows.find((r) => r.clientId === c.settings.clientId)
    if (row && row.managedBy !== 'config') {
      problems.push({
        path: `${CLIENT_PREFIX}${c.name}.client-id`,
        message: `client '${row.clientId}' is already registered in the database (import, client:create); remove it there or choose another id`,
      })
    }
  }
  if (problems.length) return result
  await db.transaction(async (trx) => {
    const configured = new Set(clients.map((c) => c.settings.clientId))
    for (const c of clients) {
      const outcome = await saveClient(c.settings, c.secret, {
        trx,
        managedBy: 'config',
        configName: c.name,
        asConfig: true,
      })
      if (outcome.created) result.created.push(c.settings.clientId)
      else if (outcome.changed.length) result.updated.push(c.settings.clientId)
      if (!outcome.created && !outcome.client.active) {
        await setClientActive(c.settings.clientId, true, { trx, asConfig: true })
        result.reactivated.push(c.settings.clientId)
      }
    }
    for (const row of rows) {
      if (row.managedBy !== 'config' || !row.active || configured.has(row.clientId)) continue
      await setClientActive(row.clientId, false, { trx, asConfig: true })
      result.deactivated.push(row.clientId)
    }
  })
  return result
}
