/**
 * Turns a bearer token into the subject the request runs as, or the reason it is refused. A
 * positive result is cached in memory until the token expires or the security version changes
 * (any revocation, deactivation or secret change, on any instance), so a protected request costs
 * a map lookup. The cache is keyed by the token itself (process memory only, like the request
 * that carries it): hashing it on every request cost more than the lookup. The database only
 * ever sees the hash.
 */
import db from '@adonisjs/lucid/services/db'
import type { Subject } from '#security/subject'
import { digest } from './secrets.js'
import { toMillis } from './token_store.js'
import { dbBoolean } from '#changes/db_values'
import { cacheStats } from '#operations/cache_stats'

export type Verification = { subject: Subject } | { error: string }

interface CacheEntry {
  subject: Subject
  expiresAt: number
  version: number
}

const MAX_ENTRIES = 10_000
const cache = new Map<string, CacheEntry>()

const parseList = (v: unknown): string[] => (Array.isArray(v) ? v : JSON.parse(String(v ?? '[]')))

/** The subject of a token verified before and still valid (no database, no promise). */
export function cachedSubject(token: string, securityVersion: number): Subject | undefined {
  const cached = cache.get(token)
  if (cached && cached.version === securityVersion && cached.expiresAt > Date.now()) {
    cacheStats.token_verification.hits++
    return cached.subject
  }
}

export async function verifyAccessToken(
  token: string,
  securityVersion: number
): Promise<Verification> {
  const now = Date.now()
  const known = cachedSubject(token, securityVersion)
  if (known) return { subject: known }
  // Counted here, not in cachedSubject: the resource server asks it first, then comes here.
  cacheStats.token_verification.misses++

  const hash = digest(token)

  const row = await db
    .from('oauth_tokens as t')
    .join('oauth_clients as c', 'c.id', 't.client_pk')
    .leftJoin('users as u', 'u.id', 't.user_id')
    .where('t.token_hash', hash)
    .where('t.kind', 'access')
    .select(
      't.id',
      't.user_id',
      't.expires_at',
      't.revoked_at',
      't.created_at',
      'c.client_id',
      'c.active as client_active',
      'c.tokens_valid_after as client_valid_after',
      'c.resource_roles',
      'c.row_level_roles',
      'u.username',
      'u.active as user_active',
      'u.locale',
      'u.time_zone',
      'u.tokens_valid_after as user_valid_after'
    )
    .first()
  if (!row) return { error: 'Authorization for provided access token not found' }
  const expiresAt = toMillis(row.expires_at) ?? 0
  const issuedAt = toMillis(row.created_at) ?? 0
  if (row.revoked_at) return { error: 'The access token has been revoked' }
  if (expiresAt <= now) return { error: 'The access token has expired' }
  if (!dbBoolean(row.client_active) || issuedAt < (toMillis(row.client_valid_after) ?? 0)) {
    return { error: 'The client of the access token is no longer valid' }
  }
  let subject: Subject
  if (row.user_id) {
    if (!dbBoolean(row.user_active) || issuedAt < (toMillis(row.user_valid_after) ?? 0)) {
      return { error: 'The user of the access token is no longer valid' }
    }
    subject = {
      kind: 'user',
      userId: row.user_id,
      username: row.username,
      locale: row.locale ?? null,
      timeZone: row.time_zone ?? null,
      clientId: row.client_id,
      tokenId: row.id,
    }
  } else {
    subject = {
      kind: 'client',
      clientId: row.client_id,
      resourceRoles: parseList(row.resource_roles),
      rowLevelRoles: parseList(row.row_level_roles),
      tokenId: row.id,
    }
  }
  if (cache.size >= MAX_ENTRIES) cache.clear()
  cache.set(token, { subject, expiresAt, version: securityVersion })
  return { subject }
}

/** Drops cached verifications (tests; a local revocation also bumps the security version). */
export function clearVerificationCache() {
  cache.clear()
}
