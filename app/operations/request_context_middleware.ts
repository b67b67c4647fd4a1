/**
 * The first server middleware (app/middleware/edge_middleware.ts), around everything else:
 *
 * - a request id on every request and response (`X-Request-Id`): the load balancer's when it is
 *   a safe token, else a fresh UUID; `ctx.logger` then carries it as `request_id` on every line
 *   it writes, and `ctx.request.id()` returns it;
 * - once the response is done: one access-log line (info; MODELGATE_ACCESS_LOG=false turns it
 *   off) and the request in the HTTP metrics (when MODELGATE_METRICS_TOKEN is set).
 *
 * On the hot path: a regex test (or a randomUUID and a binding), one header, one 'close'
 * listener; the line and the metrics are written after the response left (scripts/
 * bench_request_context.js measures each part). Nothing here reads a header, query
 * string or body that could carry a credential: the line holds the path without its query.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import type { Logger } from '@adonisjs/core/logger'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import router from '@adonisjs/core/services/router'
import type operationsConfig from '#config/operations'
import { startMetrics } from './metrics.js'
import { UNMATCHED, type HttpMetrics } from './http_metrics.js'
import { SAFE_REQUEST_ID } from './request_id.js'

/**
 * The route pattern of a request that never reached the router (refused by the resource server,
 * answered by a middleware) or that no route matches.
 */
function patternOf(ctx: HttpContext, method: string): string {
  if (ctx.route) return ctx.route.pattern
  return router.match(ctx.request.url(), method)?.route.pattern ?? UNMATCHED
}

/** What one finished request contributes to the access log and the HTTP metrics. */
export interface FinishedRequest {
  res: ServerResponse
  /** `performance.now()` when the request arrived. */
  start: number
  method: string
  route: string
  /** The path without its query string. */
  path: string
  logger: Logger
  /** The body's length when the response headers are not kept on `res` (else Content-Length). */
  bytes?: number
}

/**
 * The access log and the HTTP metrics as configured (MODELGATE_ACCESS_LOG and the log level,
 * MODELGATE_METRICS_TOKEN), shared by this middleware and the entity-read fast path
 * (app/controllers/rest/fast_reads.ts).
 */
export class RequestRecorder {
  readonly #metrics: HttpMetrics | null
  readonly #accessLog: boolean

  constructor() {
    const config = app.config.get<typeof operationsConfig>('operations')
    this.#metrics = config.metricsToken ? startMetrics().http : null
    this.#accessLog = config.accessLog && logger.isLevelEnabled('info')
  }

  /** Whether a finished request is recorded at all (else no 'close' listener is needed). */
  get active(): boolean {
    return this.#metrics !== null || this.#accessLog
  }

  finished(request: FinishedRequest) {
    try {
      const { res, method, route } = request
      const seconds = (performance.now() - request.start) / 1000
      const status = res.statusCode
      this.#metrics?.observe(route, method, status, seconds)
      if (!this.#accessLog) return
      const length = request.bytes ?? res.getHeader('content-length')
      request.logger.info(
        {
          method,
          route,
          path: request.path,
          status,
          duration_ms: Math.round(seconds * 1e6) / 1e3,
          bytes: length === undefined ? undefined : Number(length),
          // The client went away before the whole response was written.
          aborted: res.writableFinished ? undefined : true,
        },
        'request'
      )
    } catch (error) {
      logger.warn({ err: error }, 'access log / metrics of a request failed')
    }
  }
}

/**
 * The id of a request: its X-Request-Id when that is a safe token, else a fresh UUID, which
 * replaces the header on the request (so every later reader sees the id that is answered).
 */
export function requestIdOf(req: IncomingMessage): {
  id: string
  was: 'kept' | 'missing' | 'unsafe'
} {
  const incoming = req.headers['x-request-id']
  if (typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming))
    return { id: incoming, was: 'kept' }
  const id = randomUUID()
  req.headers['x-request-id'] = id
  return { id, was: typeof incoming === 'string' ? 'unsafe' : 'missing' }
}

export default class RequestContextMiddleware {
  readonly #recorder = new RequestRecorder()

  handle(ctx: HttpContext, next: NextFn) {
    const start = performance.now()
    const { id, was } = requestIdOf(ctx.request.request)
    // The framework made ctx.logger, a child logger, with the header as it came.
    if (was === 'missing') {
      // It has no request_id binding yet: add it to that child (cheaper than another child).
      ctx.logger.pino.setBindings?.({ request_id: id })
    } else if (was === 'unsafe') {
      // Its binding holds the unsafe value: a new child without it.
      ctx.logger = logger.child({ request_id: id })
    }
    const res = ctx.response.response
    // On the Node response itself: also answers written without the framework (static files).
    res.setHeader('X-Request-Id', id)
    if (this.#recorder.active) res.once('close', () => this.#finished(ctx, start))
    return next()
  }

  #finished(ctx: HttpContext, start: number) {
    const method = ctx.request.request.method ?? 'GET'
    let route = UNMATCHED
    try {
      route = patternOf(ctx, method)
    } catch {}
    this.#recorder.finished({
      res: ctx.response.response,
      start,
      method,
      route,
      path: ctx.request.url(),
      logger: ctx.logger,
    })
  }
}
