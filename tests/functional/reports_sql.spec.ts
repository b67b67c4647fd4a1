/**
 * SQL datasets through the real server: a caller needs the specific policy
 * `reports.sql.enabled` (403 without it), values arrive as bindings, and the statement runs in
 * a read-only transaction (PostgreSQL refuses a write the shape check lets through; SQLite's
 * connection is never left read-only afterwards). Shapes refused at save time:
 * reports_admin_invalid.spec.ts and tests/unit/reports_sql_shape.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { admin } from '#tests/helpers/admin'
import { applyDoc } from '#tests/helpers/engine'
import { USERS, call, dataState } from '#tests/helpers/security'
import { R, ROWS } from './reports_fixtures.js'
import { executionsRecorded, setupReportsAdmin } from './reports_admin_fixtures.js'

const SQL_ID = '6f1c3c1e-0000-4000-8000-0000000000c1'
const PROBE_ID = '6f1c3c1e-0000-4000-8000-0000000000c2'
const pg = () => db.connection().dialect.name === 'postgres'

const sqlReport = (id: string, name: string, sql: string) => ({
  id,
  name,
  restAccess: true,
  inputParameters: [{ name: 'Region', alias: 'region', type: 'TEXT' }],
  bands: [{ name: 'Rows', datasets: [{ type: 'sql', sql }] }],
  templates: [{ code: 'DEFAULT', outputType: 'JSON', default: true }],
})

const names = (reply: { body: any }) =>
  reply.body.Root.bands.Rows.map((r: any) => [r.fields.name, r.fields.region])

test.group('Reports: SQL datasets', (group) => {
  group.setup(async () => {
    await setupReportsAdmin()
    const alice = USERS.find((u) => u.username === 'alice')!
    await applyDoc({
      resourceRoles: [
        {
          code: 'report-sql',
          scopes: ['API'],
          childRoles: [],
          specificPolicies: ['reports.sql.enabled'],
        },
      ],
      users: [{ ...alice, resourceRoles: [...alice.resourceRoles, 'report-user', 'report-sql'] }],
    })
    const created = await admin(
      'admin',
      'POST',
      'reports',
      sqlReport(
        SQL_ID,
        'SQL customers',
        'select name as "name", region as "region" from sec_customer where region = ${region} order by name'
      )
    )
    if (created.status !== 201) throw new Error(created.text)
  })

  test('runs for a caller with reports.sql.enabled; values are bindings', async ({ assert }) => {
    const before = await dataState()
    const us = await call('alice', 'POST', `${R}/run/${SQL_ID}`, {
      parameters: [{ name: 'region', value: 'US' }],
    })
    assert.equal(us.status, 200, JSON.stringify(us.body))
    // SQL reads past row-level security (alice's roles show EU only): hence the policy.
    assert.deepEqual(names(us), [
      ['Carla', 'US'],
      ['Uma', 'US'],
    ])
    const injected = await call('alice', 'POST', `${R}/run/${SQL_ID}`, {
      parameters: [{ name: 'region', value: "EU' or '1'='1" }],
    })
    assert.equal(injected.status, 200)
    assert.deepEqual(names(injected), [])
    // The admin's band preview (system-full-access holds the policy through `*`).
    const preview = await admin('admin', 'POST', `reports/${SQL_ID}/preview`, {
      band: 'Rows',
      parameters: [{ name: 'region', value: 'EU' }],
    })
    assert.equal(preview.status, 200, preview.text)
    assert.deepEqual(preview.body.rows, [
      { name: 'Emil', region: 'EU' },
      { name: 'Erika', region: 'EU' },
    ])
    assert.equal(await dataState(), before)
  })

  test('403 without reports.sql.enabled; recorded as refused', async ({ assert }) => {
    await db.from('mg_report_executions').delete()
    const bob = await call('bob', 'POST', `${R}/run/${SQL_ID}`, {
      parameters: [{ name: 'region', value: 'US' }],
    })
    assert.equal(bob.status, 403)
    assert.include(bob.body.details, 'reports.sql.enabled')
    assert.notInclude(JSON.stringify(bob.body), 'Uma')
    await executionsRecorded(1)
    const rows = await db.from('mg_report_executions').select('*')
    assert.deepEqual(
      rows.map((r: any) => [r.username, r.outcome]),
      [['bob', 'refused']]
    )
  })

  test('a write the shape check lets through is refused by the read-only transaction', async ({
    assert,
  }) => {
    // nextval() writes (the sequence); the sequence name is a string literal, so it passes.
    if (pg()) await db.rawQuery('create sequence if not exists report_probe_seq')
    const created = await admin(
      'admin',
      'POST',
      'reports',
      sqlReport(PROBE_ID, 'SQL probe', `select nextval('report_probe_seq') as "n"`)
    )
    assert.equal(created.status, 201, created.text)
    const before = await dataState()
    const run = await call('alice', 'POST', `${R}/run/${PROBE_ID}`, {})
    assert.equal(run.status, 400, JSON.stringify(run.body))
    assert.equal(run.body.error, 'Run report error')
    if (pg()) {
      assert.match(run.body.details, /read-only transaction/)
      const seq = await db.rawQuery('select is_called from report_probe_seq')
      assert.isFalse(seq.rows[0].is_called, 'the sequence never advanced')
    } else assert.match(run.body.details, /nextval/)
    assert.equal(await dataState(), before)
    // The connection is not left read-only: writes after SQL runs go through.
    if (!pg()) assert.equal((await db.rawQuery('pragma query_only'))[0].query_only, 0)
    const write = await call('alice', 'PUT', `/rest/entities/sec_Customer/${ROWS.eu1}`, {
      email: 'new@example.com',
    })
    assert.equal(write.status, 200, JSON.stringify(write.body))
    const row = await db.from('sec_customer').where('id', ROWS.eu1).first()
    assert.equal(row.email, 'new@example.com')
  })
})
