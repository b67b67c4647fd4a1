import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import app from '@adonisjs/core/services/app'
import CorsMiddleware from '@adonisjs/cors/cors_middleware'
import { defineConfig } from '@adonisjs/cors'
import ContainerBindingsMiddleware from '#middleware/container_bindings_middleware'
import SecurityHeadersMiddleware from '#middleware/security_headers_middleware'
import StaticFilesMiddleware from '#middleware/static_files_middleware'
import ResourceServerMiddleware from '#middleware/resource_server_middleware'
import FilesBodyMiddleware from '#files/body_middleware'
import RequestContextMiddleware from '#operations/request_context_middleware'

/**
 * Every server middleware, as one entry, in this order:
 *
 * 0. the request context (app/operations: request id, access log, HTTP metrics), around all;
 * 1. container bindings, security headers, static files;
 * 2. CORS (preflights end there; 401s carry the CORS headers);
 * 3. the resource server (before every route);
 * 4. the raw-upload guard of POST /rest/files (app/files/body_middleware.ts: after the resource
 *    server, before the router's middleware and its body parser).
 *
 * The framework resolves every registered middleware through the container on every request (a
 * make and a call, several promise hops each); these are stateless (CORS reads the allowed
 * origins per request through its config function), so they are created once and run back to
 * back. Each keeps its own file and tests.
 */
export default class EdgeMiddleware {
  static #context = new RequestContextMiddleware()
  static #bindings = new ContainerBindingsMiddleware()
  static #headers = new SecurityHeadersMiddleware()
  static #static = new StaticFilesMiddleware()
  static #cors = new CorsMiddleware(app.config.get('cors', defineConfig({})))
  static #resourceServer = new ResourceServerMiddleware()
  static #filesBody = new FilesBodyMiddleware()

  handle(ctx: HttpContext, next: NextFn) {
    const E = EdgeMiddleware
    return E.#context.handle(ctx, () =>
      E.#bindings.handle(ctx, () =>
        E.#headers.handle(ctx, () =>
          E.#static.handle(ctx, () =>
            E.#cors.handle(ctx, () =>
              E.#resourceServer.handle(ctx, () => E.#filesBody.handle(ctx, next))
            )
          )
        )
      )
    )
  }
}
