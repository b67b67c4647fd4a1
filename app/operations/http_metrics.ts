/**
 * Request count and duration per route pattern, method and status, kept as plain numbers and
 * turned into Prometheus series only when /metrics is scraped.
 *
 * prom-client's own Counter and Histogram build a label object and hash it on every call; here a
 * request costs three Map lookups (pattern -> method -> status: no key string is built) and a
 * few additions. The two families are registered in the prom-client registry as custom metrics
 * (an object with name, help, type and get(), which the registry formats like its own).
 * Cardinality is bounded by the routes: the label is the route PATTERN (`/rest/entities/:entityName`),
 * never the URL, and requests no route matches share one label.
 */

/** Label of requests no route matches (static files, preflights, refused paths, 404s). */
export const UNMATCHED = '(unmatched)'

/** Upper bounds in seconds (prom-client's defaults, plus 1 ms for cached reads). */
export const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface Series {
  count: number
  sum: number
  /** Non-cumulative counts per bucket; the last slot is +Inf. */
  buckets: Float64Array
}

type Labels = { route: string; method: string; status: string }
type MetricValue = { value: number; labels: Record<string, string | number>; metricName?: string }

export class HttpMetrics {
  readonly #series = new Map<string, Map<string, Map<number, Series>>>()

  /** Records one finished request (`seconds` from its first middleware to its last byte). */
  observe(route: string, method: string, status: number, seconds: number) {
    let byMethod = this.#series.get(route)
    if (!byMethod) this.#series.set(route, (byMethod = new Map()))
    let byStatus = byMethod.get(method)
    if (!byStatus) byMethod.set(method, (byStatus = new Map()))
    let series = byStatus.get(status)
    if (!series) {
      series = { count: 0, sum: 0, buckets: new Float64Array(DURATION_BUCKETS.length + 1) }
      byStatus.set(status, series)
    }
    series.count++
    series.sum += seconds
    let i = 0
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) i++
    series.buckets[i]++
  }

  *#each(): Generator<[Labels, Series]> {
    for (const [route, byMethod] of this.#series)
      for (const [method, byStatus] of byMethod)
        for (const [status, series] of byStatus)
          yield [{ route, method, status: String(status) }, series]
  }

  /** The two metric families, as objects prom-client's Registry.registerMetric accepts. */
  families(prefix: string) {
    const counter = {
      name: `${prefix}http_requests_total`,
      help: 'HTTP requests served, per route pattern, method and status',
      type: 'counter',
      aggregator: 'sum',
      get: async () => {
        const values: MetricValue[] = []
        for (const [labels, series] of this.#each()) values.push({ value: series.count, labels })
        return {
          name: counter.name,
          help: counter.help,
          type: 'counter',
          aggregator: 'sum',
          values,
        }
      },
    }
    const histogram = {
      name: `${prefix}http_request_duration_seconds`,
      help: 'Time from the first middleware to the last byte of the response, per route pattern, method and status',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => {
        const name = histogram.name
        const values: MetricValue[] = []
        for (const [labels, series] of this.#each()) {
          let cumulative = 0
          DURATION_BUCKETS.forEach((le, i) => {
            cumulative += series.buckets[i]
            values.push({
              metricName: `${name}_bucket`,
              value: cumulative,
              labels: { ...labels, le },
            })
          })
          values.push({
            metricName: `${name}_bucket`,
            value: series.count,
            labels: { ...labels, le: '+Inf' },
          })
          values.push({ metricName: `${name}_sum`, value: series.sum, labels })
          values.push({ metricName: `${name}_count`, value: series.count, labels })
        }
        return { name, help: histogram.help, type: 'histogram', aggregator: 'sum', values }
      },
    }
    return [counter, histogram]
  }
}
