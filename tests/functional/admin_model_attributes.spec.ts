/**
 * Admin API, attributes and indexes of an entity: add (dry run, apply, usable in /rest), replace,
 * rename (values kept; fetch plans, instance name and indexes follow), delete (data loss 409,
 * references 422 naming them), the index list, 404s, 409 conflicts, 422 paths into the body.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { inspectTable } from '#engine/main'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors, versionOf } from '#tests/helpers/admin'
import { NOTE, NOTE_ID, PLAN, lastAudit, noteAndTask, ok, paths } from './admin_model_fixtures.js'

const columns = async (table: string) =>
  (await inspectTable(db.connection(), table))!.columns.map((c) => c.name)
const indexes = async (table: string) =>
  (await inspectTable(db.connection(), table))!.indexes
    .filter((i) => !i.name.startsWith('fk_') && !i.columns.includes('id'))
    .map((i) => `${i.unique ? 'unique ' : ''}${i.columns.join(',')}`)
    .sort()

test.group('admin API: model attributes and indexes', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await noteAndTask()
  })

  test('add an attribute: dry run, then apply; visible in /rest at once', async ({ assert }) => {
    const added = { name: 'dueDate', type: 'date', caption: { en: 'Due' } }
    const before = await adminState()
    const plan = await admin('admin', 'POST', 'entities/adm_Note/attributes?dryRun=true', added)
    assert.equal(plan.status, 200, plan.text)
    assert.equal(plan.body.status, 'dry-run')
    assert.match(plan.body.steps.flatMap((s: any) => s.sql).join('\n'), /due_date/)
    assert.deepEqual(plan.body.attribute, added)
    assert.equal(await adminState(), before)

    const apply = await admin('admin', 'POST', 'entities/adm_Note/attributes', added)
    assert.equal(apply.status, 201, apply.text)
    assert.equal(apply.body.status, 'applied')
    assert.deepEqual(apply.body.attribute, added)
    assert.deepEqual(apply.body.entity.attributes, [...NOTE.attributes, added])
    assert.include(await columns('adm_note'), 'due_date')
    assert.deepInclude(await lastAudit(), {
      author: 'root',
      count: 3,
      elements: ['entities:adm_Note'],
      diff: ['entities:adm_Note:changed'],
    })
    await db.from('adm_note').update({ due_date: '2030-01-02' })
    const rest = await admin('admin', 'GET', `/rest/entities/adm_Note/${NOTE_ID}`)
    assert.equal(rest.body.dueDate, '2030-01-02')
  })

  test('add: 404 unknown entity, 409 existing name, 422 with paths, refused on rows', async ({
    assert,
  }) => {
    const before = await adminState()
    const missing = await admin('admin', 'POST', 'entities/adm_None/attributes', {
      name: 'x',
      type: 'int',
    })
    assert.equal(missing.status, 404)
    const taken = await admin('admin', 'POST', 'entities/adm_Note/attributes', {
      name: 'body',
      type: 'int',
    })
    assert.equal(taken.status, 409)
    assert.equal(taken.body.error, 'Conflict')
    const bad = await admin('admin', 'POST', 'entities/adm_Note/attributes', {
      name: 'x',
      type: 'string',
      length: 'long',
      colour: 1,
    })
    assert.equal(bad.status, 422, bad.text)
    assert.includeMembers(paths(bad), ['$.length', '$.colour'])
    const type = await admin('admin', 'POST', 'entities/adm_Note/attributes', {
      name: 'x',
      type: 'varchar',
    })
    assert.deepEqual(paths(type), ['$.type'])
    const array = await admin('admin', 'POST', 'entities/adm_Note/attributes', [{ name: 'x' }])
    assert.deepEqual(paths(array), ['$'])
    // A mandatory attribute cannot be added to a table with rows, allowDataLoss or not.
    const mandatory = await admin(
      'admin',
      'POST',
      'entities/adm_Note/attributes?allowDataLoss=true',
      {
        name: 'code',
        type: 'string',
        mandatory: true,
      }
    )
    assert.equal(mandatory.status, 409, mandatory.text)
    assert.match(JSON.stringify(mandatory.body.risks), /code/)
    assert.equal(await adminState(), before)
  })

  test('rename keeps the values; the fetch plan, instance name and index follow', async ({
    assert,
  }) => {
    await ok(admin('admin', 'POST', 'fetch-plans', PLAN), 201)
    await ok(
      admin('admin', 'PUT', 'entities/adm_Note', { ...NOTE, instanceName: '{title} ({priority})' })
    )
    await ok(admin('admin', 'PUT', 'entities/adm_Note/indexes', [{ attributes: ['priority'] }]))
    await db.from('adm_note').update({ priority: 7 })
    const renamed = { name: 'rank', type: 'int', caption: { en: 'Rank' } }
    const reply = await admin('admin', 'PUT', 'entities/adm_Note/attributes/priority', renamed)
    assert.equal(reply.status, 200, reply.text)
    assert.deepEqual(reply.body.attribute, renamed)
    assert.equal(reply.body.entity.instanceName, '{title} ({rank})')
    assert.deepEqual(reply.body.entity.indexes, [{ attributes: ['rank'] }])
    const row = await db.from('adm_note').first()
    assert.equal(row.rank, 7)
    assert.notProperty(row, 'priority')
    assert.deepEqual(await indexes('adm_note'), ['rank'])
    const plan = await admin('admin', 'GET', 'fetch-plans/adm_Note/note-brief')
    assert.deepEqual(plan.body.properties, ['title', 'rank'])
    const rest = await admin('admin', 'GET', `/rest/entities/adm_Note/${NOTE_ID}`)
    assert.equal(rest.body.rank, 7)
    assert.equal(rest.body._instanceName, 'first (7)')
    assert.deepInclude(await lastAudit(), {
      elements: ['entities:adm_Note', 'fetchPlans:adm_Note/note-brief'],
    })

    const before = await adminState()
    const onto = await admin('admin', 'PUT', 'entities/adm_Note/attributes/rank', {
      name: 'title',
      type: 'int',
    })
    assert.equal(onto.status, 409)
    for (const path of [
      'entities/adm_Note/attributes/priority',
      'entities/adm_None/attributes/rank',
    ])
      assert.equal((await admin('admin', 'PUT', path, renamed)).status, 404, path)
    assert.equal(await adminState(), before)
  })

  test('replace: narrowing a string with longer values is refused unless allowed', async ({
    assert,
  }) => {
    const narrow = { name: 'title', type: 'string', length: 3, mandatory: true }
    const before = await adminState()
    const refused = await admin('admin', 'PUT', 'entities/adm_Note/attributes/title', narrow)
    assert.equal(refused.status, 409, refused.text)
    assert.equal(refused.body.error, 'Data loss')
    assert.equal(await adminState(), before)
    const bad = await admin('admin', 'PUT', 'entities/adm_Note/attributes/title', {
      type: 'string',
      length: -1,
    })
    assert.equal(bad.status, 422, bad.text)
    assert.deepEqual(paths(bad), ['$.length'])
    assert.equal(await adminState(), before)

    const done = await admin(
      'admin',
      'PUT',
      'entities/adm_Note/attributes/title?allowDataLoss=true',
      narrow
    )
    assert.equal(done.status, 200, done.text)
    assert.deepEqual(done.body.attribute, narrow)
    assert.equal((await db.from('adm_note').first()).title, 'fir')
  })

  test('delete: 409 while it holds values, 422 while used, then the column is gone', async ({
    assert,
  }) => {
    await ok(admin('admin', 'POST', 'fetch-plans', PLAN), 201)
    const before = await adminState()
    const refused = await admin('admin', 'DELETE', 'entities/adm_Note/attributes/body')
    assert.equal(refused.status, 409, refused.text)
    assert.match(JSON.stringify(refused.body.risks), /body/)
    const used = await admin('admin', 'DELETE', 'entities/adm_Note/attributes/priority')
    assert.equal(used.status, 422, used.text)
    assert.match(
      paths(used)[0],
      /^\$\.fetchPlans\[\?\(@\.entity=='adm_Note' && @\.name=='note-brief'\)\]/
    )
    for (const path of ['entities/adm_Note/attributes/none', 'entities/adm_None/attributes/body'])
      assert.equal((await admin('admin', 'DELETE', path)).status, 404, path)
    assert.equal(await adminState(), before)

    const v = versionOf(refused)
    const done = await admin(
      'admin',
      'DELETE',
      'entities/adm_Note/attributes/body?allowDataLoss=true'
    )
    assert.equal(done.status, 200, done.text)
    assert.equal(versionOf(done), v + 1)
    assert.notInclude(await columns('adm_note'), 'body')
    assert.deepEqual(
      done.body.entity.attributes.map((a: any) => a.name),
      ['title', 'priority']
    )
    assert.deepInclude(await lastAudit(), { elements: ['entities:adm_Note'] })
  })

  test('indexes: the list is replaced; 422 with paths; 409 for duplicates; 404', async ({
    assert,
  }) => {
    const list = [{ attributes: ['title', 'priority'] }, { attributes: ['priority'], unique: true }]
    const plan = await admin('admin', 'PUT', 'entities/adm_Note/indexes?dryRun=true', list)
    assert.equal(plan.body.status, 'dry-run', plan.text)
    assert.match(plan.body.steps.flatMap((s: any) => s.sql).join('\n'), /create unique index/i)
    assert.deepEqual(await indexes('adm_note'), [])

    const done = await admin('admin', 'PUT', 'entities/adm_Note/indexes', list)
    assert.equal(done.status, 200, done.text)
    assert.deepEqual(done.body.entity.indexes, list)
    assert.deepEqual(await indexes('adm_note'), ['title,priority', 'unique priority'])

    const before = await adminState()
    const bad = await admin('admin', 'PUT', 'entities/adm_Note/indexes', [
      { attributes: ['nothing'] },
      { attributes: ['title'], sorted: true },
    ])
    assert.equal(bad.status, 422, bad.text)
    assert.includeMembers(paths(bad), ['$[1].sorted'])
    const unknown = await admin('admin', 'PUT', 'entities/adm_Note/indexes', [
      { attributes: ['nothing'] },
    ])
    assert.equal(unknown.status, 422, unknown.text)
    assert.match(paths(unknown)[0], /^\$\[0\]/)
    const notList = await admin('admin', 'PUT', 'entities/adm_Note/indexes', { attributes: [] })
    assert.deepEqual(paths(notList), ['$'])
    assert.equal((await admin('admin', 'PUT', 'entities/adm_None/indexes', [])).status, 404)
    await db
      .table('adm_note')
      .insert({ id: '00000000-0000-4000-8000-000000000002', title: 'first' })
    const duplicates = await admin('admin', 'PUT', 'entities/adm_Note/indexes', [
      { attributes: ['title'], unique: true },
    ])
    assert.equal(duplicates.status, 409, duplicates.text)
    await db.from('adm_note').where('id', '00000000-0000-4000-8000-000000000002').delete()
    assert.equal(await adminState(), before)

    const cleared = await admin('admin', 'PUT', 'entities/adm_Note/indexes', [])
    assert.equal(cleared.status, 200, cleared.text)
    assert.notProperty(cleared.body.entity, 'indexes')
    assert.deepEqual(await indexes('adm_note'), [])
  })
})
