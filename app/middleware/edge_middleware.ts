import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ContainerBindingsMiddleware from '#middleware/container_bindings_middleware'
import SecurityHeadersMiddleware from '#middleware/security_headers_middleware'
import StaticFilesMiddleware from '#middleware/static_files_middleware'

/**
 * The first server middleware, as one: container bindings, security headers, static files (in
 * that order). The framework resolves every registered middleware through the container on
 * every request (a make and a call, several promise hops each); these three are stateless, so
 * they are created once and run back to back. Each keeps its own file and tests.
 */
export default class EdgeMiddleware {
  static #bindings = new ContainerBindingsMiddleware()
  static #headers = new SecurityHeadersMiddleware()
  static #static = new StaticFilesMiddleware()

  handle(ctx: HttpContext, next: NextFn) {
    return EdgeMiddleware.#bindings.handle(ctx, () =>
      EdgeMiddleware.#headers.handle(ctx, () => EdgeMiddleware.#static.handle(ctx, next))
    )
  }
}
