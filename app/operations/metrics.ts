/**
 * The Prometheus registry of this process (GET /metrics, README "Health, metrics and logs").
 * Created only when MODELGATE_METRICS_TOKEN is set (config/operations.ts): without it nothing is
 * collected, not even the default process metrics.
 *
 * Everything but the HTTP families is read at scrape time (a `collect` per gauge or counter), so
 * the request path pays only HttpMetrics.observe and the caches a `++`.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client'
import { readFileSync } from 'node:fs'
import db from '@adonisjs/lucid/services/db'
import engine from '#engine/services/engine'
import { cacheStats } from './cache_stats.js'
import { HttpMetrics } from './http_metrics.js'
import { inWorker, joinClusterMetrics } from './metrics_cluster.js'

export const PREFIX = 'modelgate_'

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

/** The tarn pool of the primary Lucid connection (SQLite has one too: one connection). */
function primaryPool() {
  return db.manager.get(db.primaryConnectionName)?.connection?.pool ?? null
}

function registerDatabasePool(registry: Registry) {
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Connections of the database pool, by state (used: lent to a query or transaction)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = primaryPool()
      this.set({ state: 'used' }, pool?.numUsed() ?? 0)
      this.set({ state: 'free' }, pool?.numFree() ?? 0)
    },
  })
  new Gauge({
    name: `${PREFIX}db_pool_pending_acquires`,
    help: 'Queries and transactions waiting for a pooled connection',
    registers: [registry],
    collect() {
      this.set(primaryPool()?.numPendingAcquires() ?? 0)
    },
  })
  new Gauge({
    name: `${PREFIX}db_pool_pending_creates`,
    help: 'Connections of the pool being opened',
    registers: [registry],
    collect() {
      this.set(primaryPool()?.numPendingCreates() ?? 0)
    },
  })
  new Gauge({
    name: `${PREFIX}db_pool_max`,
    help: 'Largest number of connections the pool opens',
    registers: [registry],
    collect() {
      // tarn keeps the option as a protected field; it is public at run time.
      this.set((primaryPool() as { max?: number } | null)?.max ?? 0)
    },
  })
}

function registerCaches(registry: Registry) {
  const counter = (kind: 'hits' | 'misses') =>
    new Counter({
      name: `${PREFIX}cache_${kind}_total`,
      help: `Cache ${kind === 'hits' ? 'hits' : 'misses'} per cache (hit rate: hits / (hits + misses))`,
      labelNames: ['cache'],
      registers: [registry],
      collect() {
        // The counts only grow; prom-client's counters only add: reset, then add the total.
        this.reset()
        for (const [cache, stat] of Object.entries(cacheStats)) this.inc({ cache }, stat[kind])
      },
    })
  counter('hits')
  counter('misses')
}

function registerVersions(registry: Registry) {
  new Gauge({
    name: `${PREFIX}change_version`,
    help: 'Change counters (mg_versions) this instance has loaded: model, roles, settings, security, messages',
    labelNames: ['key'],
    registers: [registry],
    // Over WEB_CONCURRENCY workers: the one furthest behind.
    aggregator: 'min',
    collect() {
      this.set({ key: 'model' }, engine.model.version)
      this.set({ key: 'roles' }, engine.rolesVersion)
      this.set({ key: 'settings' }, engine.properties.version)
      this.set({ key: 'security' }, engine.securityVersion)
      this.set({ key: 'messages' }, Math.max(engine.messages.version, 0))
    },
  })
  new Gauge({
    name: `${PREFIX}build_info`,
    help: 'The Modelgate version this process runs (value 1)',
    labelNames: ['version'],
    registers: [registry],
    aggregator: 'first',
  }).set({ version }, 1)
}

export interface Metrics {
  registry: Registry
  http: HttpMetrics
}

let metrics: Metrics | null = null

/** Starts collecting (idempotent): default process metrics, the HTTP families, the gauges. */
export function startMetrics(): Metrics {
  if (metrics) return metrics
  const registry = new Registry()
  // CPU, memory and heap spaces, event loop lag, GC durations, handles, file descriptors.
  collectDefaultMetrics({ register: registry })
  const http = new HttpMetrics()
  for (const family of http.families(PREFIX)) registry.registerMetric(family as any)
  registerDatabasePool(registry)
  registerCaches(registry)
  registerVersions(registry)
  if (inWorker()) joinClusterMetrics(registry)
  metrics = { registry, http }
  return metrics
}
