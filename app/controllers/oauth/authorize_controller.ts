import type { HttpContext } from '@adonisjs/core/http'
import OAuthClient from '#models/oauth_client'
import { handleAuthorizeRequest } from '#oauth/server'
import { redirectUriAllowed, validCodeChallenge } from '#oauth/redirect_uris'
import { errorPage } from '#oauth/error_page'
import { toMillis } from '#oauth/token_store'
import { SIGNED_IN_AT } from '#controllers/oauth/login_controller'

export function redirectWithError(
  ctx: HttpContext,
  uri: string,
  error: string,
  description: string
) {
  const target = new URL(uri)
  target.searchParams.set('error', error)
  target.searchParams.set('error_description', description)
  const state = ctx.request.input('state')
  if (state) target.searchParams.set('state', String(state))
  return ctx.response.redirect(target.toString())
}

export default class AuthorizeController {
  /**
   * GET /oauth2/authorize: validates the client and the exact redirect URI first (errors before
   * that are pages, never redirects), enforces PKCE S256 for clients that require it, sends
   * unauthenticated users to the login form, then redirects back with `code` and `state`.
   */
  async show(ctx: HttpContext) {
    const { request, response, auth, session } = ctx
    const clientId = request.input('client_id')
    // RFC 6749 4.1.2.1: a missing parameter is a malformed request, an unknown client invalid.
    if (clientId === undefined || clientId === null || clientId === '')
      return errorPage(ctx, 'invalid_request', 'Missing parameter: client_id')
    const client = await OAuthClient.findBy('clientId', String(clientId))
    if (!client || !client.active)
      return errorPage(ctx, 'invalid_client', 'Unknown or inactive client')
    const requested = request.input('redirect_uri')
    const redirectUri =
      requested ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : null)
    if (!redirectUri || !redirectUriAllowed(client.redirectUris, String(redirectUri))) {
      return errorPage(
        ctx,
        'invalid_request',
        'The redirect_uri is missing or not registered for this client'
      )
    }
    // Checked before the login form (catalogue OA8): a request that can only fail must not make
    // the user sign in first. `code` is the only response type (no implicit grant, OAuth 2.1).
    const responseType = request.input('response_type')
    if (responseType !== 'code') {
      return responseType === undefined || responseType === ''
        ? redirectWithError(ctx, redirectUri, 'invalid_request', 'Missing parameter: response_type')
        : redirectWithError(
            ctx,
            redirectUri,
            'unsupported_response_type',
            'Only the response type code is supported'
          )
    }
    if (!client.grantTypes.includes('authorization_code')) {
      return redirectWithError(
        ctx,
        redirectUri,
        'unauthorized_client',
        'The client may not use the authorization code grant'
      )
    }
    // S256 only: `plain` and an omitted method (RFC 7636 defaults it to plain) are refused.
    if (
      request.input('code_challenge') !== undefined &&
      request.input('code_challenge_method') !== 'S256'
    ) {
      return redirectWithError(
        ctx,
        redirectUri,
        'invalid_request',
        'code_challenge_method must be S256'
      )
    }
    if ((client.requireProofKey || client.isPublic) && !request.input('code_challenge')) {
      return redirectWithError(
        ctx,
        redirectUri,
        'invalid_request',
        'PKCE is required: send code_challenge (S256)'
      )
    }
    const challenge = request.input('code_challenge')
    if (challenge !== undefined && !validCodeChallenge(challenge)) {
      return redirectWithError(
        ctx,
        redirectUri,
        'invalid_request',
        'code_challenge must be 43-128 unreserved characters'
      )
    }

    await auth.use('web').check()
    let user = auth.use('web').user
    // A login session ends with a password change or a deactivation, like the tokens: the
    // user row (shared by every instance) says since when sessions are no longer valid.
    if (user && Number(session.get(SIGNED_IN_AT) ?? 0) < (toMillis(user.tokensValidAfter) ?? 0)) {
      await auth.use('web').logout()
      user = undefined
    }
    if (!user || !user.active) {
      session.put('authorizeUrl', request.url(true))
      return response.redirect('/as-login')
    }
    const result = await handleAuthorizeRequest(ctx, { id: user.id, grantId: '' })
    if ('redirect' in result) return response.redirect(result.redirect)
    return errorPage(ctx, result.error, result.description)
  }
}
