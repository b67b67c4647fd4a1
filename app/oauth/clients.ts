/**
 * Registered OAuth clients: create, update, rotate the secret, deactivate, delete. Secrets are
 * high-entropy random strings shown once and stored as SHA-256 digests. Whatever can let an
 * issued token outlive a decision (deactivation, deletion, a new secret) sets
 * `tokens_valid_after`, bumps the 'security' version (every instance drops its cached token
 * verifications) and clears this instance's cache when the transaction commits.
 *
 * Every function takes an optional transaction: the definition import writes clients in the same
 * transaction as the model and settings.
 */
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import OAuthClient from '#models/oauth_client'
import { bumpVersion } from '#changes/versions'
import { digest, formatDuration, randomToken } from './secrets.js'
import { clearVerificationCache } from './token_verifier.js'
import { isLive, type TokenRow } from './token_store.js'
import {
  checkRegistration,
  checkSecret,
  type ClientRegistration,
  type ClientSettings,
  type PathOf,
  type Problem,
  type SecretInput,
} from './client_rules.js'

export type ClientInput = ClientRegistration & SecretInput

/** A registration that cannot be saved; `problems` carry paths in the caller's terms. */
export class ClientRegistrationError extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map((p) => `${p.path}: ${p.message}`).join('; '))
  }
}

export interface SaveOutcome {
  client: OAuthClient
  created: boolean
  /** Changed fields ('secret' included); empty when the row already matched. */
  changed: string[]
  /** A generated secret: shown to the caller once, never stored in clear. */
  generatedSecret?: string
}

export interface SaveOptions {
  trx?: TransactionClientContract
  managedBy?: 'database' | 'config'
  configName?: string | null
  /** Whether a configuration-managed client may be changed (only the property sync may). */
  asConfig?: boolean
}

const SETTING_FIELDS: (keyof ClientSettings)[] = [
  'authenticationMethods',
  'grantTypes',
  'redirectUris',
  'requireProofKey',
  'accessTokenFormat',
  'accessTokenTtl',
  'refreshTokenTtl',
  'resourceRoles',
  'rowLevelRoles',
]

const fieldPaths: PathOf = (field, index) => (index === undefined ? field : `${field}[${index}]`)

export function run<T>(
  trx: TransactionClientContract | undefined,
  work: (trx: TransactionClientContract) => Promise<T>
): Promise<T> {
  return trx ? work(trx) : db.transaction(work)
}

/**
 * Tokens verified before this change must be checked again: bump the security version (other
 * instances) and clear this instance's cache once the change is visible (after commit).
 */
export async function securityChanged(trx: TransactionClientContract) {
  trx.after('commit', () => clearVerificationCache())
  await bumpVersion(trx, 'security')
}

export function findClient(clientId: string, trx?: TransactionClientContract) {
  return OAuthClient.query({ client: trx ?? db.connection() })
    .where('client_id', clientId)
    .first()
}

async function requireClient(clientId: string, trx: TransactionClientContract, asConfig = false) {
  const client = await findClient(clientId, trx)
  if (!client)
    throw new ClientRegistrationError([{ path: 'clientId', message: `no client '${clientId}'` }])
  if (client.managedBy === 'config' && !asConfig) {
    throw new ClientRegistrationError([
      {
        path: 'clientId',
        message: `client '${clientId}' is managed by configuration (svc.authserver.client.${client.configName}.*); change the properties instead`,
      },
    ])
  }
  return client
}

/** The stored settings of a client (TTLs in seconds), to compare with a wanted registration. */
export function settingsOf(client: OAuthClient): ClientSettings {
  return {
    clientId: client.clientId,
    authenticationMethods: client.authenticationMethods,
    grantTypes: client.grantTypes,
    redirectUris: client.redirectUris,
    requireProofKey: client.requireProofKey,
    accessTokenFormat: client.accessTokenFormat,
    accessTokenTtl: Number(client.accessTokenTtl),
    refreshTokenTtl: Number(client.refreshTokenTtl),
    resourceRoles: client.resourceRoles,
    rowLevelRoles: client.rowLevelRoles,
  }
}

