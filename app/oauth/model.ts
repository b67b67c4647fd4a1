/**
 * The Lucid-backed model of @node-oauth/oauth2-server. One instance per request: it knows how the
 * client authenticated (Basic header, form fields or not at all), which the library does not pass
 * to getClient. Every secret is compared by digest; codes and refresh tokens are single-use, and
 * a replay revokes the whole grant (RFC 6749 4.1.2, OAuth 2.1 refresh token rotation).
 */
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import OAuthClient, { type AuthenticationMethod } from '#models/oauth_client'
import User from '#models/user'
import { digest, digestMatches, randomToken } from './secrets.js'
import {
  findToken,
  issueToken,
  markRotated,
  newGrantId,
  revokeGrant,
  toMillis,
} from './token_store.js'
import { signAccessToken } from './keys.js'
import { redirectUriAllowed } from './redirect_uris.js'
import { dbBoolean } from '#changes/db_values'

/**
 * Deactivating or deleting a user or client, or changing its secret, kills what was issued
 * before: codes and refresh tokens as much as access tokens.
 */
export async function holdersStillValid(clientPk: string, userId: string | null, issuedAt: number) {
  const client = await db
    .from('oauth_clients')
    .where('id', clientPk)
    .select('active', 'tokens_valid_after')
    .first()
  if (!client || !dbBoolean(client.active) || issuedAt < (toMillis(client.tokens_valid_after) ?? 0))
    return false
  if (!userId) return true
  const user = await db
    .from('users')
    .where('id', userId)
    .select('active', 'tokens_valid_after')
    .first()
  return !!user && dbBoolean(user.active) && issuedAt >= (toMillis(user.tokens_valid_after) ?? 0)
}

/** What travels through the library as the token's "user". */
export interface GrantUser {
  id: string | null
  grantId: string
  /** Set when the tokens are redeemed from an authorization code (replay detection). */
  codeId?: string
}

export interface LibraryClient {
  id: string
  grants: string[]
  redirectUris: string[]
  accessTokenLifetime: number
  refreshTokenLifetime: number
  record: OAuthClient
}

export interface ModelContext {
  /** How the client presented its credentials on this request (null: not at all). */
  authMethod: AuthenticationMethod | null
  issuer: string
  /** The authorization endpoint identifies clients by id only; the token endpoint authenticates. */
  endpoint: 'token' | 'authorize'
}

function toLibraryClient(client: OAuthClient): LibraryClient {
  return {
    id: client.clientId,
    grants: client.grantTypes,
    redirectUris: client.redirectUris,
    accessTokenLifetime: client.accessTokenTtl,
    refreshTokenLifetime: client.refreshTokenTtl,
    record: client,
  }
}

const scopeString = (scope: unknown) =>
  Array.isArray(scope) ? scope.join(' ') || null : typeof scope === 'string' ? scope || null : null

/** The client of a stored code or refresh token, or null when it or its user is dead. */
async function liveClient(row: { client_pk: string; user_id: string | null; created_at: unknown }) {
  if (!(await holdersStillValid(row.client_pk, row.user_id, toMillis(row.created_at) ?? 0)))
    return null
  const client = await OAuthClient.find(row.client_pk)
  return client ? toLibraryClient(client) : null
}

