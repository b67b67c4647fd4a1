import app from '@adonisjs/core/services/app'
import { type HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import router from '@adonisjs/core/services/router'
import { databaseFailure, databaseFailureBody } from '#exceptions/database_errors'

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
    // A database that is down, restarting or too slow: 503, retryable (catalogue FT5).
    const failure = status === 500 ? databaseFailure(error) : null
    if (failure) {
      return ctx.response.status(503).header('Retry-After', '1').send(databaseFailureBody(failure))
    }
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
    // One line, no stack: an outage makes many of these, and they are not bugs.
    const failure = databaseFailure(error)
    if (failure) {
      const { code, message } = error as { code?: string; message?: string }
      return ctx.logger.warn({ code }, `database ${failure}: ${message}`)
    }
    return super.report(error, ctx)
  }
}
