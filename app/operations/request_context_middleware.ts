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
import { performance } from 'node:perf_hooks'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
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

export default class RequestContextMiddleware {
  readonly #metrics: HttpMetrics | null
  readonly #accessLog: boolean

  constructor() {
    const config = app.config.get<typeof operationsConfig>('operations')
    this.#metrics = config.metricsToken ? startMetrics().http : null
    this.#accessLog = config.accessLog && logger.isLevelEnabled('info')
  }

  handle(ctx: HttpContext, next: NextFn) {
    const start = performance.now()
    const req = ctx.request.request
    let id = req.headers['x-request-id']
    // The framework made ctx.logger, a child logger, with the header as it came.
    if (typeof id !== 'string') {
      id = randomUUID()
      req.headers['x-request-id'] = id
      // It has no request_id binding yet: add it to that child (cheaper than another child).
      ctx.logger.pino.setBindings?.({ request_id: id })
    } else if (!SAFE_REQUEST_ID.test(id)) {
      id = randomUUID()
      req.headers['x-request-id'] = id
      // Its binding holds the unsafe value: a new child without it.
      ctx.logger = logger.child({ request_id: id })
    }
    const res = ctx.response.response
    // On the Node response itself: also answers written without the framework (static files).
    res.setHeader('X-Request-Id', id)
    if (this.#metrics || this.#accessLog) res.once('close', () => this.#finished(ctx, start))
    return next()
  }

  #finished(ctx: HttpContext, start: number) {
    try {
      const seconds = (performance.now() - start) / 1000
      const res = ctx.response.response
      const method = ctx.request.request.method ?? 'GET'
      const route = patternOf(ctx, method)
      const status = res.statusCode
      this.#metrics?.observe(route, method, status, seconds)
      if (!this.#accessLog) return
      const length = res.getHeader('content-length')
      ctx.logger.info(
        {
          method,
          route,
          path: ctx.request.url(),
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
