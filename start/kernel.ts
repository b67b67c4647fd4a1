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
 * and a call, several promise hops): stateless middleware that always run back to back are
 * grouped into one entry (each keeps its own file).
 */
server.use([
  // Container bindings, security headers, static files (app/middleware/edge_middleware.ts).
  () => import('#middleware/edge_middleware'),
  () => import('@adonisjs/cors/cors_middleware'),
  // After CORS (preflights end there; 401s carry the CORS headers), before every route.
  () => import('#middleware/resource_server_middleware'),
  // Hides raw POST /rest/files bodies from the body parser: the upload streams them itself
  // (app/files/body_middleware.ts). After the resource server, before the router's middleware.
  () => import('#files/body_middleware'),
])

router.use([
  // Lenient request JSON of /rest/entities (upstream reads it with lenient Gson), the body
  // parser, the form-token guard (app/middleware/request_body_middleware.ts).
  () => import('#middleware/request_body_middleware'),
])

export const middleware = router.named({
  /** Browser-facing authorization-server pages: session, CSRF protection, session auth. */
  session: () => import('@adonisjs/session/session_middleware'),
  shield: () => import('@adonisjs/shield/shield_middleware'),
  initializeAuth: () => import('@adonisjs/auth/initialize_auth_middleware'),
})
