import { createHash, timingSafeEqual } from 'node:crypto'
import type { HttpContext } from '@adonisjs/core/http'
import app from '@adonisjs/core/services/app'
import type operationsConfig from '#config/operations'
import { MISSING_TOKEN, unauthorized } from '#oauth/resource_server'
import { startMetrics } from '#operations/metrics'
import { clusterMetricsText, inWorker } from '#operations/metrics_cluster'

const sha256 = (value: string) => createHash('sha256').update(value).digest()

/**
 * GET /metrics (registered only when MODELGATE_METRICS_TOKEN is set): the Prometheus text of
 * this process for `Authorization: Bearer <that token>`, 401 otherwise. The resource server
 * lets the path through untouched (the metrics token is not an OAuth token).
 */
export default class MetricsController {
  readonly #expected = sha256(app.config.get<typeof operationsConfig>('operations').metricsToken!)

  async show(ctx: HttpContext) {
    const header = ctx.request.header('authorization')
    if (!header) return unauthorized(ctx, MISSING_TOKEN)
    const presented = /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? ''
    // Digests of equal length: the comparison takes the same time whatever was sent.
    if (!timingSafeEqual(sha256(presented), this.#expected))
      return unauthorized(ctx, 'The metrics token is not valid')
    const { registry } = startMetrics()
    // With WEB_CONCURRENCY workers: the whole instance, merged by the cluster primary.
    let text: string
    try {
      text = inWorker() ? await clusterMetricsText() : await registry.metrics()
    } catch (error) {
      // A worker that hangs, or a cluster primary that is not ours (e.g. a process manager's):
      // this worker's own figures rather than none.
      ctx.logger.warn({ err: error }, 'metrics of the other workers unavailable: this worker only')
      text = await registry.metrics()
    }
    ctx.response.header('Content-Type', registry.contentType).header('Cache-Control', 'no-store')
    return text
  }
}
