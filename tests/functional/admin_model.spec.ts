/**
 * Admin API, entities one at a time: create (dry run, then apply, then usable in /rest), read,
 * replace, rename (data kept), delete (refused while referenced or holding rows), validation
 * problems pointing into the body, 404s, 409s. Access and If-Match: admin_model_access.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors, versionOf } from '#tests/helpers/admin'
import {
  NOTE,
  NOTE_ID,
  PLAN,
  TASK,
  lastAudit,
  noteAndTask,
  ok,
  paths,
  tables,
} from './admin_model_fixtures.js'

test.group('admin API: model entities', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('create an entity with a relation: dry run plans SQL and changes nothing, then apply', async ({
    assert,
  }) => {
    await ok(admin('admin', 'POST', 'entities', NOTE), 201)
    const before = await adminState()
    const plan = await admin('admin', 'POST', 'entities?dryRun=true', TASK)
    assert.equal(plan.status, 200, plan.text)
    assert.equal(plan.body.status, 'dry-run')
    assert.include(plan.body.changes.join('\n'), 'adm_Task')
    const sql = plan.body.steps.flatMap((s: any) => s.sql).join('\n')
    assert.match(sql, /create table "?adm_task/i)
    assert.match(sql, /note_id/)
    assert.equal(plan.body.entity.name, 'adm_Task')
    assert.equal(plan.body.entity.table, 'adm_task')
    assert.equal(await adminState(), before)

    const v0 = versionOf(plan)
    const apply = await admin('admin', 'POST', 'entities', TASK, { 'If-Match': `"${v0}"` })
    assert.equal(apply.status, 201, apply.text)
    assert.equal(apply.body.status, 'applied')
    assert.equal(versionOf(apply), v0 + 1)
    assert.deepEqual(apply.body.entity, { ...TASK, table: 'adm_task' })
    assert.isTrue((await tables()).has('adm_task'))
    assert.deepInclude(await lastAudit(), {
      author: 'root',
      count: 2,
      elements: ['entities:adm_Task'],
      diff: ['entities:adm_Task:created'],
    })

    await db.table('adm_note').insert({ id: NOTE_ID, title: 'first' })
    const taskId = '00000000-0000-4000-8000-0000000000a1'
    await db.table('adm_task').insert({ id: taskId, label: 'do it', note_id: NOTE_ID })
    const plan2 = { entity: 'adm_Task', name: 'task-full', properties: ['label', 'note'] }
    await ok(admin('admin', 'POST', 'fetch-plans', plan2), 201)
    const rest = await admin(
      'admin',
      'GET',
      `/rest/entities/adm_Task/${taskId}?fetchPlan=task-full`
    )
    assert.equal(rest.status, 200, rest.text)
    assert.equal(rest.body.label, 'do it')
    assert.equal(rest.body.note.id, NOTE_ID)
    const list = await admin('admin', 'GET', '/rest/entities/adm_Note')
    assert.deepEqual(
      list.body.map((n: any) => n.title),
      ['first']
    )
  })

  test('list and read entities with their table names; 404 for an unknown one', async ({
    assert,
  }) => {
    await noteAndTask(false)
    await ok(
      admin('admin', 'POST', 'entities', { ...NOTE, name: 'adm_Big', table: 'adm_big_t' }),
      201
    )
    const list = await admin('admin', 'GET', 'entities')
    assert.equal(list.status, 200)
    assert.equal(versionOf(list), 3)
    assert.deepEqual(
      list.body.map((e: any) => [e.name, e.table]),
      [
        ['adm_Note', 'adm_note'],
        ['adm_Task', 'adm_task'],
        ['adm_Big', 'adm_big_t'],
      ]
    )
    const one = await admin('admin', 'GET', 'entities/adm_Note')
    assert.deepEqual(one.body, { ...NOTE, table: 'adm_note' })
    assert.equal(versionOf(one), 3)
    const encoded = await admin('admin', 'GET', 'entities/adm%5FNote')
    assert.equal(encoded.status, 200)
    for (const path of ['entities/adm_None', 'entities/adm_none']) {
      const missing = await admin('admin', 'GET', path)
      assert.equal(missing.status, 404, path)
      assert.equal(missing.body.error, 'Not found')
    }
  })

  test('create: 409 for an existing name, 422 with paths into the body, nothing changed', async ({
    assert,
  }) => {
    await noteAndTask(false)
    const before = await adminState()
    const taken = await admin('admin', 'POST', 'entities', { ...NOTE, attributes: [] })
    assert.equal(taken.status, 409)
    assert.equal(taken.body.error, 'Conflict')
    const bad = await admin('admin', 'POST', 'entities', {
      name: 'adm_Bad',
      colour: 'red',
      attributes: [
        { name: 'a', type: 'varchar(10)' },
        { name: 'b', type: 'association', target: 'adm_Nowhere', cardinality: 'MANY_TO_ONE' },
      ],
    })
    assert.equal(bad.status, 422, bad.text)
    assert.equal(bad.body.error, 'Invalid definition')
    assert.includeMembers(paths(bad), ['$.colour', '$.attributes[0].type'])
    const target = await admin('admin', 'POST', 'entities', {
      name: 'adm_Bad',
      attributes: [
        { name: 'b', type: 'association', target: 'adm_Nowhere', cardinality: 'MANY_TO_ONE' },
      ],
    })
    assert.equal(target.status, 422, target.text)
    assert.deepEqual(paths(target), ['$.attributes[0].target'])
    const array = await admin('admin', 'POST', 'entities', [NOTE])
    assert.equal(array.status, 422)
    assert.deepEqual(paths(array), ['$'])
    // A JSON scalar never reaches the controller: the body parser refuses it (same 422 shape).
    const scalar = await admin('admin', 'POST', 'entities', '"adm_Note"', {
      'Content-Type': 'application/json',
    })
    assert.equal(scalar.status, 422)
    assert.properties(scalar.body, ['error', 'details'])
    const empty = await admin('admin', 'POST', 'entities', {})
    assert.equal(empty.status, 422)
    assert.includeMembers(paths(empty), ['$.name'])
    assert.equal(await adminState(), before)
  })

  test('replace: attributes not listed are removed, data loss refused unless allowed', async ({
    assert,
  }) => {
    await noteAndTask()
    const replaced = {
      ...NOTE,
      caption: { en: 'Note' },
      attributes: [NOTE.attributes[0], { name: 'done', type: 'boolean' }],
    }
    const before = await adminState()
    const refused = await admin('admin', 'PUT', 'entities/adm_Note', replaced)
    assert.equal(refused.status, 409, refused.text)
    assert.equal(refused.body.error, 'Data loss')
    assert.match(JSON.stringify(refused.body.risks), /body/)
    assert.equal(await adminState(), before)

    const dry = await admin(
      'admin',
      'PUT',
      'entities/adm_Note?dryRun=true&allowDataLoss=true',
      replaced
    )
    assert.equal(dry.body.status, 'dry-run')
    assert.equal(await adminState(), before)

    const done = await admin('admin', 'PUT', 'entities/adm_Note?allowDataLoss=true', replaced)
    assert.equal(done.status, 200, done.text)
    assert.deepEqual(done.body.entity, { ...replaced, table: 'adm_note' })
    const row = await db.from('adm_note').first()
    assert.notProperty(row, 'body')
    assert.notProperty(row, 'priority')
    assert.equal(row.title, 'first')
    assert.deepInclude(await lastAudit(), {
      elements: ['entities:adm_Note'],
      diff: ['entities:adm_Note:changed'],
    })
    const read = await admin('admin', 'GET', 'entities/adm_Note')
    assert.deepEqual(read.body, { ...replaced, table: 'adm_note' })

    const same = await admin('admin', 'PUT', 'entities/adm_Note', replaced)
    assert.equal(same.body.status, 'unchanged')
    assert.equal(versionOf(same), versionOf(done))
  })

  test('replace with another name renames: table, rows, relations and fetch plans follow', async ({
    assert,
  }) => {
    await noteAndTask()
    await ok(admin('admin', 'POST', 'fetch-plans', PLAN), 201)
    await db.from('adm_note').update({ priority: 3 })
    // The entity and one of its attributes at once (`renamedFrom` inside the body).
    const rank = { name: 'rank', type: 'int', renamedFrom: 'priority' }
    const memo = { ...NOTE, name: 'adm_Memo', attributes: [...NOTE.attributes.slice(0, 2), rank] }
    const renamed = await admin('admin', 'PUT', 'entities/adm_Note', memo)
    assert.equal(renamed.status, 200, renamed.text)
    assert.deepEqual(renamed.body.entity, {
      ...memo,
      table: 'adm_memo',
      attributes: [...NOTE.attributes.slice(0, 2), { name: 'rank', type: 'int' }],
    })
    const all = await tables()
    assert.isTrue(all.has('adm_memo'))
    assert.isFalse(all.has('adm_note'))
    assert.deepInclude(await db.from('adm_memo').first(), { body: 'keep me', rank: 3 })
    const task = await admin('admin', 'GET', 'entities/adm_Task')
    assert.equal(task.body.attributes[1].target, 'adm_Memo')
    const plans = await admin('admin', 'GET', 'fetch-plans')
    assert.deepEqual(plans.body, [{ ...PLAN, entity: 'adm_Memo', properties: ['title', 'rank'] }])
    assert.equal((await admin('admin', 'GET', 'entities/adm_Note')).status, 404)
    const rest = await admin('admin', 'GET', `/rest/entities/adm_Memo/${NOTE_ID}`)
    assert.equal(rest.body.body, 'keep me')

    const before = await adminState()
    const onto = await admin('admin', 'PUT', 'entities/adm_Memo', { ...NOTE, name: 'adm_Task' })
    assert.equal(onto.status, 409)
    assert.equal(onto.body.error, 'Conflict')
    const missing = await admin('admin', 'PUT', 'entities/adm_Note', NOTE)
    assert.equal(missing.status, 404)
    const bad = await admin('admin', 'PUT', 'entities/adm_Memo', { ...NOTE, attributes: 'none' })
    assert.equal(bad.status, 422)
    assert.deepEqual(paths(bad), ['$.attributes'])
    assert.equal(await adminState(), before)
  })

  test('delete: 422 while referenced, 409 with rows, then gone with its fetch plans', async ({
    assert,
  }) => {
    await noteAndTask()
    await ok(admin('admin', 'POST', 'fetch-plans', PLAN), 201)
    const before = await adminState()
    const referenced = await admin('admin', 'DELETE', 'entities/adm_Note')
    assert.equal(referenced.status, 422, referenced.text)
    assert.include(
      paths(referenced),
      `$.entities[?(@.name=='adm_Task')].attributes[?(@.name=='note')].target`
    )
    assert.equal(await adminState(), before)

    await ok(admin('admin', 'DELETE', 'entities/adm_Task'))
    assert.isFalse((await tables()).has('adm_task'))
    assert.deepInclude(await lastAudit(), { diff: ['entities:adm_Task:deleted'] })
    const withRows = await adminState()
    const refused = await admin('admin', 'DELETE', 'entities/adm_Note')
    assert.equal(refused.status, 409, refused.text)
    assert.equal(refused.body.error, 'Data loss')
    assert.equal(await adminState(), withRows)

    const gone = await admin('admin', 'DELETE', 'entities/adm_Note?allowDataLoss=true')
    assert.equal(gone.status, 200, gone.text)
    assert.equal(gone.body.status, 'applied')
    assert.isFalse((await tables()).has('adm_note'))
    assert.deepEqual((await admin('admin', 'GET', 'fetch-plans')).body, [])
    assert.deepInclude(await lastAudit(), {
      elements: ['entities:adm_Note', 'fetchPlans:adm_Note/note-brief'],
    })
    assert.equal((await admin('admin', 'DELETE', 'entities/adm_Note')).status, 404)
  })
})
