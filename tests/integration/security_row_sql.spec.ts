/**
 * Row-level filters run in SQL (issue 5): on a 10,000-row table where the caller's rule lets
 * 10 rows through, pages and counts are right and the database never hands the server a row
 * the caller may not see (rows returned are counted with knex's `query-response` event).
 * Also: the compiled permissions follow a role change made by "another instance" (rows written
 * directly, version bumped, no refresh called here) within one second.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { DataManager } from '#engine/data/data_manager'
import { bumpVersion } from '#changes/versions'
import { permissionsFor } from '#security/main'
import type { UserSubject } from '#security/subject'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, numberedId, readRulePermissions } from '#tests/helpers/engine'
import { createUser } from '#tests/helpers/oauth'
import { observeStatements } from '#tests/helpers/statements'

const ENTITY = 'sec_Big'

async function seedBig() {
  const rows = []
  for (let i = 0; i < 10_000; i++) {
    const id = numberedId(i)
    rows.push({ id, owner_name: i % 1000 === 7 ? 'me' : `u${i % 97}`, n: i })
  }
  for (let i = 0; i < rows.length; i += 200)
    await db.table('sec_big').multiInsert(rows.slice(i, i + 200))
}

test.group('security: row-level filters run in SQL', (group) => {
  group.setup(async () => {
    await resetDatabase()
    const result = await importDoc({
      entities: [
        {
          name: ENTITY,
          attributes: [
            { name: 'ownerName', type: 'string', length: 20 },
            { name: 'n', type: 'int' },
          ],
        },
      ],
    })
    if (result.status !== 'applied') throw new Error(JSON.stringify(result))
    await seedBig()
  })

  test('10,000 rows, 10 visible: right pages and counts, no other row loaded', async ({
    assert,
  }) => {
    const e = await engine()
    const permissions = await readRulePermissions(ENTITY, {
      conditions: [{ property: 'ownerName', operator: '=', value: ':current_user_username' }],
    })
    const subject: UserSubject = {
      kind: 'user',
      userId: 'x',
      username: 'me',
      locale: null,
      timeZone: null,
      clientId: 'c',
      tokenId: 't',
    }
    const data = new DataManager({
      db,
      model: e.model,
      subject,
      permissions,
      maxFetchSize: 10000,
      maxBulkSize: 10000,
    })
    let page: Awaited<ReturnType<DataManager['list']>> | undefined
    const statements = await observeStatements(async () => {
      page = await data.list(ENTITY, { sort: 'n', limit: 4, offset: 4, returnCount: true })
    })
    assert.deepEqual(
      page!.items.map((r) => r.n),
      [4007, 5007, 6007, 7007]
    )
    assert.equal(page!.total, 10)
    assert.lengthOf(statements, 2, 'one page statement, one count')
    assert.deepEqual(
      statements.map((s) => s.rows),
      [4, 1],
      'the database returned the 4 rows of the page and the count, nothing else'
    )
    const all = await data.list(ENTITY, { limit: 100 })
    assert.lengthOf(all.items, 10)
    assert.isTrue(all.items.every((r) => r.ownerName === 'me'))
    assert.equal(await data.count(ENTITY), 10)
    const hidden = await data.count(ENTITY, {
      conditions: [{ property: 'n', operator: '=', value: 8 }],
    })
    assert.equal(hidden, 0)
  })

  test('a role change by another instance reaches this one within 1 second', async ({ assert }) => {
    const { user } = await createUser('watcher', 'S3cret-passw0rd', { resourceRoles: [] })
    const subject: UserSubject = {
      kind: 'user',
      userId: user.id,
      username: 'watcher',
      locale: null,
      timeZone: null,
      clientId: 'c',
      tokenId: 't',
    }
    assert.isFalse((await permissionsFor(subject)).canRead(ENTITY))
    // "Another instance": rows and version written straight to the database.
    await db.transaction(async (trx) => {
      await trx.table('mg_user_resource_roles').insert({
        user_id: user.id,
        role_code: 'system-full-access',
      })
      await bumpVersion(trx, 'roles')
    })
    const started = Date.now()
    while (!(await permissionsFor(subject)).canRead(ENTITY)) {
      if (Date.now() - started > 1000) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const elapsed = Date.now() - started
    assert.isBelow(elapsed, 1000, `seen after ${elapsed} ms`)
  })
})
