/*
|--------------------------------------------------------------------------
| HTTP kernel
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

/*
 * The framework resolves each middleware below through the container on every request (a make
 * and a call, several promise hops): the server middleware, all stateless and always run back to
 * back, are one entry (app/middleware/edge_middleware.ts lists them in order; each keeps its own
 * file): container bindings, security headers, static files, CORS, the resource server, the raw
 * upload guard of POST /rest/files.
 */
server.use([() => import('#middleware/edge_middleware')])

router.use([
  // 406 for an Accept the JSON endpoints cannot satisfy, lenient request JSON of /rest/entities
  // (upstream reads it with lenient Gson), the body parser, the form-token guard
  // (app/middleware/request_body_middleware.ts).
  () => import('#middleware/request_body_middleware'),
])

export const middleware = router.named({
  /** Browser-facing authorization-server pages: session, CSRF protection, session auth. */
  session: () => import('@adonisjs/session/session_middleware'),
  shield: () => import('@adonisjs/shield/shield_middleware'),
  initializeAuth: () => import('@adonisjs/auth/initialize_auth_middleware'),
  /** The admin API: a token with the admin.api policy (app/middleware/admin_middleware.ts). */
  admin: () => import('#middleware/admin_middleware'),
})
