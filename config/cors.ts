import { defineConfig } from '@adonisjs/cors'
import app from '@adonisjs/core/services/app'

/**
 * Cross-origin access to the APIs is opt-in: `svc.cors.allowed-origins` lists the allowed origins
 * (or `*`). Bearer tokens need no cookies, so credentials are never allowed, and `null` origins
 * (sandboxed frames, file://) never match (catalogue RT15-RT17).
 */
let engine: { properties: { get(name: string): unknown } } | null = null
app.booted(async () => {
  const { Engine } = await import('#engine/engine')
  engine = await app.container.make(Engine)
})

/** Read on every request, so a stored settings change applies without restart. */
function allowedOrigins(): string[] {
  return (engine?.properties.get('svc.cors.allowed-origins') as string[] | undefined) ?? []
}

export default defineConfig({
  enabled: true,
  origin: (requestOrigin) => {
    if (!requestOrigin || requestOrigin === 'null') return false
    const allowed = allowedOrigins()
    return allowed.includes('*') || allowed.includes(requestOrigin)
  },
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'],
  headers: [
    'authorization',
    'content-type',
    'accept',
    'accept-language',
    'if-match',
    'if-none-match',
  ],
  exposeHeaders: ['X-Total-Count', 'Location', 'ETag'],
  credentials: false,
  maxAge: 90,
})
