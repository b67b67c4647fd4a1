/**
 * Admin API, enums and fetch plans one at a time: list, read, create (dry run, apply), replace,
 * rename, delete (422 naming what still uses them), 404s, 409 conflicts, 422 paths into the
 * body, one audit entry per change, and the plans visible in the /rest metadata at once.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors, versionOf } from '#tests/helpers/admin'
import { NOTE_ID, PLAN, STATUS, lastAudit, noteAndTask, ok, paths } from './admin_model_fixtures.js'

const STATE = { name: 'state', type: 'enum', enum: 'adm.Status' }

test.group('admin API: model enums', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await noteAndTask()
  })

  test('create (dry run, then apply), list, read by a dotted name, 404', async ({ assert }) => {
    const before = await adminState()
    const plan = await admin('admin', 'POST', 'enums?dryRun=true', STATUS)
    assert.equal(plan.status, 200, plan.text)
    assert.equal(plan.body.status, 'dry-run')
    assert.include(plan.body.changes.join('\n'), 'adm.Status')
    assert.deepEqual(plan.body.enum, STATUS)
    assert.equal(await adminState(), before)

    const created = await admin('admin', 'POST', 'enums', STATUS)
    assert.equal(created.status, 201, created.text)
    assert.deepEqual(created.body.enum, STATUS)
    assert.equal(versionOf(created), versionOf(plan) + 1)
    assert.deepInclude(await lastAudit(), {
      count: 3,
      elements: ['enums:adm.Status'],
      diff: ['enums:adm.Status:created'],
    })
    assert.deepEqual((await admin('admin', 'GET', 'enums')).body, [STATUS])
    const one = await admin('admin', 'GET', 'enums/adm.Status')
    assert.deepEqual(one.body, STATUS)
    assert.equal(versionOf(one), versionOf(created))
    assert.equal((await admin('admin', 'GET', 'enums/adm.Missing')).status, 404)

    await ok(admin('admin', 'POST', 'entities/adm_Note/attributes', STATE), 201)
    await db.from('adm_note').update({ state: 'D' })
    const rest = await admin('admin', 'GET', `/rest/entities/adm_Note/${NOTE_ID}`)
    assert.equal(rest.body.state, 'DONE')
  })

  test('create: 409 for an existing name, 422 with paths into the body', async ({ assert }) => {
    await ok(admin('admin', 'POST', 'enums', STATUS), 201)
    const before = await adminState()
    const taken = await admin('admin', 'POST', 'enums', { ...STATUS, values: [] })
    assert.equal(taken.status, 409)
    assert.equal(taken.body.error, 'Conflict')
    const bad = await admin('admin', 'POST', 'enums', {
      name: 'adm.Bad',
      values: [{ name: 'A', id: true }, { name: 'B' }],
      colour: 'red',
    })
    assert.equal(bad.status, 422, bad.text)
    assert.includeMembers(paths(bad), ['$.values[0].id', '$.values[1].id', '$.colour'])
    const name = await admin('admin', 'POST', 'enums', { ...STATUS, name: 'adm..Bad' })
    assert.equal(name.status, 422, name.text)
    assert.deepEqual(paths(name), ['$.name'])
    assert.deepEqual(paths(await admin('admin', 'POST', 'enums', [STATUS])), ['$'])
    assert.equal(await adminState(), before)
  })

  test('replace, rename (attributes follow), delete refused while used', async ({ assert }) => {
    await ok(admin('admin', 'POST', 'enums', STATUS), 201)
    await ok(admin('admin', 'POST', 'entities/adm_Note/attributes', STATE), 201)
    const values = [...STATUS.values, { name: 'LATE', id: 'L', caption: { en: 'Late' } }]
    const replaced = await admin('admin', 'PUT', 'enums/adm.Status', { values })
    assert.equal(replaced.status, 200, replaced.text)
    assert.deepEqual(replaced.body.enum, { name: 'adm.Status', values })
    assert.deepInclude(await lastAudit(), { diff: ['enums:adm.Status:changed'] })

    const renamed = await admin('admin', 'PUT', 'enums/adm.Status', {
      name: 'adm.TaskState',
      values,
    })
    assert.equal(renamed.status, 200, renamed.text)
    assert.equal(renamed.body.enum.name, 'adm.TaskState')
    const note = await admin('admin', 'GET', 'entities/adm_Note')
    assert.equal(note.body.attributes[3].enum, 'adm.TaskState')
    assert.equal((await admin('admin', 'GET', 'enums/adm.Status')).status, 404)
    assert.deepEqual((await lastAudit()).elements, [
      'entities:adm_Note',
      'enums:adm.Status',
      'enums:adm.TaskState',
    ])

    await ok(admin('admin', 'POST', 'enums', { ...STATUS, name: 'adm.Other' }), 201)
    const before = await adminState()
    const used = await admin('admin', 'DELETE', 'enums/adm.TaskState')
    assert.equal(used.status, 422, used.text)
    assert.include(
      paths(used),
      `$.entities[?(@.name=='adm_Note')].attributes[?(@.name=='state')].enum`
    )
    const badValue = await admin('admin', 'PUT', 'enums/adm.TaskState', { values: [{ id: 'X' }] })
    assert.equal(badValue.status, 422, badValue.text)
    assert.deepEqual(paths(badValue), ['$.values[0].name'])
    const onto = await admin('admin', 'PUT', 'enums/adm.TaskState', { name: 'adm.Other', values })
    assert.equal(onto.status, 409)
    assert.equal((await admin('admin', 'PUT', 'enums/adm.None', { values })).status, 404)
    assert.equal((await admin('admin', 'DELETE', 'enums/adm.None')).status, 404)
    assert.equal(await adminState(), before)

    await ok(admin('admin', 'DELETE', 'entities/adm_Note/attributes/state?allowDataLoss=true'))
    const gone = await admin('admin', 'DELETE', 'enums/adm.TaskState')
    assert.equal(gone.status, 200, gone.text)
    assert.deepEqual(
      (await admin('admin', 'GET', 'enums')).body.map((e: any) => e.name),
      ['adm.Other']
    )
    assert.deepInclude(await lastAudit(), { diff: ['enums:adm.TaskState:deleted'] })
  })
})

test.group('admin API: model fetch plans', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await noteAndTask()
  })

  const metadata = async (entity: string) =>
    (await admin('admin', 'GET', `/rest/metadata/entities/${entity}/fetchPlans`)).body.map(
      (p: any) => p.name
    )

  test('create (dry run, then apply): visible in the /rest metadata; list, filter, read', async ({
    assert,
  }) => {
    const before = await adminState()
    const plan = await admin('admin', 'POST', 'fetch-plans?dryRun=true', PLAN)
    assert.equal(plan.status, 200, plan.text)
    assert.equal(plan.body.status, 'dry-run')
    assert.deepEqual(plan.body.fetchPlan, PLAN)
    assert.equal(await adminState(), before)
    assert.deepEqual(await metadata('adm_Note'), [])

    const created = await admin('admin', 'POST', 'fetch-plans', PLAN)
    assert.equal(created.status, 201, created.text)
    assert.deepEqual(created.body.fetchPlan, PLAN)
    assert.deepEqual(await metadata('adm_Note'), ['note-brief'])
    assert.deepInclude(await lastAudit(), {
      count: 3,
      elements: ['fetchPlans:adm_Note/note-brief'],
      diff: ['fetchPlans:adm_Note/note-brief:created'],
    })
    const task = {
      entity: 'adm_Task',
      name: 'task-note',
      properties: [{ name: 'note', fetchPlan: 'note-brief' }],
    }
    await ok(admin('admin', 'POST', 'fetch-plans', task), 201)
    assert.deepEqual((await admin('admin', 'GET', 'fetch-plans')).body, [PLAN, task])
    assert.deepEqual((await admin('admin', 'GET', 'fetch-plans?entity=adm_Task')).body, [task])
    assert.deepEqual((await admin('admin', 'GET', 'fetch-plans?entity=adm_None')).body, [])
    const one = await admin('admin', 'GET', 'fetch-plans/adm_Task/task-note')
    assert.deepEqual(one.body, task)
    assert.equal(versionOf(one), versionOf(created) + 1)
    for (const path of ['fetch-plans/adm_Task/none', 'fetch-plans/adm_None/task-note'])
      assert.equal((await admin('admin', 'GET', path)).status, 404, path)
  })

  test('create: 409 for an existing plan, 422 with paths into the body', async ({ assert }) => {
    await ok(admin('admin', 'POST', 'fetch-plans', PLAN), 201)
    const before = await adminState()
    const taken = await admin('admin', 'POST', 'fetch-plans', { ...PLAN, properties: [] })
    assert.equal(taken.status, 409)
    const unknown = await admin('admin', 'POST', 'fetch-plans', {
      ...PLAN,
      name: 'other',
      properties: ['title', 'colour'],
    })
    assert.equal(unknown.status, 422, unknown.text)
    assert.deepEqual(paths(unknown), ['$.properties[1]'])
    const shape = await admin('admin', 'POST', 'fetch-plans', {
      entity: 'adm_Note',
      name: 'other',
      properties: [{ fetchPlan: 'x' }],
      sorted: true,
    })
    assert.equal(shape.status, 422, shape.text)
    assert.includeMembers(paths(shape), ['$.properties[0]', '$.sorted'])
    const entity = await admin('admin', 'POST', 'fetch-plans', { ...PLAN, entity: 'adm_None' })
    assert.equal(entity.status, 422, entity.text)
    assert.include(paths(entity), '$.entity')
    assert.equal(await adminState(), before)
  })

  test('replace, move to another name, delete refused while used', async ({ assert }) => {
    await ok(admin('admin', 'POST', 'fetch-plans', PLAN), 201)
    const replaced = await admin('admin', 'PUT', 'fetch-plans/adm_Note/note-brief', {
      extends: '_instance_name',
      properties: ['body'],
    })
    assert.equal(replaced.status, 200, replaced.text)
    assert.deepEqual(replaced.body.fetchPlan, {
      entity: 'adm_Note',
      name: 'note-brief',
      extends: '_instance_name',
      properties: ['body'],
    })
    assert.deepInclude(await lastAudit(), { diff: ['fetchPlans:adm_Note/note-brief:changed'] })
    const rest = await admin(
      'admin',
      'GET',
      `/rest/entities/adm_Note/${NOTE_ID}?fetchPlan=note-brief`
    )
    assert.equal(rest.body.body, 'keep me')
    assert.notProperty(rest.body, 'priority')

    const moved = await admin('admin', 'PUT', 'fetch-plans/adm_Note/note-brief', {
      ...PLAN,
      name: 'note-short',
    })
    assert.equal(moved.status, 200, moved.text)
    assert.deepEqual(await metadata('adm_Note'), ['note-short'])

    await ok(
      admin('admin', 'POST', 'fetch-plans', { ...PLAN, name: 'note-more', extends: 'note-short' }),
      201
    )
    const before = await adminState()
    const used = await admin('admin', 'DELETE', 'fetch-plans/adm_Note/note-short')
    assert.equal(used.status, 422, used.text)
    assert.match(
      paths(used)[0],
      /^\$\.fetchPlans\[\?\(@\.entity=='adm_Note' && @\.name=='note-more'\)\]/
    )
    const onto = await admin('admin', 'PUT', 'fetch-plans/adm_Note/note-short', {
      properties: [],
      name: 'note-more',
    })
    assert.equal(onto.status, 409)
    const bad = await admin('admin', 'PUT', 'fetch-plans/adm_Note/note-short', { properties: 'x' })
    assert.sameMembers([...new Set(paths(bad))], ['$.properties'])
    assert.equal((await admin('admin', 'PUT', 'fetch-plans/adm_Note/none', PLAN)).status, 404)
    assert.equal((await admin('admin', 'DELETE', 'fetch-plans/adm_Note/none')).status, 404)
    assert.equal(await adminState(), before)

    await ok(admin('admin', 'DELETE', 'fetch-plans/adm_Note/note-more'))
    assert.deepInclude(await lastAudit(), { diff: ['fetchPlans:adm_Note/note-more:deleted'] })
    assert.deepEqual(await metadata('adm_Note'), ['note-short'])
  })
})
