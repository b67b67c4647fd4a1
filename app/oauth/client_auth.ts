/**
 * Client authentication for the revocation and introspection endpoints (the token endpoint's
 * goes through the library model): HTTP Basic or form fields (never the query string), exactly
 * one, checked by digest and against the methods the client registered. A public client
 * (method `none`) names itself with `client_id` only: it may revoke its own tokens (RFC 7009
 * 2.1 — a browser app signing out), never introspect them.
 */
import type { HttpContext } from '@adonisjs/core/http'
import OAuthClient from '#models/oauth_client'
import { digestMatches } from './secrets.js'
import { basicCredentials, clientAuthMethod, formField } from './server.js'

export async function authenticateClient(ctx: HttpContext): Promise<OAuthClient | null> {
  const method = clientAuthMethod(ctx)
  if (method !== 'client_secret_basic' && method !== 'client_secret_post') return null
  const credentials =
    method === 'client_secret_basic'
      ? basicCredentials(ctx.request.header('authorization') ?? '')
      : {
          id: String(formField(ctx, 'client_id') ?? ''),
          secret: String(formField(ctx, 'client_secret')),
        }
  if (!credentials?.id) return null
  const client = await OAuthClient.findBy('clientId', credentials.id)
  if (!client || !client.active || !client.secretHash) return null
  if (!digestMatches(credentials.secret, client.secretHash)) return null
  return client.authenticationMethods.includes(method) ? client : null
}

/** Revocation: a confidential client authenticates; a public client is named by `client_id`. */
export async function identifyRevokingClient(ctx: HttpContext): Promise<OAuthClient | null> {
  if (clientAuthMethod(ctx) !== 'none') return authenticateClient(ctx)
  const client = await OAuthClient.findBy('clientId', String(formField(ctx, 'client_id')))
  return client && client.active && client.isPublic ? client : null
}
