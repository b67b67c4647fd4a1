/*
|--------------------------------------------------------------------------
| Authorization server routes (relative to the server root)
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { middleware } from '#start/kernel'

const TokenController = () => import('#controllers/oauth/token_controller')
const TokenAdminController = () => import('#controllers/oauth/token_admin_controller')
const DiscoveryController = () => import('#controllers/oauth/discovery_controller')
const AuthorizeController = () => import('#controllers/oauth/authorize_controller')
const LoginController = () => import('#controllers/oauth/login_controller')
const LogoutController = () => import('#controllers/oauth/logout_controller')

// Machine endpoints: client authentication, no session, no cookies.
for (const prefix of ['/oauth2', '/oauth']) {
  router.post(`${prefix}/token`, [TokenController, 'store'])
  router.post(`${prefix}/revoke`, [TokenAdminController, 'revoke'])
}
router.post('/oauth2/introspect', [TokenAdminController, 'introspect'])
router.get('/oauth2/jwks', [DiscoveryController, 'jwks'])
router.get('/.well-known/oauth-authorization-server', [DiscoveryController, 'metadata'])

/**
 * Headers of every browser-facing page and redirect (login form, authorization errors, CSRF
 * refusals): never framed (RFC 9700 4.16, catalogue OA44; shield adds X-Frame-Options too), no
 * Referer towards the client or third parties and never cached (RFC 9700 4.2, OA45). Only
 * `frame-ancestors`: a replacement login view may bring its own assets.
 */
function pageHeaders({ response }: HttpContext, next: NextFn) {
  response.header('X-Frame-Options', 'DENY')
  response.header('Content-Security-Policy', "frame-ancestors 'none'")
  response.header('Referrer-Policy', 'no-referrer')
  response.header('Cache-Control', 'no-store')
  return next()
}

// Browser endpoints: login session, CSRF protection on the form.
router
  .group(() => {
    router.get('/oauth2/authorize', [AuthorizeController, 'show'])
    router.get('/as-login', [LoginController, 'show'])
    router.post('/as-login', [LoginController, 'store'])
    router.route('/logout', ['GET', 'POST'], [LogoutController, 'handle'])
  })
  .use([pageHeaders, middleware.session(), middleware.shield(), middleware.initializeAuth()])
