/*
|--------------------------------------------------------------------------
| HTTP kernel
|--------------------------------------------------------------------------
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

server.use([
  () => import('#middleware/container_bindings_middleware'),
  () => import('#middleware/security_headers_middleware'),
  () => import('#middleware/static_files_middleware'),
  () => import('@adonisjs/cors/cors_middleware'),
  // After CORS (preflights end there; 401s carry the CORS headers), before every route.
  () => import('#middleware/resource_server_middleware'),
])

router.use([
  // Lenient request JSON of /rest/entities (upstream reads it with lenient Gson).
  () => import('#middleware/lenient_json_middleware'),
  () => import('@adonisjs/core/bodyparser_middleware'),
  () => import('#middleware/form_token_guard_middleware'),
])

export const middleware = router.named({
  /** Browser-facing authorization-server pages: session, CSRF protection, session auth. */
  session: () => import('@adonisjs/session/session_middleware'),
  shield: () => import('@adonisjs/shield/shield_middleware'),
  initializeAuth: () => import('@adonisjs/auth/initialize_auth_middleware'),
})
