/**
 * Admin API, the definition as a whole: export (JSON, YAML), plan, apply, who may call it,
 * validation errors with their paths, data-loss refusals, stale If-Match, and for every refused
 * request that nothing changed.
 */
import { test } from '@japa/runner'
import YAML from 'yaml'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors, versionOf } from '#tests/helpers/admin'

const NOTE = {
  name: 'adm_Note',
  attributes: [
    { name: 'title', type: 'string', length: 80, mandatory: true },
    { name: 'body', type: 'text' },
  ],
}
const doc = (extra: Record<string, unknown> = {}) => ({ formatVersion: 1, ...extra })

test.group('admin API: definition', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('who may call it: 401 anonymous, 403 plain user and full-access client, 200 admins', async ({
    assert,
  }) => {
    const before = await adminState()
    for (const [actor, status] of [
      ['anonymous', 401],
      ['plain', 403],
      ['fullAccess', 403],
    ] as const) {
      const read = await admin(actor, 'GET', 'definition')
      assert.equal(read.status, status, actor)
      assert.properties(read.body, ['error', 'details'])
      const apply = await admin(actor, 'POST', 'definition/apply', doc({ entities: [NOTE] }))
      assert.equal(apply.status, status, actor)
    }
    assert.match(
      (await admin('anonymous', 'GET', 'definition')).headers.get('www-authenticate')!,
      /^Bearer/
    )
    assert.equal(await adminState(), before)
    for (const actor of ['admin', 'adminClient'] as const)
      assert.equal((await admin(actor, 'GET', 'definition')).status, 200, actor)
  })

  test('anonymous URL patterns never open the admin API', async ({ assert }) => {
    const set = await admin('admin', 'POST', 'definition/apply', {
      formatVersion: 1,
      settings: { 'svc.rest.anonymous-url-patterns': '/admin/api/**' },
    })
    assert.equal(set.status, 200, set.text)
    const read = await admin('anonymous', 'GET', 'definition')
    assert.equal(read.status, 401)
  })

  test('export as JSON and YAML carries the definition version as ETag', async ({ assert }) => {
    const json = await admin('admin', 'GET', 'definition')
    assert.equal(json.body.formatVersion, 1)
    const version = versionOf(json)
    assert.isAtLeast(version, 0)
    const yaml = await admin('admin', 'GET', 'definition', undefined, {
      Accept: 'application/yaml',
    })
    assert.equal(yaml.status, 200)
    assert.match(yaml.headers.get('content-type')!, /^application\/yaml/)
    assert.deepEqual(YAML.parse(yaml.text), json.body)
    assert.equal(versionOf(yaml), version)
  })

  test('plan shows changes and SQL and changes nothing; apply applies it with one audit entry', async ({
    assert,
  }) => {
    const before = await adminState()
    const plan = await admin('admin', 'POST', 'definition/plan', doc({ entities: [NOTE] }))
    assert.equal(plan.status, 200, plan.text)
    assert.equal(plan.body.status, 'dry-run')
    assert.include(plan.body.changes.join('\n'), 'adm_Note')
    assert.match(plan.body.steps.flatMap((s: any) => s.sql).join('\n'), /create table "?adm_note/i)
    assert.equal(await adminState(), before)

    const v0 = versionOf(plan)
    const apply = await admin('admin', 'POST', 'definition/apply', doc({ entities: [NOTE] }), {
      'If-Match': `"${v0}"`,
    })
    assert.equal(apply.status, 200, apply.text)
    assert.equal(apply.body.status, 'applied')
    assert.equal(apply.body.definitionVersion, v0 + 1)
    assert.equal(versionOf(apply), v0 + 1)
    const audit = await db.from('mg_audit').orderBy('id', 'desc').first()
    assert.equal(audit.author, 'root')
    assert.equal(Number(audit.definition_version), v0 + 1)
    const elements = await db.from('mg_audit_elements').where('audit_id', audit.id)
    assert.deepEqual(
      elements.map((e) => `${e.section}:${e.element}`),
      ['entities:adm_Note']
    )

    const again = await admin('admin', 'POST', 'definition/apply', doc({ entities: [NOTE] }))
    assert.equal(again.body.status, 'unchanged')
    assert.equal(versionOf(again), v0 + 1)
  })

  test('a YAML body is read like JSON', async ({ assert }) => {
    const apply = await admin(
      'admin',
      'POST',
      'definition/apply',
      YAML.stringify(doc({ entities: [NOTE] })),
      { 'Content-Type': 'application/yaml' }
    )
    assert.equal(apply.status, 200, apply.text)
    assert.equal(apply.body.status, 'applied')
  })

  test('an invalid document is 422 with every problem and its path, on plan and apply', async ({
    assert,
  }) => {
    const before = await adminState()
    const bad = doc({
      entities: [
        { ...NOTE, attributes: [{ name: 'title', type: 'varchar(10)', mandatroy: true }] },
      ],
    })
    for (const endpoint of ['definition/plan', 'definition/apply']) {
      const reply = await admin('admin', 'POST', endpoint, bad)
      assert.equal(reply.status, 422, endpoint)
      assert.equal(reply.body.error, 'Invalid definition')
      const paths = reply.body.problems.map((p: any) => p.path)
      assert.includeMembers(paths, [
        '$.entities[0].attributes[0].mandatroy',
        '$.entities[0].attributes[0].type',
      ])
    }
    const notJson = await admin('admin', 'POST', 'definition/apply', 'a: [', {
      'Content-Type': 'application/yaml',
    })
    assert.equal(notJson.status, 422)
    assert.equal(notJson.body.problems[0].path, '$')
    assert.equal(await adminState(), before)
  })

  test('data loss is refused with 409 naming the risk unless allowDataLoss=true', async ({
    assert,
  }) => {
    await admin('admin', 'POST', 'definition/apply', doc({ entities: [NOTE] }))
    await db
      .table('adm_note')
      .insert({ id: '00000000-0000-4000-8000-000000000001', title: 'x', body: 'keep' })
    const dropped = doc({ prune: true, entities: [{ ...NOTE, attributes: [NOTE.attributes[0]] }] })
    const before = await adminState()
    const plan = await admin('admin', 'POST', 'definition/plan', dropped)
    assert.equal(plan.status, 200, plan.text)
    assert.equal(plan.body.status, 'refused')
    assert.deepInclude(plan.body.risks[0], { table: 'adm_note', rows: 1, overridable: true })
    assert.match(plan.body.steps.flatMap((s: any) => s.sql).join('\n'), /adm_note/i)
    const refused = await admin('admin', 'POST', 'definition/apply', dropped)
    assert.equal(refused.status, 409)
    assert.equal(refused.body.error, 'Data loss')
    assert.match(JSON.stringify(refused.body.risks), /body/)
    assert.equal(await adminState(), before)
    const allowed = await admin('admin', 'POST', 'definition/apply?allowDataLoss=true', dropped)
    assert.equal(allowed.status, 200, allowed.text)
    assert.notProperty(await db.from('adm_note').first(), 'body')
  })

  test('a stale If-Match is 412 and changes nothing; without If-Match scripts may change', async ({
    assert,
  }) => {
    const v0 = versionOf(await admin('admin', 'GET', 'definition'))
    await admin('admin', 'POST', 'definition/apply', doc({ entities: [NOTE] }))
    const before = await adminState()
    const stale = await admin(
      'adminClient',
      'POST',
      'definition/apply',
      doc({ settings: { 'svc.rest.max-bulk-size': 5 } }),
      { 'If-Match': `"${v0}"` }
    )
    assert.equal(stale.status, 412)
    assert.equal(stale.body.error, 'Precondition failed')
    assert.equal(versionOf(stale), v0 + 1)
    assert.equal(await adminState(), before)
    const garbage = await admin('admin', 'POST', 'definition/apply', doc({ settings: {} }), {
      'If-Match': 'nonsense',
    })
    assert.equal(garbage.status, 412)
  })

  test('importing the export plans zero operations', async ({ assert }) => {
    await admin('admin', 'POST', 'definition/apply', doc({ entities: [NOTE] }))
    const exported = await admin('admin', 'GET', 'definition')
    const plan = await admin('admin', 'POST', 'definition/plan', exported.body)
    assert.equal(plan.status, 200)
    assert.equal(plan.body.status, 'unchanged')
    assert.deepEqual(plan.body.changes, [])
    assert.deepEqual(plan.body.steps, [])
  })
})
