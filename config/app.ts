import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { Secret } from '@adonisjs/core/helpers'
import { defineConfig } from '@adonisjs/core/http'

export const appKey = new Secret(env.get('APP_KEY'))

export const http = defineConfig({
  // Off: the framework's cuid2 ids cost ~2% of a small API request, and it keeps any incoming
  // X-Request-Id as sent. app/operations/request_context_middleware.ts gives every request an id
  // instead (a safe incoming one, else a UUID), returned in X-Request-Id and on ctx.logger.
  generateRequestId: false,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: false,
  // Off: the framework's default `comma: true` made `?sort=-a,b` an array and cut raw commas out
  // of `filter` / inline `fetchPlan` JSON (clients such as axios do not encode `,`). A repeated
  // parameter is still an array.
  qs: { parse: { comma: false } },
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})
