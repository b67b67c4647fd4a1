import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import app from '@adonisjs/core/services/app'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import LenientJsonMiddleware from '#middleware/lenient_json_middleware'
import FormTokenGuardMiddleware from '#middleware/form_token_guard_middleware'
import AcceptJsonMiddleware from '#middleware/accept_json_middleware'
import NulGuardMiddleware from '#middleware/nul_guard_middleware'

/**
 * The router middleware, as one: content negotiation of the JSON endpoints (406), lenient JSON
 * of /rest/entities, then the framework's body parser, then the NUL guard (400 for U+0000 in
 * any parameter or value) and the form-token guard (in that order). The framework resolves every registered middleware through the container on every
 * request; these are stateless (the body parser holds only its configuration), so they are
 * created once and run back to back.
 */
export default class RequestBodyMiddleware {
  static #accept = new AcceptJsonMiddleware()
  static #lenient = new LenientJsonMiddleware()
  static #guard = new FormTokenGuardMiddleware()
  static #nul = new NulGuardMiddleware()
  static #bodyParser: BodyParserMiddleware | null = null

  async handle(ctx: HttpContext, next: NextFn) {
    const bodyParser = (RequestBodyMiddleware.#bodyParser ??=
      await app.container.make(BodyParserMiddleware))
    const M = RequestBodyMiddleware
    return M.#accept.handle(ctx, () =>
      M.#lenient.handle(ctx, () =>
        bodyParser.handle(ctx, () => M.#nul.handle(ctx, () => M.#guard.handle(ctx, next)))
      )
    )
  }
}
