/**
 * Storage of access tokens, refresh tokens and authorization codes: only SHA-256 digests are
 * stored. Tokens of one authorization share a `grant_id`, so a replayed refresh token or code
 * revokes the whole family. Validation of access tokens for resource requests is cached per
 * security version (bumped on every revocation, deactivation or secret change).
 */
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { bumpVersion } from '#changes/versions'
import { digest, randomToken } from './secrets.js'
import { clearVerificationCache } from './token_verifier.js'

export type TokenKind = 'access' | 'refresh'

export interface TokenRow {
  id: string
  kind: TokenKind
  client_pk: string
  user_id: string | null
  grant_id: string
  scope: string | null
  expires_at: unknown
  revoked_at: unknown
  rotated_at: unknown
  created_at: unknown
}

/** Dates come back as Date (pg), epoch numbers (SQLite, bound by knex) or strings. */
export function toMillis(value: unknown): number | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return value.getTime()
  if (typeof value === 'number') return value
  const n = Number(value)
  return Number.isNaN(n) ? Date.parse(String(value)) : n
}

export interface IssueOptions {
  clientPk: string
  userId: string | null
  grantId: string
  scope: string | null
  ttlSeconds: number
  /** A pre-generated value (self-contained JWT); otherwise an opaque random token. */
  value?: string
}

export async function issueToken(
  kind: TokenKind,
  options: IssueOptions,
  client: QueryClientContract = db.connection()
) {
  const value = options.value ?? randomToken()
  const now = Date.now()
  const expiresAt = new Date(now + options.ttlSeconds * 1000)
  await client.table('oauth_tokens').insert({
    id: randomUUID(),
    token_hash: digest(value),
    kind,
    client_pk: options.clientPk,
    user_id: options.userId,
    grant_id: options.grantId,
    scope: options.scope,
    expires_at: expiresAt,
    created_at: new Date(now),
  })
  return { value, expiresAt }
}

export async function findToken(kind: TokenKind, value: string): Promise<TokenRow | null> {
  const row = await db
    .from('oauth_tokens')
    .where('token_hash', digest(value))
    .where('kind', kind)
    .first()
  return row ?? null
}

export function isLive(row: TokenRow, now = Date.now()): boolean {
  return !row.revoked_at && !row.rotated_at && (toMillis(row.expires_at) ?? 0) > now
}

/** Marks a refresh token as used by rotation (kept, so that a replay can be recognised). */
export async function markRotated(id: string): Promise<boolean> {
  const updated = await db
    .from('oauth_tokens')
    .where('id', id)
    .whereNull('rotated_at')
    .whereNull('revoked_at')
    .update({ rotated_at: new Date() })
  return Number(Array.isArray(updated) ? updated[0] : updated) === 1
}

/** Revokes every token of one authorization (refresh-token or code replay, revocation). */
export async function revokeGrant(grantId: string) {
  await db.transaction(async (trx) => {
    await trx
      .from('oauth_tokens')
      .where('grant_id', grantId)
      .whereNull('revoked_at')
      .update({ revoked_at: new Date() })
    await trx
      .from('oauth_codes')
      .where('grant_id', grantId)
      .whereNull('used_at')
      .update({ used_at: new Date() })
    await bumpVersion(trx, 'security')
  })
  // This instance stops the tokens at once; others when they see the new security version.
  clearVerificationCache()
}

export async function revokeTokenById(id: string) {
  await db.transaction(async (trx) => {
    await trx
      .from('oauth_tokens')
      .where('id', id)
      .whereNull('revoked_at')
      .update({ revoked_at: new Date() })
    await bumpVersion(trx, 'security')
  })
  clearVerificationCache()
}

export function newGrantId() {
  return randomUUID()
}
