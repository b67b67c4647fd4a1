/**
 * Catalogue FT7 and FT8, and conflicting model changes (issue 23), across two instances on one
 * database: this test process's server and a second `node server.js`. Requests alternate between
 * them, so the writers contend through the database (SQLite's file lock, PostgreSQL's row locks),
 * not inside one process.
 * - FT7: 20 parallel PUTs with the same version: one 200, nineteen 409, the winner's payload.
 * - FT8: bulk updates of the same rows in opposite orders (deadlock bait on PostgreSQL): each is
 *   all-or-nothing, losers get 409/503, never 500.
 * - Two admins apply conflicting model changes at the same moment on the two instances: one
 *   wins, the other is refused (412), and the table has exactly the winner's column.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { E, loadWriteDemo } from '#tests/functional/entities_write_fixtures'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { adminTokens, setupAdminActors } from '#tests/helpers/admin'
import { baseUrl } from '#tests/helpers/oauth'
import { inspectTable } from '#engine/main'
import { FaultServer, isErrorBody, request, runs, type Answer } from '#tests/helpers/faults'

const audit = { created_by: 'seed', created_date: '2024-01-01T00:00:00.000Z' }
const second = new FaultServer()
let token = ''

/** Request `i` goes to this process's server when even, to the second one when odd. */
const on = (i: number, method: string, path: string, options: Parameters<typeof request>[2]) =>
  request(`${i % 2 ? `http://127.0.0.1:${second.port}` : baseUrl()}${path}`, method, options)

const statuses = (answers: Answer[]) => answers.map((a) => a.status).sort()

async function seedCustomers(count: number, prefix: string) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    name: `${prefix}${i}`,
    email: `${prefix}${i}@example.com`,
    version: 1,
    ...audit,
  }))
  for (let i = 0; i < rows.length; i += 500)
    await db.table('bookstore_customer').multiInsert(rows.slice(i, i + 500))
  return rows.map((r) => r.id)
}

test.group('Faults FT7, FT8 and model changes on two instances', (group) => {
  group.setup(async () => {
    await loadWriteDemo()
    await setupAdminActors()
    token = (await accessToken(await makeClient(), null, 3600)).token
    await second.start()
    return async () => void (await second.stop('SIGTERM'))
  })

  test('FT7: 20 PUTs with the same version: one 200, nineteen 409', async ({ assert }) => {
    const [id] = await seedCustomers(1, 'ft7-')
    for (let round = 0; round < runs(5); round++) {
      const { version } = await db.from('bookstore_customer').where('id', id).first()
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          on(i, 'PUT', `${E}/bookstore_Customer/${id}`, {
            token,
            body: { name: `R${round}-${i}`, version },
          })
        )
      )
      const expected = ['200', ...Array(19).fill('409')].sort()
      assert.deepEqual(
        statuses(answers).map(String).sort(),
        expected,
        answers.map((a) => a.text).join()
      )
      for (const a of answers.filter((x) => x.status === 409)) assert.isTrue(isErrorBody(a.body))
      const winner = answers.findIndex((a) => a.status === 200)
      const stored = await db.from('bookstore_customer').where('id', id).first()
      assert.equal(stored.name, `R${round}-${winner}`)
      assert.equal(stored.version, version + 1)
      assert.equal(answers[winner].body.version, version + 1)
    }
  }).timeout(120000)

  test('FT8: opposite-order bulk updates are all-or-nothing, no 500', async ({ assert }) => {
    const ids = await seedCustomers(100, 'ft8-')
    let version = 1
    for (let round = 0; round < runs(3); round++) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => {
          const order = i % 2 ? [...ids].reverse() : ids
          const body = order.map((id) => ({ id, name: `B${round}-${i}` }))
          // Pairs on different instances: forward here, backward there, and the other way.
          return on(i >> 1 === 0 ? i : i + 1, 'PUT', `${E}/bookstore_Customer`, { token, body })
        })
      )
      for (const a of answers) {
        assert.include([200, 409, 503], a.status, a.text)
        if (a.status !== 200) assert.isTrue(isErrorBody(a.body), a.text)
      }
      if (process.env.FAULT_VERBOSE) console.log(`FT8 round ${round}: ${statuses(answers)}`)
      const won = answers.flatMap((a, i) => (a.status === 200 ? [`B${round}-${i}`] : []))
      assert.isAbove(won.length, 0)
      const rows = await db.from('bookstore_customer').whereIn('id', ids).select('name', 'version')
      const names = new Set(rows.map((r: any) => r.name))
      assert.equal(names.size, 1, `rows from several writers: ${[...names].join(', ')}`)
      assert.include(won, [...names][0])
      // Every successful bulk moved every row one version on; a refused one none.
      version += won.length
      assert.deepEqual([...new Set(rows.map((r: any) => Number(r.version)))], [version])
    }
  }).timeout(120000)

  test('conflicting model changes at once: one applied, the other 412', async ({ assert }) => {
    const applyOn = (i: number, document: unknown, ifMatch?: number) =>
      on(i, 'POST', '/admin/api/definition/apply', {
        token: adminTokens.get('admin'),
        body: document,
        headers: ifMatch === undefined ? {} : { 'If-Match': `"${ifMatch}"` },
      })
    const attributes: { name: string; type: string }[] = [{ name: 'title', type: 'string' }]
    const thing = () => ({ formatVersion: 1, entities: [{ name: 'fx_Thing', attributes }] })
    const first = await applyOn(0, thing())
    assert.equal(first.status, 200, first.text)
    for (let round = 0; round < runs(3); round++) {
      const version = await definitionVersion()
      const types = ['string', 'int']
      const answers = await Promise.all(
        types.map((type, i) => {
          const document = thing()
          document.entities[0].attributes = [...attributes, { name: `f${round}`, type }]
          return applyOn(i, document, version)
        })
      )
      assert.deepEqual(statuses(answers), [200, 412], answers.map((a) => a.text).join())
      const loser = answers.find((a) => a.status !== 200)!
      assert.isTrue(isErrorBody(loser.body), loser.text)
      const type = types[answers.findIndex((a) => a.status === 200)]
      attributes.push({ name: `f${round}`, type })
      const table = await inspectTable(db.connection(), 'fx_thing')
      const columns = table!.columns.filter((c) => c.name === `f${round}`)
      assert.lengthOf(columns, 1)
      assert.match(columns[0].type, type === 'int' ? /int/ : /char|text/)
      assert.equal(await definitionVersion(), version + 1)
    }
    // Without If-Match both changes go through, one after the other, and neither is lost.
    const a = { name: 'ga', type: 'string' }
    const b = { name: 'gb', type: 'string' }
    const both = await Promise.all(
      [a, b].map((extra, i) => {
        const document = thing()
        document.entities[0].attributes = [...attributes, extra]
        return applyOn(i, document)
      })
    )
    assert.deepEqual(statuses(both), [200, 200], both.map((x) => x.text).join())
    const names = (await inspectTable(db.connection(), 'fx_thing'))!.columns.map((c) => c.name)
    assert.includeMembers(names, ['ga', 'gb', ...attributes.map((x) => x.name)])
  }).timeout(120000)
})

async function definitionVersion(): Promise<number> {
  const row = await db.from('mg_versions').where('key', 'definition').first()
  return Number(row?.version ?? 0)
}
