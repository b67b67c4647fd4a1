import app from '@adonisjs/core/services/app'
import { type HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import router from '@adonisjs/core/services/router'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The methods another route serves at this path (405 instead of 404 for a wrong method). */
function allowedMethods(ctx: HttpContext): string[] {
  const path = ctx.request.url()
  return METHODS.filter((m) => m !== ctx.request.method() && router.match(path, m) !== null)
}

/**
 * Errors are part of the API: every error leaves as `{ "error", "details" }` (the upstream REST
 * shape); driver messages and stacks never reach the client outside development.
 */
export default class HttpExceptionHandler extends ExceptionHandler {
  protected debug = !app.inProduction && !app.inTest

  async handle(error: unknown, ctx: HttpContext) {
    const status = (error as { status?: number }).status ?? 500
    const code = (error as { code?: string }).code
    if (status >= 500) {
      return ctx.response
        .status(status)
        .send({ error: 'Server error', details: 'An unexpected error occurred' })
    }
    if (code === 'E_ROUTE_NOT_FOUND') {
      const allowed = allowedMethods(ctx)
      if (allowed.length) {
        return ctx.response
          .status(405)
          .header('Allow', allowed.join(', '))
          .send({
            error: 'Method not allowed',
            details: `${ctx.request.method()} is not supported here; use ${allowed.join(', ')}`,
          })
      }
      return ctx.response
        .status(404)
        .send({ error: 'Not found', details: `No resource at ${ctx.request.url()}` })
    }
    // The body parser's JSON.parse failure (the admin API; /rest/entities reads its own JSON).
    if (error instanceof SyntaxError && status === 400) {
      return ctx.response.status(400).send({
        error: 'Malformed JSON',
        details: `The request body is not valid JSON: ${error.message}`,
      })
    }
    const message = (error as Error).message ?? 'Request failed'
    return ctx.response.status(status).send({ error: message, details: message })
  }

  async report(error: unknown, ctx: HttpContext) {
    return super.report(error, ctx)
  }
}