/** A client as a registration (durations as strings, the digest instead of a secret): export. */
export function registrationOf(client: OAuthClient): ClientInput {
  const s = settingsOf(client)
  return {
    clientId: s.clientId,
    ...(client.secretHash ? { clientSecretHash: client.secretHash } : {}),
    authenticationMethods: s.authenticationMethods,
    grantTypes: s.grantTypes,
    redirectUris: s.redirectUris,
    requireProofKey: s.requireProofKey,
    accessTokenFormat: s.accessTokenFormat,
    accessTokenTimeToLive: formatDuration(s.accessTokenTtl),
    refreshTokenTimeToLive: formatDuration(s.refreshTokenTtl),
    resourceRoles: s.resourceRoles,
    rowLevelRoles: s.rowLevelRoles,
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The digest a client will hold: none (public), the given one, the stored one, or 'generate'. */
export function wantedSecretHash(
  existing: OAuthClient | null,
  settings: ClientSettings,
  secret: SecretInput
): string | null | 'generate' {
  if (settings.authenticationMethods.includes('none')) return null
  if (secret.clientSecret !== undefined) return digest(secret.clientSecret)
  return secret.clientSecretHash ?? existing?.secretHash ?? 'generate'
}

/** Fields of `existing` that saving `settings` would change ('secret' included). */
export function changedFields(
  existing: OAuthClient,
  settings: ClientSettings,
  secretHash: string | null | 'generate',
  managed: { managedBy?: 'database' | 'config'; configName?: string | null } = {}
): string[] {
  const before = settingsOf(existing)
  const changed: string[] = SETTING_FIELDS.filter((f) => !same(before[f], settings[f]))
  if (existing.secretHash !== secretHash) changed.push('secret')
  const managedBy = managed.managedBy ?? 'database'
  if (existing.managedBy !== managedBy || existing.configName !== (managed.configName ?? null))
    changed.push('managedBy')
  return changed
}

/**
 * Brings one client to `settings`, creating it when missing. The secret: a public client has
 * none; otherwise the given secret or digest, else the stored digest, else a generated secret.
 * Validation is the caller's (checkRegistration, checkSecret).
 */
export async function saveClient(
  settings: ClientSettings,
  secret: SecretInput,
  options: SaveOptions = {}
): Promise<SaveOutcome> {
  return run(options.trx, async (trx) => {
    const existing = await findClient(settings.clientId, trx)
    if (existing) await requireClient(settings.clientId, trx, options.asConfig)
    let secretHash = wantedSecretHash(existing, settings, secret)
    const changed = existing ? changedFields(existing, settings, secretHash, options) : []
    const client = existing ?? new OAuthClient()
    if (existing && changed.length === 0) return { client, created: false, changed }
    let generatedSecret: string | undefined
    if (secretHash === 'generate') secretHash = digest((generatedSecret = randomToken(32)))
    client.useTransaction(trx)
    client.merge({
      ...settings,
      secretHash,
      managedBy: options.managedBy ?? 'database',
      configName: options.configName ?? null,
      ...(existing ? {} : { active: true }),
      // A new secret (or none): tokens issued with the old one stop now.
      ...(changed.includes('secret') ? { tokensValidAfter: new Date() } : {}),
    })
    await client.save()
    if (existing) await securityChanged(trx)
    return { client, created: !existing, changed, generatedSecret }
  })
}

/** Registers a database-managed client; its generated secret (if any) is in the outcome, once. */
export async function createClient(input: ClientInput, trx?: TransactionClientContract) {
  const { settings, problems } = checkRegistration(input, fieldPaths)
  problems.push(...checkSecret(input, settings.authenticationMethods.includes('none'), fieldPaths))
  if (await findClient(settings.clientId, trx))
    problems.push({ path: 'clientId', message: `client '${settings.clientId}' already exists` })
  if (problems.length) throw new ClientRegistrationError(problems)
  return saveClient(settings, input, { trx })
}

/** Changes some fields of a database-managed client; the others keep their stored values. */
export async function updateClient(
  clientId: string,
  patch: Partial<ClientInput>,
  trx?: TransactionClientContract
) {
  return run(trx, async (t) => {
    const client = await requireClient(clientId, t)
    const input = { ...registrationOf(client), ...patch, clientId }
    delete input.clientSecretHash
    if (patch.clientSecretHash !== undefined) input.clientSecretHash = patch.clientSecretHash
    const { settings, problems } = checkRegistration(input, fieldPaths)
    problems.push(
      ...checkSecret(input, settings.authenticationMethods.includes('none'), fieldPaths)
    )
    if (problems.length) throw new ClientRegistrationError(problems)
    return saveClient(settings, input, { trx: t })
  })
}

/** A new generated secret (returned once); tokens issued before stop at once. */
export async function rotateClientSecret(clientId: string, trx?: TransactionClientContract) {
  return run(trx, async (t) => {
    const client = await requireClient(clientId, t)
    if (client.authenticationMethods.includes('none'))
      throw new ClientRegistrationError([
        { path: 'clientId', message: 'a public client has no secret' },
      ])
    const secret = randomToken(32)
    client.useTransaction(t)
    client.merge({ secretHash: digest(secret), tokensValidAfter: new Date() })
    await client.save()
    await securityChanged(t)
    return secret
  })
}

/** Deactivation stops the client's tokens at once; reactivation does not revive them. */
export async function setClientActive(
  clientId: string,
  active: boolean,
  options: { trx?: TransactionClientContract; asConfig?: boolean } = {}
) {
  return run(options.trx, async (t) => {
    const client = await requireClient(clientId, t, options.asConfig)
    if (client.active === active) return false
    client.useTransaction(t)
    client.merge(active ? { active } : { active, tokensValidAfter: new Date() })
    await client.save()
    await securityChanged(t)
    return true
  })
}

/** Deletes a client with its tokens and codes (explicitly: SQLite schema transactions run
 * without foreign-key enforcement, so ON DELETE CASCADE cannot be relied on there). */
export async function deleteClient(
  clientId: string,
  options: { trx?: TransactionClientContract; asConfig?: boolean } = {}
) {
  return run(options.trx, async (t) => {
    const client = await requireClient(clientId, t, options.asConfig)
    await t.from('oauth_codes').where('client_pk', client.id).delete()
    await t.from('oauth_tokens').where('client_pk', client.id).delete()
    await t.from('oauth_clients').where('id', client.id).delete()
    await securityChanged(t)
  })
}

/**
 * Stops every token of a client at once without changing its registration (the admin API's
 * revoke-tokens): open token rows are marked revoked, and `tokens_valid_after` stops whatever was
 * issued before (codes, self-contained tokens). Allowed for configuration clients too: it changes
 * no property. Returns how many tokens were still live, or null for an unknown client.
 */
export async function revokeClientTokens(
  clientId: string,
  trx: TransactionClientContract
): Promise<number | null> {
  const client = await findClient(clientId, trx)
  if (!client) return null
  const now = new Date()
  const open = trx.from('oauth_tokens').where('client_pk', client.id).whereNull('revoked_at')
  const rows: TokenRow[] = await open.clone().select('*')
  await open.update({ revoked_at: now })
  client.useTransaction(trx)
  client.merge({ tokensValidAfter: now })
  await client.save()
  await securityChanged(trx)
  return rows.filter((row) => isLive(row, now.getTime())).length
}
