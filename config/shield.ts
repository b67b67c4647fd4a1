import { defineConfig } from '@adonisjs/shield'

export default defineConfig({
  csp: { enabled: false, directives: {}, reportOnly: false },
  // CSRF tokens protect the login form; token and API endpoints authenticate otherwise.
  csrf: {
    enabled: true,
    exceptRoutes: (ctx) => !ctx.request.url().startsWith('/as-login'),
    enableXsrfCookie: false,
    methods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  },
  xFrame: { enabled: true, action: 'DENY' },
  hsts: { enabled: false, maxAge: '180 days' },
  contentTypeSniffing: { enabled: true },
})
