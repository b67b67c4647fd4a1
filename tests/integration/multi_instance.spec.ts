/**
 * A second server process on the same database serves a model change made through this one
 * within 1 second, and never a half-applied model (LISTEN/NOTIFY on PostgreSQL, version polling
 * on both).
 */
import { test } from '@japa/runner'
import type { ChildProcess } from 'node:child_process'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc } from '#tests/helpers/engine'
import { startServerProcess } from '#tests/helpers/server_process'

let PORT = 0

const health = async () => {
  const response = await fetch(`http://127.0.0.1:${PORT}/health`)
  return (await response.json()) as { modelVersion: number; modelChecksum: string }
}

function entities(count: number, attributes: number) {
  return Array.from({ length: count }, (_, i) => ({
    name: `multi_Thing${i}`,
    attributes: Array.from({ length: attributes }, (__, j) => ({
      name: `field${j}`,
      type: 'string',
      length: 40,
    })),
  }))
}

async function startSecondServer(): Promise<ChildProcess> {
  const { child, port } = await startServerProcess({ MODELGATE_WATCH_INTERVAL_MS: '500' })
  PORT = port
  return child
}

test.group('multi-instance model propagation', (group) => {
  let second: ChildProcess
  group.setup(async () => {
    await resetDatabase()
    second = await startSecondServer()
    return () => void second.kill('SIGTERM')
  })

  test('a change made here is served by the second instance within 1 second', async ({
    assert,
  }) => {
    const result = await importDoc({ entities: entities(3, 3) })
    assert.equal(result.status, 'applied')
    const committedAt = Date.now()
    let seen = await health()
    while (seen.modelVersion !== result.version && Date.now() - committedAt < 3000) {
      await new Promise((r) => setTimeout(r, 10))
      seen = await health()
    }
    const elapsed = Date.now() - committedAt
    assert.equal(seen.modelVersion, result.version)
    assert.equal(seen.modelChecksum, (await engine()).model.checksum)
    assert.isBelow(elapsed, 1000, `second instance took ${elapsed} ms`)
  }).timeout(30000)

  test('the second instance never serves a half-applied model', async ({ assert }) => {
    const e = await engine()
    const known = new Map([[e.model.version, e.model.checksum]])
    const observed: { modelVersion: number; modelChecksum: string }[] = []
    let done = false
    const watcher = (async () => {
      while (!done) {
        observed.push(await health())
        await new Promise((r) => setTimeout(r, 5))
      }
    })()
    for (const size of [20, 40]) {
      const result = await importDoc({ entities: entities(size, 10) })
      assert.equal(result.status, 'applied')
      known.set(e.model.version, e.model.checksum)
    }
    // Watch for 1.2 s more, and on until the second instance serves the final version and more
    // than ten answers were seen (a busy machine answers fewer per second), 15 s at most.
    const least = Date.now() + 1200
    const until = Date.now() + 15_000
    while (
      (Date.now() < least ||
        observed.length <= 10 ||
        observed.at(-1)?.modelVersion !== e.model.version) &&
      Date.now() < until
    ) {
      await new Promise((r) => setTimeout(r, 50))
    }
    done = true
    await watcher
    assert.isAbove(observed.length, 10)
    for (const seen of observed) {
      assert.equal(
        seen.modelChecksum,
        known.get(seen.modelVersion),
        `version ${seen.modelVersion} served with a foreign checksum`
      )
    }
    assert.equal(observed.at(-1)!.modelVersion, e.model.version)
  }).timeout(60000)
})
