/**
 * The direct read path's connection lease (app/engine/schema/dialects/pool_lease.ts) on a real
 * knex pool of PostgreSQL connections: an idle connection is taken at once and counted as used,
 * goes back through knex's release, never jumps a queue of waiters, and a connection knex
 * marked as broken, or a pool with a validator, goes through knex's own acquire.
 */
import { test } from '@japa/runner'
import knex, { type Knex } from 'knex'
import db from '@adonisjs/lucid/services/db'
import { dialect } from '#tests/helpers/database'
import { leaseConnection } from '#engine/schema/dialects/pool_lease'

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

test.group('pool lease: direct reads take idle connections at once', (group) => {
  let k: Knex | undefined
  group.each.teardown(async () => {
    // A failed test may leave a connection out; knex's destroy would wait for it forever.
    const client = k?.client as any
    for (const used of [...(client?.pool?.used ?? [])])
      await client.releaseConnection(used.resource)
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
    await client.releaseConnection(leased)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })
  })

  test('a waiter is served first: no lease while a connection is awaited', async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    k = pgKnex({ min: 0, max: 1 })
    const client = k.client as any
    const held = await leaseConnection(client)
    const order: string[] = []
    const waiter = client.acquireConnection().then((c: unknown) => (order.push('waiter'), c))
    assert.deepEqual(counts(k), { used: 1, free: 0, pending: 1 })
    // The pool is full and someone waits: the lease queues behind them.
    const late = leaseConnection(client)
    assert.isTrue(isPromise(late))
    const lateDone = (late as Promise<unknown>).then((c) => (order.push('lease'), c))
    await client.releaseConnection(held)
    const w = await waiter
    assert.strictEqual(w, held)
    await client.releaseConnection(w)
    const l = await lateDone
    assert.deepEqual(order, ['waiter', 'lease'])
    await client.releaseConnection(l)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })
  })

  test('a connection marked broken is left to knex, which replaces it', async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    k = pgKnex({ min: 0, max: 2 })
    const client = k.client as any
    const broken = await leaseConnection(client)
    await client.releaseConnection(broken)
    ;(broken as any).__knex__disposed = 'Connection ended unexpectedly'
    const next = leaseConnection(client)
    assert.isTrue(isPromise(next))
    const fresh = await next
    assert.notStrictEqual(fresh, broken)
    const { rows } = await (fresh as any).query('select 1 as one')
    assert.equal(rows[0].one, 1)
    await client.releaseConnection(fresh)
    assert.deepEqual(counts(k), { used: 0, free: 1, pending: 0 })
  })

  test('a pool with a validator is never leased from', async ({ assert }) => {
    if (dialect() !== 'pg') return console.log(ONLY_PG)
    let validated = 0
    k = pgKnex({ min: 0, max: 2, validate: () => (validated++, true) } as Knex.PoolConfig)
    const client = k.client as any
    await client.releaseConnection(await leaseConnection(client))
    const again = leaseConnection(client)
    assert.isTrue(isPromise(again))
    await client.releaseConnection(await again)
    assert.isAtLeast(validated, 2)
  })
})
