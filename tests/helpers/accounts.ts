/**
 * Helpers of the accounts and clients tests: tokens straight from the token store, their
 * verification as a protected request would do it, the security version, and a scan of table
 * rows for a cleartext secret.
 */
import db from '@adonisjs/lucid/services/db'
import type OAuthClient from '#models/oauth_client'
import type User from '#models/user'
import { readVersion } from '#changes/versions'
import { issueToken, newGrantId } from '#oauth/token_store'
import { verifyAccessToken } from '#oauth/token_verifier'

export const securityVersion = () => readVersion(db.connection(), 'security')

/** An access token of `client` (for `user` when given), issued now. */
export async function issue(client: OAuthClient, user: User | null = null) {
  const { value } = await issueToken('access', {
    clientPk: client.id,
    userId: user?.id ?? null,
    grantId: newGrantId(),
    scope: null,
    ttlSeconds: 300,
  })
  return value
}

/** The verification a protected request makes, against the current security version. */
export async function verify(token: string) {
  return verifyAccessToken(token, await securityVersion())
}

/** Tokens are dead when issued *before* tokens_valid_after: let the clock move on first. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

/** `table.column` of every row (of the given tables) whose value contains `needle`. */
export async function cleartextIn(tables: string[], needle: string): Promise<string[]> {
  const hits: string[] = []
  for (const table of tables) {
    for (const row of await db.from(table).select('*')) {
      for (const [column, value] of Object.entries(row)) {
        if (value !== null && String(value).includes(needle)) hits.push(`${table}.${column}`)
      }
    }
  }
  return hits
}

export async function rowOf(table: 'users' | 'oauth_clients', column: string, value: string) {
  return db.from(table).where(column, value).first()
}
