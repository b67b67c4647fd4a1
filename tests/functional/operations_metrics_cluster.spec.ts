/**
 * /metrics with WEB_CONCURRENCY=2 (app/operations/metrics_cluster.ts): requests spread over both
 * workers, and whichever worker a scrape lands on, it counts the requests of both.
 */
import { test } from '@japa/runner'
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import {
  startServerProcess,
  type ServerProcess,
  SQLITE_PASS_ONLY,
} from '#tests/helpers/server_process'

const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`

/** One request on a connection of its own: the cluster hands connections out in turn. */
function call(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers }, (res) => {
      let text = ''
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
  })
}

/** The sum of the samples of `name` that carry these labels. */
function total(text: string, name: string, labels: string) {
  let sum = 0
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) && line.includes(labels)) sum += Number(line.split(' ').pop())
  return sum
}

test.group('operations: /metrics of WEB_CONCURRENCY workers', (group) => {
  group.each.skip(SQLITE_PASS_ONLY !== null, SQLITE_PASS_ONLY ?? '')
  let server: ServerProcess

  group.setup(async () => {
    if (SQLITE_PASS_ONLY) return () => {}
    server = await startServerProcess({
      WEB_CONCURRENCY: '2',
      MODELGATE_METRICS_TOKEN: METRICS_TOKEN,
    })
    return async () => {
      server.child.kill('SIGTERM')
      await server.exited
    }
  })

  test('every worker answers for the whole instance', async ({ assert }) => {
    const pids = new Set<number>()
    // The second worker is forked once the first listens (a cold start compiles the sources).
    for (let i = 0; i < 300 && pids.size < 2; i++) {
      const answer = await call(server.port, '/health')
      if (answer.status === 200) pids.add(JSON.parse(answer.text).instance)
      await new Promise((r) => setTimeout(r, 200))
    }
    assert.equal(pids.size, 2, 'both workers answer')

    const auth = { authorization: `Bearer ${METRICS_TOKEN}` }
    const health = 'route="/health",method="GET",status="200"'
    const before = await call(server.port, '/metrics', auth)
    assert.equal(before.status, 200)
    const served = new Set<number>()
    for (let i = 0; i < 10; i++) {
      const response = await call(server.port, '/health')
      assert.equal(response.status, 200)
      served.add(JSON.parse(response.text).instance)
    }
    assert.equal(served.size, 2, 'the requests were spread over both workers')
    for (let i = 0; i < 4; i++) {
      const after = await call(server.port, '/metrics', auth)
      assert.equal(after.status, 200)
      const counted =
        total(after.text, 'modelgate_http_requests_total', health) -
        total(before.text, 'modelgate_http_requests_total', health)
      assert.equal(counted, 10, `scrape ${i}`)
      // One series per label set: the workers' samples are merged, not listed side by side.
      const series = after.text
        .split('\n')
        .filter((l) => l.startsWith(`modelgate_http_requests_total{${health}}`))
      assert.lengthOf(series, 1)
    }
    assert.equal((await call(server.port, '/metrics')).status, 401)
  })
})
