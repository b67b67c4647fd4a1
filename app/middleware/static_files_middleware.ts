import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import StaticMiddleware from '@adonisjs/static/static_middleware'
import app from '@adonisjs/core/services/app'

/** API prefixes never served from public/: skip the file-system lookup on every API request. */
const API_PREFIXES = ['/rest/', '/oauth2/', '/oauth/', '/health']

/**
 * @adonisjs/static for everything but the APIs (the console, login-page assets). The static
 * middleware stats public/ on every request it sees; the APIs are the hot path and never map
 * to files.
 */
export default class StaticFilesMiddleware {
  #static: StaticMiddleware | null = null

  async handle(ctx: HttpContext, next: NextFn) {
    const url = ctx.request.url()
    if (API_PREFIXES.some((prefix) => url.startsWith(prefix)) || url === '/rest') return next()
    this.#static ??= await app.container.make(StaticMiddleware)
    return this.#static.handle(ctx, next)
  }
}
