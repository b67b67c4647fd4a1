import env from '#start/env'

/**
 * Operations (app/operations/README.md): metrics and the access log. Read once at start.
 */
const operationsConfig = {
  /**
   * Bearer token that GET /metrics requires (MODELGATE_METRICS_TOKEN). Unset or empty: the
   * route does not exist (the usual 404) and nothing is collected.
   */
  metricsToken: env.get('MODELGATE_METRICS_TOKEN') || null,
  /** One info line per request (MODELGATE_ACCESS_LOG, default on; LOG_LEVEL must allow info). */
  accessLog: env.get('MODELGATE_ACCESS_LOG', true),
}

export default operationsConfig
