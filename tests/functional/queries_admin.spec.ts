/**
 * Admin API, named queries (/admin/api/queries): who may call, list/show, create (dry run, 201
 * with Location, stored row, one audit entry), 409 and 422 with paths into the body and nothing
 * changed, replace (If-Match), delete; the stored query runs at /rest/queries.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import {
  admin,
  adminState,
  assertOutsidersRefused,
  setupAdminActors,
  versionOf,
} from '#tests/helpers/admin'

const NOTE = 'adq_Note'
const query = {
  entity: NOTE,
  name: 'longer',
  filter: { conditions: [{ property: 'pages', operator: '>', value: ':min' }] },
  sort: '-pages',
  params: [{ name: 'min', type: 'int' }],
}
const PATH = `queries/${NOTE}/longer`
const auditCount = async () => Number((await db.from('mg_audit').count('* as n'))[0].n)
const stored = () => db.from('mg_queries').where({ entity: NOTE }).select('name')

test.group('admin API: queries', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await applyDoc({
      entities: [
        {
          name: NOTE,
          attributes: [
            { name: 'title', type: 'string', length: 50 },
            { name: 'pages', type: 'int' },
          ],
        },
      ],
    })
    for (const [title, pages] of [
      ['short', 2],
      ['long', 20],
      ['longest', 200],
    ] as const)
      await db.table('adq_note').insert({ id: crypto.randomUUID(), title, pages })
  })

  test('401 anonymous, 403 plain user and full-access client on every endpoint', async ({
    assert,
  }) => {
    await admin('admin', 'POST', 'queries', query)
    const before = await adminState()
    await assertOutsidersRefused(assert, [
      ['GET', 'queries'],
      ['GET', PATH],
      ['POST', 'queries', { ...query, name: 'x' }],
      ['PUT', PATH, query],
      ['DELETE', PATH],
    ])
    assert.equal(await adminState(), before)
  })

  test('create: dry run, 201 with Location, audit; then list, show and run it', async ({
    assert,
  }) => {
    const before = await adminState()
    const dry = await admin('admin', 'POST', 'queries?dryRun=true', query)
    assert.equal(dry.status, 200)
    assert.deepEqual(dry.body.changes, [`query ${NOTE}/longer: created`])
    assert.equal(await adminState(), before, 'a dry run changes nothing')
    const audits = await auditCount()
    const created = await admin('admin', 'POST', 'queries', query)
    assert.equal(created.status, 201)
    assert.equal(created.headers.get('location'), `/admin/api/${PATH}`)
    assert.deepEqual(created.body.query, query)
    assert.equal(await auditCount(), audits + 1)
    assert.lengthOf(await stored(), 1)
    const list = await admin('admin', 'GET', `queries?entity=${NOTE}`)
    assert.deepEqual(list.body, { queries: [query] })
    assert.deepEqual((await admin('admin', 'GET', PATH)).body, query)
    assert.equal((await admin('admin', 'GET', `queries/${NOTE}/nope`)).status, 404)
    // The stored query answers at /rest/queries as the admin user.
    const run = await admin('admin', 'GET', `/rest/queries/${NOTE}/longer?min=10`)
    assert.equal(run.status, 200)
    assert.deepEqual(
      run.body.map((n: any) => n.title),
      ['longest', 'long']
    )
  })

  test('refused: 409 for an existing query, 422 with paths into the body', async ({ assert }) => {
    await admin('admin', 'POST', 'queries', query)
    const before = await adminState()
    const again = await admin('admin', 'POST', 'queries', query)
    assert.equal(again.status, 409)
    const bad = await admin('admin', 'POST', 'queries', {
      ...query,
      name: 'bad',
      filter: { conditions: [{ property: 'nope', operator: '>', value: ':min' }] },
      params: [
        { name: 'min', type: 'int' },
        { name: 'x', type: 'enum' },
      ],
    })
    assert.equal(bad.status, 422)
    const paths = bad.body.problems.map((p: any) => p.path)
    assert.includeMembers(paths, ['$.filter', '$.params[1].enum'])
    const renamed = await admin('admin', 'PUT', PATH, { ...query, name: 'other' })
    assert.equal(renamed.status, 422)
    assert.equal(await adminState(), before)
  })

  test('replace with If-Match, then delete', async ({ assert }) => {
    const created = await admin('admin', 'POST', 'queries', query)
    const version = versionOf(created)
    const stale = await admin(
      'admin',
      'PUT',
      PATH,
      { ...query, sort: 'pages' },
      {
        'If-Match': `"${version - 1}"`,
      }
    )
    assert.equal(stale.status, 412)
    const replaced = await admin(
      'admin',
      'PUT',
      PATH,
      { filter: query.filter, params: query.params },
      {
        'If-Match': `"${version}"`,
      }
    )
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body))
    assert.deepEqual(replaced.body.changes, [`query ${NOTE}/longer: changed`])
    assert.notProperty(replaced.body.query, 'sort', 'what the body leaves out takes its default')
    const removed = await admin('admin', 'DELETE', PATH)
    assert.equal(removed.status, 200)
    assert.deepEqual(removed.body.changes, [`query ${NOTE}/longer: deleted (prune)`])
    assert.lengthOf(await stored(), 0)
    assert.equal((await admin('admin', 'DELETE', PATH)).status, 404)
    assert.equal((await admin('admin', 'GET', `/rest/queries/${NOTE}/longer?min=1`)).status, 404)
  })
})
