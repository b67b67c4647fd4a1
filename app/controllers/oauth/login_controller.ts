import type { HttpContext } from '@adonisjs/core/http'
import limiter from '@adonisjs/limiter/services/main'
import User from '#models/user'
import OAuthClient from '#models/oauth_client'
import { redirectUriAllowed } from '#oauth/redirect_uris'
import { renderLoginPage } from '#oauth/login_page'

/** Failed sign-ins per client address and username before a pause. */
const ATTEMPTS = 5

/** Session key: when the user signed in (milliseconds). */
export const SIGNED_IN_AT = 'signedInAt'

export default class LoginController {
  /** GET /as-login */
  async show(ctx: HttpContext) {
    const error = ctx.request.input('error') !== undefined ? 'badCredentials' : undefined
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.response.type('text/html').send(await renderLoginPage(ctx, { error }))
  }

  /**
   * POST /as-login: CSRF-checked (shield), rate limited, one generic message for every failure,
   * a new session id after sign-in, then back to the saved authorization request.
   */
  async store(ctx: HttpContext) {
    const { request, response, auth, session } = ctx
    if (request.input('cancel')) return this.cancel(ctx)
    const username = String(request.input('username') ?? '').slice(0, 100)
    const password = String(request.input('password') ?? '')
    const attempts = limiter.use({ requests: ATTEMPTS, duration: '1 min', blockDuration: '5 mins' })
    const key = `as_login_${request.ip()}_${username.toLowerCase()}`
    let result: Awaited<ReturnType<typeof attempts.penalize<User>>>
    try {
      // A failed check (unknown user, wrong password, inactive) throws and costs one attempt.
      result = await attempts.penalize(key, async () => {
        const found = await User.verifyCredentials(username, password)
        if (!found.active) throw new Error('inactive user')
        return found
      })
    } catch {
      return response.redirect('/as-login?error')
    }
    const [error, user] = result
    if (error) {
      response.status(429).header('Retry-After', String(error.response.availableIn))
      return response
        .type('text/html')
        .send(await renderLoginPage(ctx, { error: 'tooMany', username }))
    }
    if (!user) return response.redirect('/as-login?error')
    await auth.use('web').login(user)
    // A password change or deactivation after this instant ends the session (authorize).
    session.put(SIGNED_IN_AT, Date.now())
    return response.redirect(session.pull('authorizeUrl', '/'))
  }

  /** The user cancelled: back to the client with access_denied and its state (RFC 6749 4.1.2.1). */
  private async cancel({ response, session }: HttpContext) {
    const saved = session.pull('authorizeUrl', null) as string | null
    const query = saved ? new URL(saved, 'http://local').searchParams : null
    const client = query?.get('client_id')
      ? await OAuthClient.findBy('clientId', query.get('client_id')!)
      : null
    const redirectUri =
      query?.get('redirect_uri') ??
      (client?.redirectUris.length === 1 ? client.redirectUris[0] : null)
    if (!client || !redirectUri || !redirectUriAllowed(client.redirectUris, redirectUri)) {
      return response.redirect('/as-login')
    }
    const target = new URL(redirectUri)
    target.searchParams.set('error', 'access_denied')
    target.searchParams.set('error_description', 'The user cancelled the sign-in')
    if (query?.get('state')) target.searchParams.set('state', query.get('state')!)
    return response.redirect(target.toString())
  }
}
