import app from '@adonisjs/core/services/app'
import { defineConfig, stores } from '@adonisjs/session'
import { redisUrl } from '#config/redis'

/**
 * Sessions exist only for the login form and the authorization endpoint (never for /rest).
 * Default: the signed, encrypted cookie store, which any instance sharing APP_KEY reads (no
 * server-side state). With REDIS_URL the cookie carries only the session id and the data lives
 * in Redis (a sign-out or a password change can then end the session everywhere at once).
 */
export default defineConfig({
  enabled: true,
  cookieName: 'mg-session',
  clearWithBrowser: true,
  age: '2h',
  cookie: { path: '/', httpOnly: true, secure: app.inProduction, sameSite: 'lax' },
  store: redisUrl ? 'redis' : 'cookie',
  // The Redis store is declared only when used: declaring it resolves the Redis manager at boot.
  stores: {
    cookie: stores.cookie(),
    ...(redisUrl ? { redis: stores.redis({ connection: 'main' }) } : {}),
  },
})
