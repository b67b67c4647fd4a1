/**
 * `__securityToken` (reference 4.8, spec 4.2 rule 8), sent with every entity object when
 * `svc.core.entitySerializationTokenRequired` is true: the entity name, its id and, per
 * reference or collection attribute, the ids a row-level rule hid from the caller. Encrypted
 * and authenticated with the application key (AES-256-CBC + HMAC, AdonisJS encryption), so the
 * client can neither read which rows were hidden nor forge or move a token: a flipped byte, or
 * a token of another entity or id, is refused.
 *
 * The server never needs the token's ids to protect hidden rows: collection replacement only
 * ever touches rows the caller can see (data/write/row_security.ts). The token is checked so
 * that a client which is expected to send it back cannot silently skip it.
 */
import encryption from '@adonisjs/core/services/encryption'

export interface SecurityToken {
  entity: string
  id: string
  /** Hidden ids per attribute. */
  hidden: Record<string, string[]>
}

const PURPOSE = 'modelgate.securityToken'

export function encodeSecurityToken(token: SecurityToken): string {
  return encryption.encrypt(
    { __entityName: token.entity, __entityId: token.id, ...token.hidden },
    undefined,
    PURPOSE
  )
}

/** The token's content, or null when it does not decrypt (tampered, foreign, not a token). */
export function decodeSecurityToken(value: unknown): SecurityToken | null {
  if (typeof value !== 'string' || value.length > 100_000) return null
  const raw = encryption.decrypt<Record<string, unknown>>(value, PURPOSE)
  if (!raw || typeof raw !== 'object') return null
  const { __entityName: entity, __entityId: id, ...hidden } = raw
  if (typeof entity !== 'string' || typeof id !== 'string') return null
  return { entity, id, hidden: hidden as Record<string, string[]> }
}
