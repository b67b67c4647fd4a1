/**
 * A change applied through the admin API of one instance is served by a second instance on the
 * same database within 1 second (metadata and the entities API), and the second instance's admin
 * API sees the new definition version (the ETag), so a stale edit there gets 412.
 */
import { test } from '@japa/runner'
import type { ChildProcess } from 'node:child_process'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminTokens, setupAdminActors, versionOf } from '#tests/helpers/admin'
import { startServerProcess } from '#tests/helpers/server_process'

test.group('admin API on several instances', (group) => {
  let second: ChildProcess
  let port = 0
  const onSecond = (path: string, init: RequestInit = {}) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${adminTokens.get('admin')}`, ...init.headers },
    })

  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    const started = await startServerProcess({ MODELGATE_WATCH_INTERVAL_MS: '500' })
    second = started.child
    port = started.port
    return () => void second.kill('SIGTERM')
  })

  test('an entity created here is served there within 1 second', async ({ assert }) => {
    const apply = await admin('admin', 'POST', 'definition/apply', {
      formatVersion: 1,
      entities: [{ name: 'mi_Ticket', attributes: [{ name: 'subject', type: 'string' }] }],
    })
    assert.equal(apply.status, 200, apply.text)
    const committedAt = Date.now()
    let status = 0
    while (Date.now() - committedAt < 3000) {
      status = (await onSecond('/rest/entities/mi_Ticket')).status
      if (status === 200) break
      await new Promise((r) => setTimeout(r, 10))
    }
    const elapsed = Date.now() - committedAt
    assert.equal(status, 200)
    assert.isBelow(elapsed, 1000, `second instance took ${elapsed} ms`)

    const there = await onSecond('/admin/api/definition')
    assert.equal(Number(/"(\d+)"/.exec(there.headers.get('etag')!)![1]), versionOf(apply))
    const stale = await onSecond('/admin/api/definition/apply', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'If-Match': `"${versionOf(apply) - 1}"` },
      body: JSON.stringify({ formatVersion: 1, settings: { 'svc.rest.max-bulk-size': 7 } }),
    })
    assert.equal(stale.status, 412)
  }).timeout(60000)
})
