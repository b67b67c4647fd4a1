/**
 * A pooled PostgreSQL connection for one statement of the direct read path (direct_reads.ts),
 * taken from knex's pool (tarn 3) without its acquire machinery when a connection is idle.
 *
 * knex's `acquireConnection` goes through tarn's `acquire`, which builds two pending operations
 * per call, each with its own timeout timer and promise chain, and validates the connection
 * asynchronously: about 4 kB of allocations and several microtask turns per statement, measured
 * in `bench:entities` profiles as 2-3 % of the server's CPU on a load by id. When the pool holds
 * an idle connection and nobody waits for one, this takes it the way tarn's own acquire ends
 * (free -> used, reaping started) and skips only the asynchronous validation, doing its one
 * check that applies here by hand: a connection knex marked as broken (`__knex__disposed`) is
 * left to tarn's acquire, which destroys it. Everything else - nothing idle, someone waiting,
 * a pool configured with a validator, a connection lifetime or a configuration function, a
 * tarn whose internals are not what is expected - goes through knex's `acquireConnection`.
 * The connection always goes back through `releaseConnection` (tarn's `release`, which hands it
 * to the next waiter), so the pool's counts and fairness stay tarn's.
 */
interface TarnResource {
  resource: { __knex__disposed?: unknown }
}

interface TarnPool {
  free: TarnResource[]
  used: TarnResource[]
  pendingAcquires: unknown[]
  destroyed: boolean
  _startReaping(): void
}

/** Whether knex's pool of `client` can be leased from directly (checked once per client). */
const leasable = new WeakMap<object, boolean>()

function canLease(client: any): boolean {
  let ok = leasable.get(client)
  if (ok === undefined) {
    const pool = client.pool
    const config = client.config ?? {}
    ok =
      !!pool &&
      Array.isArray(pool.free) &&
      Array.isArray(pool.used) &&
      Array.isArray(pool.pendingAcquires) &&
      typeof pool._startReaping === 'function' &&
      typeof config.connection !== 'function' &&
      !config.pool?.validate &&
      !config.pool?.maxConnectionLifetimeMillis &&
      !client.connectionConfigExpirationChecker
    leasable.set(client, ok)
  }
  return ok
}

/** An idle connection of knex `client`'s pool, taken synchronously; undefined when none. */
function takeIdle(client: any): unknown {
  if (!canLease(client)) return undefined
  const pool = client.pool as TarnPool
  if (pool.destroyed || pool.pendingAcquires.length > 0) return undefined
  const free = pool.free[pool.free.length - 1]
  if (!free || free.resource.__knex__disposed) return undefined
  pool.free.pop()
  pool.used.push(free)
  pool._startReaping()
  return free.resource
}

/**
 * A connection of knex `client`'s pool: an idle one at once, else (a promise of) knex's own
 * acquire. Give it back with `client.releaseConnection`.
 */
export function leaseConnection(client: any): unknown {
  return takeIdle(client) ?? client.acquireConnection()
}
