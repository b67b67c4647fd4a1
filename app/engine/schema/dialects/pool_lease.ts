/**
 * PostgreSQL connections for the statements of the direct read path (direct_reads.ts), from
 * knex's pool (tarn 3) but mostly without tarn's acquire: that builds two pending operations
 * per call, each with its own timeout timer and promise chain, and validates the connection
 * asynchronously - about 5 kB of allocations and several microtask turns per statement, 2-3 %
 * of the server's CPU on a load by id (`bench:entities` profiles).
 *
 * - An idle connection, when no read waits, is taken the way tarn's own acquire ends (free ->
 *   used, reaping started), skipping only the asynchronous validation, whose one check that
 *   applies here is done by hand: a connection knex marked as broken (`__knex__disposed`) is
 *   left to tarn, which destroys it.
 * - Under load (nothing idle), a read waits in the lane's queue. A connection a read gives back
 *   goes to the next waiting read directly - unless anyone waits on knex's pool (writes,
 *   transactions, other queries): they come first, through tarn's `release`. The lane asks
 *   knex's pool for connections for its waiters as long as it holds and asks for fewer than the
 *   pool's maximum, so reads get every connection nobody else needs.
 * - A read that waits longer than the pool's acquire timeout fails with knex's
 *   KnexTimeoutError (503), as from knex; a failed acquire (the database unreachable) fails
 *   the read that waited longest.
 * - A pool configured with a validator, a connection lifetime or a configuration function, or a
 *   tarn whose internals are not what is expected, goes through knex's acquire and release only.
 */
import knex from 'knex'

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

/**
 * An idle connection of knex `client`'s pool, taken synchronously; undefined when none. Only
 * for a pool `canLease` accepted (its caller checks).
 */
function takeIdle(client: any): unknown {
  const pool = client.pool as TarnPool
  if (pool.destroyed || pool.pendingAcquires.length > 0) return undefined
  const free = pool.free[pool.free.length - 1]
  if (!free || free.resource.__knex__disposed) return undefined
  pool.free.pop()
  pool.used.push(free)
  pool._startReaping()
  return free.resource
}

interface Waiter {
  resolve(conn: unknown): void
  reject(error: unknown): void
  deadline: number
  timeout: number
}

/** The direct reads' side of a pool: who waits, what the lane holds and has asked knex for. */
interface Lane {
  waiters: Waiter[]
  /** Connections out with direct reads. */
  leased: number
  /** knex acquires in progress on the lane's behalf. */
  requested: number
  timer: NodeJS.Timeout | null
}

const lanes = new WeakMap<object, Lane>()

function laneOf(client: object): Lane {
  let lane = lanes.get(client)
  if (!lane) lanes.set(client, (lane = { waiters: [], leased: 0, requested: 0, timer: null }))
  return lane
}

/** Gives `conn` to the longest waiter (true), if there is one. */
function handOff(lane: Lane, conn: unknown): boolean {
  const waiter = lane.waiters.shift()
  if (!waiter) return false
  waiter.resolve(conn)
  return true
}

/**
 * Asks knex's pool for connections for the waiters, as long as the lane holds and asks for
 * fewer than the pool's maximum; past that, the lane's own connections are handed on.
 */
function pump(client: any, lane: Lane) {
  const max: number = client.pool.max
  while (lane.requested < lane.waiters.length && lane.requested + lane.leased < max) {
    lane.requested++
    const asked = Date.now()
    client.acquireConnection().then(
      (conn: unknown) => {
        lane.requested--
        lane.leased++
        if (!handOff(lane, conn)) giveBack(client, conn)
      },
      (error: unknown) => {
        lane.requested--
        // The failure (a timeout, the database unreachable) is the answer of a read that was
        // already waiting when it was asked for; one that came later gets its own try.
        const head = lane.waiters[0]
        if (head && head.deadline - head.timeout <= asked) lane.waiters.shift()!.reject(error)
        pump(client, lane)
      }
    )
  }
}

/**
 * One timer for the lane: when the longest waiter has waited the pool's acquire timeout, it
 * fails as a knex acquire would (KnexTimeoutError: 503), and so does any other past its time.
 */
function arm(client: any, lane: Lane) {
  if (lane.timer || lane.waiters.length === 0) return
  const wait = Math.max(0, lane.waiters[0].deadline - Date.now())
  lane.timer = setTimeout(() => {
    lane.timer = null
    const now = Date.now()
    while (lane.waiters.length > 0 && lane.waiters[0].deadline <= now) {
      lane.waiters
        .shift()!
        .reject(
          new knex.KnexTimeoutError(
            'Knex: Timeout acquiring a connection. The pool is probably full.'
          )
        )
    }
    arm(client, lane)
  }, wait)
  lane.timer.unref()
}

/**
 * A connection of knex `client`'s pool for one statement: an idle one at once; else, when the
 * pool is busy, the next one a direct read gives back (`giveBack`) or knex's pool hands over,
 * whichever comes first. Under load the direct reads pass their connections on among
 * themselves without tarn's acquire, but only while nobody else waits on knex's pool: every
 * connection given back goes to knex's waiters (writes, transactions) first.
 */
export function leaseConnection(client: any): unknown {
  if (!canLease(client)) return client.acquireConnection()
  const lane = laneOf(client)
  const idle = lane.waiters.length === 0 ? takeIdle(client) : undefined
  if (idle !== undefined) {
    lane.leased++
    return idle
  }
  const timeout: number = client.pool.acquireTimeoutMillis
  return new Promise((resolve, reject) => {
    lane.waiters.push({ resolve, reject, deadline: Date.now() + timeout, timeout })
    pump(client, lane)
    arm(client, lane)
  })
}

/** Gives back a connection from `leaseConnection`: to a waiting direct read, or to the pool. */
export function giveBack(client: any, conn: unknown) {
  if (!canLease(client)) return void client.releaseConnection(conn)
  const lane = laneOf(client)
  const pool = client.pool as TarnPool
  const broken = !!(conn as TarnResource['resource']).__knex__disposed
  if (!broken && !pool.destroyed && pool.pendingAcquires.length === 0 && handOff(lane, conn)) return
  lane.leased--
  void client.releaseConnection(conn)
  if (lane.waiters.length > 0) pump(client, lane)
}
