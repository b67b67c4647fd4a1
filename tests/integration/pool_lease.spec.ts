/**
 * The direct read path's connections (app/engine/schema/dialects/pool_lease.ts) on a real knex
 * pool of PostgreSQL connections: an idle connection is taken at once and counted as used; under
 * load a connection given back goes to the next waiting read, but knex's own waiters come
 * first; a read waits at most the pool's acquire timeout (KnexTimeoutError); a connection knex
 * marked as broken, or a pool with a validator, goes through knex's own acquire.
 */
import { test } from '@japa/runner'
import knex, { type Knex } from 'knex'
import db from '@adonisjs/lucid/services/db'
import { dialect } from '#tests/helpers/database'
import { giveBack, leaseConnection } from '#engine/schema/dialects/pool_lease'

const ONLY_PG = 'PostgreSQL only: the SQLite path keeps a connection of its own'

function pgKnex(pool: Knex.PoolConfig): Knex {
  return knex({
    client: 'pg',
    // The test database's own settings.
    connection: (db.connection().getWriteClient() as any).client.config.connection,
    pool,
  })
}

const counts = (k: Knex) => {
  const pool = (k.client as any).pool
  return {
    used: pool.numUsed(),
    free: pool.numFree(),
    pending: pool.numPendingAcquires(),
  }
}

const isPromise = (value: unknown) => value instanceof Promise

/** `promise`, or a failure after `ms` (a connection handed to the wrong party never comes). */
const within = <T>(promise: Promise<T>, ms = 2000, what = 'the connection') =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms)
    ),
  ])

test.group('pool lease: direct reads take idle connections at once', (group) => {
  let k: Knex | undefined
  group.each.teardown(async () => {
    // A failed test may leave connections out (knex's destroy would wait for them forever) or
    // reads waiting: give back what is out until nothing is, then close the pool.
    const client = k?.client as any
    for (let round = 0; round < 20 && client?.pool?.used.length; round++) {
      for (const used of [...client.pool.used]) await client.releaseConnection(used.resource)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    await k?.destroy()
    k = undefined
  })

  test('an idle connection is taken synchronously, used, and given back', async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    k = pgKnex({ min: 0, max: 2 })
    const client = k.client as any
    // Nothing idle yet: knex's own acquire creates the first connection.
    const first = leaseConnection(client)
    assert.isTrue(isPromise(first))
    const conn = await first
    await client.releaseConnection(conn)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })

    const leased = leaseConnection(client) as any
    assert.isFalse(isPromise(leased))
    assert.strictEqual(leased, conn)
    assert.deepEqual(counts(k), { used: 1, free: 0, pending: 0 })
    const { rows } = await leased.query('select 41 + 1 as answer')
    assert.equal(rows[0].answer, 42)
    giveBack(client, leased)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })
  })

  test('under load a connection given back goes to the next waiting read', async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    k = pgKnex({ min: 0, max: 1 })
    const client = k.client as any
    const first = await leaseConnection(client)
    const second = leaseConnection(client)
    assert.isTrue(isPromise(second))
    // The lane asked knex's pool for nothing more: its one connection is all the pool has.
    assert.deepEqual(counts(k), { used: 1, free: 0, pending: 0 })
    giveBack(client, first)
    assert.strictEqual(await within(second as Promise<unknown>), first)
    assert.deepEqual(counts(k), { used: 1, free: 0, pending: 0 })
    const { rows } = await (first as any).query('select 2 as two')
    assert.equal(rows[0].two, 2)
    giveBack(client, first)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })
  })

  test("knex's own waiters come first, then the reads", async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    k = pgKnex({ min: 0, max: 1 })
    const client = k.client as any
    const held = await leaseConnection(client)
    const order: string[] = []
    const writer = client.acquireConnection().then((c: unknown) => (order.push('knex'), c))
    const read = (leaseConnection(client) as Promise<unknown>).then((c) => (order.push('read'), c))
    await new Promise((resolve) => setImmediate(resolve))
    // The read waits in the lane: the pool's one connection is the lane's already.
    assert.deepEqual(counts(k), { used: 1, free: 0, pending: 1 })
    giveBack(client, held)
    const w = await within(writer, 2000, "knex's waiter's connection")
    assert.strictEqual(w, held)
    assert.deepEqual(order, ['knex'])
    await client.releaseConnection(w)
    const r = await within(read, 2000, "the read's connection")
    assert.deepEqual(order, ['knex', 'read'])
    giveBack(client, r)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })
  })

  test('a read waits at most the acquire timeout, and the pool stays whole', async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    k = pgKnex({ min: 0, max: 1, acquireTimeoutMillis: 300 })
    const client = k.client as any
    const held = await leaseConnection(client)
    const started = Date.now()
    const late = leaseConnection(client) as Promise<unknown>
    const error = await late.then(
      () => null,
      (e: Error) => e
    )
    assert.equal(error?.name, 'KnexTimeoutError')
    assert.isAtLeast(Date.now() - started, 250)
    const { rows } = await (held as any).query('select 3 as three')
    assert.equal(rows[0].three, 3)
    giveBack(client, held)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })
    // And the next read takes the idle connection at once.
    const next = leaseConnection(client)
    assert.isFalse(isPromise(next))
    giveBack(client, next)
  })

  test('a connection marked broken is left to knex, which replaces it', async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    k = pgKnex({ min: 0, max: 2 })
    const client = k.client as any
    const broken = await leaseConnection(client)
    giveBack(client, broken)
    ;(broken as any).__knex__disposed = 'Connection ended unexpectedly'
    const next = leaseConnection(client)
    assert.isTrue(isPromise(next))
    const fresh = await next
    assert.notStrictEqual(fresh, broken)
    const { rows } = await (fresh as any).query('select 1 as one')
    assert.equal(rows[0].one, 1)
    giveBack(client, fresh)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })
  })

  test('a pool with a validator is never leased from', async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    let validated = 0
    k = pgKnex({ min: 0, max: 2, validate: () => (validated++, true) } as Knex.PoolConfig)
    const client = k.client as any
    giveBack(client, await leaseConnection(client))
    const again = leaseConnection(client)
    assert.isTrue(isPromise(again))
    giveBack(client, await again)
    assert.isAtLeast(validated, 2)
  })
})
