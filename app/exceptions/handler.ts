import app from '@adonisjs/core/services/app'
import { type HttpContext, ExceptionHandler } from '@adonisjs/core/http'
import router from '@adonisjs/core/services/router'
import engine from '#engine/services/engine'
import {
  SCHEMA_RACE_WINDOW_MS,
  databaseFailure,
  databaseFailureBody,
  schemaRaceBody,
  staleSchemaError,
} from '#exceptions/database_errors'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The methods another route serves at this path (405 instead of 404 for a wrong method). */
function allowedMethods(ctx: HttpContext): string[] {
  const path = ctx.request.url()
  return METHODS.filter((m) => m !== ctx.request.method() && router.match(path, m) !== null)
}

/**
 * A stale-schema error that a model change explains (catalogue FT9): this instance loaded a new
 * model moments ago, or another instance changed it and this one has not polled yet (a refresh
 * now shows a new model). Otherwise it stays a 500: a real bug must not hide as a 503.
 */
async function schemaRace(error: unknown): Promise<boolean> {
  if (!staleSchemaError(error)) return false
  if (Date.now() - engine.modelChangedAt < SCHEMA_RACE_WINDOW_MS) return true
  const before = engine.model
  await engine.refresh().catch(() => {})
  return engine.model !== before
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
    if (status === 500 && (await schemaRace(error))) {
      return ctx.response.status(503).header('Retry-After', '1').send(schemaRaceBody)
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
    // One line, no stack: an outage or a model change makes many of these, and they are not
    // bugs (report runs before handle decides; a stale-schema error that no model change
    // explains still answers 500).
    const failure = databaseFailure(error)
    if (failure || staleSchemaError(error)) {
      const { code, message } = error as { code?: string; message?: string }
      return ctx.logger.warn({ sqlState: code }, `database ${failure ?? 'schema'}: ${message}`)
    }
    return super.report(error, ctx)
  }
}
