import type { HttpContext } from '@adonisjs/core/http'
import OAuthClient from '#models/oauth_client'
import User from '#models/user'
import { authenticateClient, identifyRevokingClient } from '#oauth/client_auth'
import { formField, issuerOf, sendOAuthError } from '#oauth/server'
import { holdersStillValid } from '#oauth/model'
import { findToken, isLive, revokeGrant, toMillis, type TokenRow } from '#oauth/token_store'

async function findAny(token: string, hint: unknown): Promise<TokenRow | null> {
  const order =
    hint === 'refresh_token' ? (['refresh', 'access'] as const) : (['access', 'refresh'] as const)
  for (const kind of order) {
    const row = await findToken(kind, token)
    if (row) return row
  }
  return null
}

export default class TokenAdminController {
  /** POST /oauth2/revoke (RFC 7009; alias /oauth/revoke): 200 also for unknown tokens. */
  async revoke(ctx: HttpContext) {
    const client = await identifyRevokingClient(ctx)
    if (!client) return sendOAuthError(ctx, 401, 'invalid_client', 'Client authentication failed')
    const token = formField(ctx, 'token')
    if (!token) return sendOAuthError(ctx, 400, 'invalid_request', 'Missing parameter: token')
    const row = await findAny(String(token), formField(ctx, 'token_type_hint'))
    if (row && row.client_pk !== client.id) {
      return sendOAuthError(ctx, 400, 'invalid_client', 'The token was not issued to this client')
    }
    // Revoking either token ends the whole authorization (its access and refresh tokens).
    if (row) await revokeGrant(row.grant_id)
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.response.status(200).send('')
  }

  /** POST /oauth2/introspect (RFC 7662): a client may introspect the tokens issued to it. */
  async introspect(ctx: HttpContext) {
    const client = await authenticateClient(ctx)
    if (!client) return sendOAuthError(ctx, 401, 'invalid_client', 'Client authentication failed')
    const token = formField(ctx, 'token')
    if (!token) return sendOAuthError(ctx, 400, 'invalid_request', 'Missing parameter: token')
    ctx.response.header('Cache-Control', 'no-store')
    const row = await findAny(String(token), formField(ctx, 'token_type_hint'))
    if (!row || row.client_pk !== client.id || !isLive(row)) return { active: false }
    // Same rule as resource requests: deactivation, deletion, secret or password change kill it.
    if (!(await holdersStillValid(row.client_pk, row.user_id, toMillis(row.created_at) ?? 0))) {
      return { active: false }
    }
    const owner = (await OAuthClient.find(row.client_pk))!
    const user = row.user_id ? await User.find(row.user_id) : null
    const iat = Math.floor((toMillis(row.created_at) ?? 0) / 1000)
    return {
      active: true,
      client_id: owner.clientId,
      ...(user ? { username: user.username } : {}),
      ...(row.scope ? { scope: row.scope } : {}),
      token_type: row.kind === 'access' ? 'Bearer' : 'refresh_token',
      iat,
      nbf: iat,
      exp: Math.floor((toMillis(row.expires_at) ?? 0) / 1000),
      sub: user ? user.username : owner.clientId,
      aud: [owner.clientId],
      iss: issuerOf(ctx),
    }
  }
}
