/**
 * All cores (README "All cores: workers"): WEB_CONCURRENCY=2 runs a node:cluster primary with
 * two workers on one port. Both answer; concurrent writes spread over both never fail (on
 * SQLite two processes share the file); a worker killed with SIGKILL is replaced while the
 * other keeps answering; SIGTERM to the primary stops the workers and exits 0 with no orphan.
 * CLUSTER_WRITES sets the number of concurrent creates (default 200).
 */
import { test } from '@japa/runner'
import http from 'node:http'
import db from '@adonisjs/lucid/services/db'
import { filesSetup } from '#tests/helpers/files'
import { startServerProcess, type ServerProcess } from '#tests/helpers/server_process'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One request on a connection of its own (no pooled connection to a worker that died). */
function call(
  port: number,
  path: string,
  options: { method?: string; token?: string; body?: unknown } = {}
) {
  return new Promise<{ status: number; body: any }>((resolve) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = ''
        res.on('data', (c) => (text += c))
        res.on('end', () => {
          let body: any = text
          try {
            body = JSON.parse(text)
          } catch {}
          resolve({ status: res.statusCode ?? 0, body })
        })
      }
    )
    req.on('error', (e: any) => resolve({ status: 0, body: e.code }))
    req.setTimeout(10_000, () => req.destroy(Object.assign(new Error(), { code: 'TIMEOUT' })))
    req.end(payload)
  })
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The pids answering GET /health, polled until `count` distinct ones (or the deadline). */
async function instances(
  port: number,
  count: number,
  deadlineMs: number,
  seen = new Set<number>()
) {
  const until = Date.now() + deadlineMs
  const statuses: number[] = []
  while (seen.size < count && Date.now() < until) {
    const r = await call(port, '/health')
    statuses.push(r.status)
    if (r.status === 200) seen.add(r.body.instance)
    // Not a busy loop: a worker starting up shares the two cores with this one.
    await sleep(100)
  }
  return { seen, statuses }
}

test.group('Operations: WEB_CONCURRENCY=2 workers', (group) => {
  let primary: ServerProcess
  let token = ''
  group.setup(async () => {
    token = await filesSetup()
    primary = await startServerProcess({ WEB_CONCURRENCY: '2' })
    return () => {
      if (primary.child.exitCode === null) primary.child.kill('SIGKILL')
    }
  })

  test('both workers answer; concurrent writes over both: no 5xx, every row stored', async ({
    assert,
  }) => {
    // The second worker starts once the first listens (it compiles the sources: give it time).
    const { seen } = await instances(primary.port, 2, 60_000)
    assert.equal(seen.size, 2, `two workers answer /health: ${[...seen]}`)
    assert.notInclude([...seen], primary.child.pid!, 'the primary itself serves nothing')

    const count = Number(process.env.CLUSTER_WRITES) || 200
    const created = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        call(primary.port, '/rest/entities/bookstore_Tag', {
          method: 'POST',
          token,
          body: { name: `cluster-${i}` },
        })
      )
    )
    const statuses = created.map((r) => r.status)
    assert.deepEqual(
      [...new Set(statuses)],
      [201],
      JSON.stringify(created.find((r) => r.status !== 201))
    )
    // Then each row updated once, again spread over both workers.
    const updated = await Promise.all(
      created.map((r, i) =>
        call(primary.port, `/rest/entities/bookstore_Tag/${r.body.id}`, {
          method: 'PUT',
          token,
          body: { name: `cluster-${i}-u` },
        })
      )
    )
    assert.deepEqual([...new Set(updated.map((r) => r.status))], [200])
    const rows = await db
      .from('bookstore_tag')
      .where('name', 'like', 'cluster-%')
      .select('id', 'name')
    assert.sameMembers(
      rows.map((r: any) => `${r.id} ${r.name}`),
      created.map((r, i) => `${r.body.id} cluster-${i}-u`)
    )
  }).timeout(120_000)

  test('a worker killed with SIGKILL is replaced; the other answers meanwhile', async ({
    assert,
  }) => {
    const { seen } = await instances(primary.port, 2, 30_000)
    const [victim, survivor] = [...seen]
    process.kill(victim, 'SIGKILL')
    // The primary hands each connection to a worker; one handed over in the instant the worker
    // dies, before the primary sees it go, is lost with it (node:cluster, README "All cores").
    await sleep(300)
    // Every request during the restart lands on the surviving worker.
    const after = await instances(primary.port, 2, 60_000, new Set([survivor]))
    assert.notInclude([...after.seen], victim)
    assert.equal(after.seen.size, 2, 'a new worker answers')
    assert.deepEqual([...new Set(after.statuses)], [200], 'no request failed meanwhile')
    assert.match(
      primary.output(),
      new RegExp(
        `worker \\d+ \\(pid ${victim}\\) was killed by SIGKILL after \\d+ s: starting a new one in 1 s`
      )
    )
  }).timeout(120_000)

  test('SIGTERM to the primary stops every worker and exits 0', async ({ assert }) => {
    const { seen } = await instances(primary.port, 2, 30_000)
    primary.child.kill('SIGTERM')
    const exit = await primary.exited
    assert.deepEqual(exit, { code: 0, signal: null }, primary.output().slice(-2000))
    for (const pid of seen) assert.isFalse(alive(pid), `worker ${pid} is gone`)
    assert.match(primary.output(), /SIGTERM received: stopping 2 workers/)
    assert.equal((await call(primary.port, '/health')).body, 'ECONNREFUSED')
  })
})