export function createModel(context: ModelContext) {
  return {
    async getClient(clientId: string, clientSecret: string | null) {
      const client = await OAuthClient.findBy('clientId', clientId)
      if (!client || !client.active) return null
      if (context.endpoint === 'authorize') return toLibraryClient(client)
      if (clientSecret) {
        if (!client.secretHash || !digestMatches(clientSecret, client.secretHash)) return null
        if (!context.authMethod || !client.authenticationMethods.includes(context.authMethod))
          return null
      } else if (!client.authenticationMethods.includes('none')) {
        // A confidential client must authenticate, PKCE or not.
        return null
      }
      return toLibraryClient(client)
    },

    async getUserFromClient(): Promise<GrantUser> {
      return { id: null, grantId: newGrantId() }
    },

    async generateAccessToken(client: LibraryClient, user: GrantUser, scope: unknown) {
      if (client.record.accessTokenFormat !== 'self-contained') return randomToken()
      return signAccessToken({
        issuer: context.issuer,
        subject: user.id ?? client.id,
        clientId: client.id,
        scope: scopeString(scope),
        ttlSeconds: client.accessTokenLifetime,
      })
    },

    async generateRefreshToken() {
      return randomToken()
    },

    async generateAuthorizationCode() {
      return randomToken(32)
    },

    async validateScope(_user: GrantUser, _client: LibraryClient, scope: unknown) {
      // No scope registry yet: requested scopes are granted as asked (absent -> none; an
      // empty array is truthy, which the library takes as "valid").
      return Array.isArray(scope) ? scope : []
    },

    async validateRedirectUri(redirectUri: string, client: LibraryClient) {
      return redirectUriAllowed(client.redirectUris, redirectUri)
    },

    async saveToken(token: any, client: LibraryClient, user: GrantUser) {
      const scope = scopeString(token.scope)
      const grantId = user.grantId ?? newGrantId()
      await db.transaction(async (trx) => {
        await issueToken(
          'access',
          {
            clientPk: client.record.id,
            userId: user.id,
            grantId,
            scope,
            ttlSeconds: client.accessTokenLifetime,
            value: token.accessToken,
          },
          trx
        )
        if (token.refreshToken) {
          await issueToken(
            'refresh',
            {
              clientPk: client.record.id,
              userId: user.id,
              grantId,
              scope,
              ttlSeconds: client.refreshTokenLifetime,
              value: token.refreshToken,
            },
            trx
          )
        }
      })
      if (user.codeId) {
        // The code may have been replayed while these tokens were being saved (concurrent
        // redemptions): then they die with the rest of the grant.
        const code = await db
          .from('oauth_codes')
          .where('id', user.codeId)
          .select('replayed_at')
          .first()
        if (code?.replayed_at) await revokeGrant(grantId)
      }
      // The library expects an array (its success response does `scope.join(' ')`): a string
      // here made every token request with a scope a 500 (found by catalogue OA23).
      return { ...token, scope: scope ? scope.split(' ') : undefined, client, user }
    },

    async getRefreshToken(refreshToken: string) {
      const row = await findToken('refresh', refreshToken)
      if (!row || row.revoked_at) return null
      if (row.rotated_at) {
        // A rotated refresh token came back: someone holds a copy. Kill the whole grant.
        await revokeGrant(row.grant_id)
        return null
      }
      const client = await liveClient(row)
      if (!client) return null
      return {
        refreshToken,
        refreshTokenExpiresAt: new Date(toMillis(row.expires_at) ?? 0),
        scope: row.scope ? row.scope.split(' ') : undefined,
        client,
        user: { id: row.user_id, grantId: row.grant_id } satisfies GrantUser,
        rowId: row.id,
      }
    },

    async revokeToken(token: { rowId?: string }) {
      // Called by the refresh grant on the presented token: rotate it (single use).
      return token.rowId ? markRotated(token.rowId) : false
    },

    async saveAuthorizationCode(code: any, client: LibraryClient, user: GrantUser) {
      const grantId = newGrantId()
      await db.table('oauth_codes').insert({
        id: randomUUID(),
        code_hash: digest(code.authorizationCode),
        client_pk: client.record.id,
        user_id: user.id,
        grant_id: grantId,
        redirect_uri: code.redirectUri,
        scope: scopeString(code.scope),
        code_challenge: code.codeChallenge ?? null,
        code_challenge_method: code.codeChallengeMethod ?? null,
        expires_at: code.expiresAt,
        created_at: new Date(),
      })
      return { ...code, client, user: { ...user, grantId } }
    },

    async getAuthorizationCode(authorizationCode: string) {
      const row = await db.from('oauth_codes').where('code_hash', digest(authorizationCode)).first()
      if (!row) return null
      if (row.used_at) {
        // Code replay: revoke every token issued from it (and any still being saved).
        await db.from('oauth_codes').where('id', row.id).update({ replayed_at: new Date() })
        await revokeGrant(row.grant_id)
        return null
      }
      const client = await liveClient(row)
      if (!client) return null
      return {
        authorizationCode,
        expiresAt: new Date(toMillis(row.expires_at) ?? 0),
        redirectUri: row.redirect_uri,
        scope: row.scope ? row.scope.split(' ') : undefined,
        client,
        user: { id: row.user_id, grantId: row.grant_id, codeId: row.id } satisfies GrantUser,
        codeChallenge: row.code_challenge ?? undefined,
        codeChallengeMethod: row.code_challenge_method ?? undefined,
        rowId: row.id,
      }
    },

    async revokeAuthorizationCode(code: { rowId: string }) {
      // Atomic single use: only the first caller flips used_at.
      const updated = await db
        .from('oauth_codes')
        .where('id', code.rowId)
        .whereNull('used_at')
        .update({ used_at: new Date() })
      if (Number(Array.isArray(updated) ? updated[0] : updated) === 1) return true
      // Lost the race against a concurrent redemption of the same code: a replay like any
      // other (catalogue OA19), so the winner's tokens die too (saveToken checks replayed_at).
      const row = await db.from('oauth_codes').where('id', code.rowId).select('grant_id').first()
      await db.from('oauth_codes').where('id', code.rowId).update({ replayed_at: new Date() })
      if (row) await revokeGrant(row.grant_id)
      return false
    },

    async getUser(username: string, password: string): Promise<GrantUser | null> {
      // Password grant (opt-in per client). Same timing whether or not the user exists.
      try {
        const user = await User.verifyCredentials(username, password)
        return user.active ? { id: user.id, grantId: newGrantId() } : null
      } catch {
        return null
      }
    },

    async getAccessToken() {
      // Resource requests are verified by token_verifier.ts, not by the library.
      return null
    },

    async verifyScope() {
      return true
    },
  }
}
