import type { HttpContext } from '@adonisjs/core/http'

/** A route parameter, percent-decoded (`ref%24Country` -> `ref$Country`); raw if malformed. */
export function routeParam(ctx: HttpContext, name: string): string {
  const raw = String(ctx.params[name] ?? '')
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}
