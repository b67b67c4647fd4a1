/**
 * Catalogue FT9, schema and role changes under load: while 8 clients keep searching and
 * updating an entity with a role that names its attributes one by one, the admin adds an
 * attribute, renames one, takes attributes out of the role, deletes one and re-creates it with
 * the same name. No request gets a 500; no response shows a half-applied model (a row never has
 * both the old and the new name of the renamed attribute); an attribute taken out of the role
 * is gone from responses starting 1 s after the commit; the re-created attribute starts with no
 * permissions (Directus CVE-2025-64746). The half-applied snapshot across instances is covered
 * by tests/integration/multi_instance.spec.ts. FAULT_RUNS=5: the catalogue's 5 sequences.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { admin, setupAdminActors } from '#tests/helpers/admin'
import { baseUrl } from '#tests/helpers/oauth'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { request, runs, sleep, type Answer } from '#tests/helpers/faults'

const E = '/rest/entities/ft9_Item'
const role = (attributes: string[]) => ({
  code: 'ft9-reader',
  childRoles: ['rest-minimal'],
  entityPolicies: [{ entity: 'ft9_Item', actions: ['read', 'update'] }],
  attributePolicies: [{ entity: 'ft9_Item', attributes, action: 'MODIFY' }],
})

interface Seen extends Answer {
  at: number
}

test.group('Faults FT9: schema and role changes under load', (group) => {
  let token = ''
  const ids: string[] = []

  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  /** Fresh entity and role for one sequence (the previous sequence renamed and removed). */
  async function prepare(sequence: number) {
    const name = 'ft9_Item'
    const entity = {
      name,
      attributes: ['a', 'b', 'note'].map((n) => ({ name: n, type: 'string', length: 40 })),
    }
    if (sequence > 0) {
      const dropped = await admin('admin', 'DELETE', `entities/${name}?allowDataLoss=true`)
      if (dropped.status !== 200) throw new Error(`drop: ${dropped.status} ${dropped.text}`)
    }
    const applied = await admin('admin', 'POST', 'definition/apply', {
      formatVersion: 1,
      entities: [entity],
      resourceRoles: [role(['a', 'b', 'note'])],
    })
    if (applied.status !== 200) throw new Error(`apply: ${applied.status} ${applied.text}`)
    ids.length = 0
    for (let i = 0; i < 50; i++) ids.push(randomUUID())
    await db
      .table('ft9_item')
      .multiInsert(ids.map((id, i) => ({ id, a: `a${i}`, b: `b${i}`, note: `n${i}` })))
    token ||= (await accessToken(await makeClient({ resourceRoles: ['ft9-reader'] }))).token
  }

  /** 8 clients: a search, then an update of one row, again and again until `stop()`. */
  function load() {
    const seen: Seen[] = []
    let running = true
    const client = async (k: number) => {
      for (let i = 0; running; i++) {
        const at = Date.now()
        const search = await request(`${baseUrl()}${E}/search`, 'POST', {
          token,
          body: { filter: { conditions: [] }, limit: 20 },
        })
        seen.push({ ...search, at })
        const update = await request(`${baseUrl()}${E}/${ids[(k * 7 + i) % ids.length]}`, 'PUT', {
          token,
          body: { a: `u${k}-${i}` },
        })
        seen.push({ ...update, at: Date.now() })
      }
    }
    const clients = Promise.all(Array.from({ length: 8 }, (_, k) => client(k)))
    return async () => {
      running = false
      await clients
      return seen
    }
  }

  test('no 500, never a half-applied model, permission changes honoured', async ({ assert }) => {
    for (let sequence = 0; sequence < runs(1); sequence++) {
      await prepare(sequence)
      const stop = load()
      await sleep(300)
      const windows: [number, number][] = []
      const step = async (method: string, path: string, body?: unknown) => {
        const started = Date.now()
        const reply = await admin('admin', method, path, body)
        windows.push([started, Date.now() + 2000])
        assert.include([200, 201], reply.status, `${method} ${path}: ${reply.text}`)
        await sleep(200)
        return Date.now()
      }
      await step('POST', 'entities/ft9_Item/attributes', { name: 'c', type: 'string' })
      await step('PUT', 'entities/ft9_Item/attributes/b', {
        name: 'b2',
        type: 'string',
        length: 40,
      })
      // The role loses `a` and `note`: responses starting 1 s later must not show them.
      const revokedAt = await step('PUT', 'resource-roles/ft9-reader', role(['b2', 'c']))
      await step('DELETE', 'entities/ft9_Item/attributes/note?allowDataLoss=true')
      const recreatedAt = await step('POST', 'entities/ft9_Item/attributes', {
        name: 'note',
        type: 'string',
      })
      await db.from('ft9_item').update({ note: 'secret' })
      await sleep(1500)
      const seen = await stop()

      const statuses = new Set(seen.map((s) => s.status))
      assert.notInclude([...statuses], 500, 'a request failed with 500')
      for (const s of seen) assert.include([200, 400, 403, 409, 503], s.status, s.text)
      // 503 `Model changed` only while a change is applied and up to 2 s after it.
      for (const s of seen.filter((x) => x.status === 503)) {
        assert.equal(s.body?.error, 'Model changed', s.text)
        assert.isTrue(
          windows.some(([from, to]) => s.at >= from - 1000 && s.at <= to),
          `503 outside the 2 s window of a change: ${s.text}`
        )
      }
      const rows = (s: Seen) => (s.status === 200 && Array.isArray(s.body) ? s.body : [])
      for (const s of seen) {
        for (const row of rows(s)) {
          assert.isFalse('b' in row && 'b2' in row, `half-applied rename: ${JSON.stringify(row)}`)
          if (s.at >= revokedAt + 1000) {
            assert.notProperty(row, 'a', 'a revoked attribute was still shown')
            assert.notProperty(row, 'note', 'a revoked attribute was still shown')
          }
          if (s.at >= recreatedAt) assert.notEqual(row.note, 'secret', 're-created attribute shown')
        }
      }
      const late = seen.filter((s) => s.at >= revokedAt + 1000 && rows(s).length)
      assert.isAbove(late.length, 0, 'searches ran after the permission change')
      if (process.env.FAULT_VERBOSE) {
        const tally: Record<number, number> = {}
        for (const s of seen) tally[s.status] = (tally[s.status] ?? 0) + 1
        console.log(`FT9 sequence ${sequence}: ${seen.length} requests ${JSON.stringify(tally)}`)
      }
    }
  }).timeout(120000)
})
