import app from '@adonisjs/core/services/app'
import { defineConfig, stores } from '@adonisjs/session'

/** Sessions exist only for the login form and the authorization endpoint (never for /rest). */
export default defineConfig({
  enabled: true,
  cookieName: 'mg-session',
  clearWithBrowser: true,
  age: '2h',
  cookie: { path: '/', httpOnly: true, secure: app.inProduction, sameSite: 'lax' },
  store: 'cookie',
  stores: { cookie: stores.cookie() },
})
