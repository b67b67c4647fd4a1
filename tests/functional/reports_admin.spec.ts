/**
 * Reports admin API (app/reports/README.md "Admin API") through the real server: who may call,
 * list and show, create with a template file, replace keeping the file, PATCH of the REST flag,
 * dry run and stale If-Match. Files, preview, runs, history, delete:
 * reports_admin_runs.spec.ts; refused changes: reports_admin_invalid.spec.ts.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { admin, adminState, assertOutsidersRefused, versionOf } from '#tests/helpers/admin'
import { call } from '#tests/helpers/security'
import { readTemplateFile } from '#reports/store'
import { definitions } from '#definition/main'
import { engine } from '#tests/helpers/engine'
import { GROUP, IDS, R } from './reports_fixtures.js'
import {
  CSV_TEMPLATE,
  NEW_ID,
  P,
  download,
  executionsRecorded,
  newReport,
  reportRows,
  setupReportsAdmin,
  templateRow,
} from './reports_admin_fixtures.js'

test.group('admin API: reports', (group) => {
  group.each.setup(async () => {
    await setupReportsAdmin()
  })

  test('callers without admin.api: 401/403 on every endpoint, nothing changed', async ({
    assert,
  }) => {
    const before = await adminState()
    const id = IDS.customers
    await assertOutsidersRefused(assert, [
      ['GET', 'reports'],
      ['GET', `reports/${id}`],
      ['POST', 'reports', newReport()],
      ['PUT', `reports/${id}`, { name: 'x' }],
      ['PATCH', `reports/${id}`, { restAccess: false }],
      ['DELETE', `reports/${id}`],
      ['GET', `reports/${id}/templates/DEFAULT/file`],
      ['PUT', `reports/${id}/templates/DEFAULT/file?fileName=x.csv`, 'abc'],
      ['POST', `reports/${id}/preview`, { band: 'Customers' }],
      ['POST', `reports/${id}/run`, { parameters: [{ name: 'region', value: 'EU' }] }],
      ['GET', 'reports/executions'],
    ])
    assert.equal(await adminState(), before)
    assert.equal(
      await db
        .from('mg_report_executions')
        .count('* as n')
        .first()
        .then((r: any) => Number(r.n)),
      0
    )
  })

  test('list: summaries, groups and the last run', async ({ assert }) => {
    const list = await admin('admin', 'GET', 'reports')
    assert.equal(list.status, 200)
    assert.deepEqual(list.body.groups, [GROUP])
    const customers = list.body.reports.find((r: any) => r.id === IDS.customers)
    assert.deepEqual(Object.keys(customers).sort(), [
      'code',
      'description',
      'group',
      'id',
      'lastRun',
      'name',
      'parameters',
      'restAccess',
      'roles',
      'templates',
    ])
    assert.include(customers, {
      name: 'Customers by region',
      code: 'CUSTOMERS',
      restAccess: true,
      parameters: 1,
      lastRun: null,
    })
    assert.deepEqual(customers.group, GROUP)
    assert.deepEqual(customers.templates[0], {
      code: 'DEFAULT',
      outputType: 'CSV',
      default: true,
      fileName: null,
    })
    assert.deepEqual(
      list.body.reports.map((r: any) => r.name),
      [
        'Customers by region',
        'Every parameter',
        'Not over REST',
        'Orders with lines',
        'Owners only',
      ]
    )
    const ran = await admin('admin', 'POST', `reports/${IDS.customers}/run`, {
      parameters: [{ name: 'region', value: 'EU' }],
    })
    assert.equal(ran.status, 200, ran.text)
    await executionsRecorded(1)
    const after = (await admin('admin', 'GET', 'reports')).body.reports.find(
      (r: any) => r.id === IDS.customers
    )
    assert.equal(after.lastRun.outcome, 'success')
    assert.isBelow(Math.abs(Date.parse(after.lastRun.startedAt) - Date.now()), 60_000)
    // However many runs of other reports came later.
    const later = Array.from({ length: 1100 }, () => ({
      report_id: IDS.params,
      report_name: 'Every parameter',
      username: 'x',
      source: 'rest',
      started_at: new Date(),
      duration_ms: 1,
      outcome: 'error',
    }))
    for (let i = 0; i < later.length; i += 100)
      await db.table('mg_report_executions').multiInsert(later.slice(i, i + 100))
    const reports = (await admin('admin', 'GET', 'reports')).body.reports
    const last = (id: string) => reports.find((r: any) => r.id === id).lastRun?.outcome
    assert.deepEqual(
      [last(IDS.customers), last(IDS.params), last(IDS.orders)],
      ['success', 'error', undefined]
    )
  })

  test('show: the definition with ETag; unknown 404', async ({ assert }) => {
    const shown = await admin('admin', 'GET', `reports/${IDS.orders}`)
    assert.equal(shown.status, 200)
    assert.equal(versionOf(shown), await definitions(await engine()).version())
    // The band shorthand of the fixture is shown in the canonical form.
    assert.equal(shown.body.bands[0].datasets[0].entity, 'sec_Order')
    assert.equal(shown.body.bands[0].children[0].name, 'Lines')
    const missing = await admin('admin', 'GET', 'reports/6f1c3c1e-0000-4000-8000-0000000000ff')
    assert.equal(missing.status, 404)
    assert.properties(missing.body, ['error', 'details'])
  })

  test('create with a template file: 201, Location, the bytes on the storage and downloadable', async ({
    assert,
  }) => {
    const created = await admin('admin', 'POST', 'reports', newReport())
    assert.equal(created.status, 201, created.text)
    assert.equal(created.headers.get('location'), `/admin/api/${P}`)
    assert.equal(created.body.status, 'applied')
    const shown = await admin('admin', 'GET', P)
    const template = shown.body.templates[0]
    assert.include(template, {
      code: 'DEFAULT',
      fileName: 'customers.csv',
      size: CSV_TEMPLATE.length,
    })
    assert.notProperty(template, 'file')
    const row = await templateRow('DEFAULT')
    assert.match(row.file_key, new RegExp(`^\\w+:reports/${template.sha256}\\.csv$`))
    assert.deepEqual(await readTemplateFile(row.file_key), CSV_TEMPLATE)
    const file = await download(`${P}/templates/DEFAULT/file`)
    assert.equal(file.status, 200)
    assert.deepEqual(file.bytes, CSV_TEMPLATE)
    assert.include(file.headers.get('content-disposition')!, 'customers.csv')
    const none = await admin('admin', 'GET', `${P}/templates/json/file`)
    assert.equal(none.status, 404)
    // Creating it again: 409, nothing changed.
    const before = await reportRows()
    const again = await admin('admin', 'POST', 'reports', newReport())
    assert.equal(again.status, 409)
    assert.equal(await reportRows(), before)
  })

  test('PUT replaces and keeps a stored file when `file` is absent', async ({ assert }) => {
    await admin('admin', 'POST', 'reports', newReport())
    const stored = (await admin('admin', 'GET', P)).body
    const template: Record<string, unknown> = { ...newReport().templates[0] }
    delete template.file
    const replaced = await admin('admin', 'PUT', P, {
      ...newReport({ name: 'Renamed' }),
      templates: [template],
    })
    assert.equal(replaced.status, 200, replaced.text)
    const shown = (await admin('admin', 'GET', P)).body
    assert.equal(shown.name, 'Renamed')
    assert.lengthOf(shown.templates, 1)
    assert.equal(shown.templates[0].sha256, stored.templates[0].sha256)
    assert.deepEqual((await download(`${P}/templates/DEFAULT/file`)).bytes, CSV_TEMPLATE)
    // The id in the body cannot differ from the URL's.
    const before = await reportRows()
    const other = await admin('admin', 'PUT', P, { ...newReport(), id: IDS.hidden })
    assert.equal(other.status, 422)
    assert.equal(await reportRows(), before)
  })

  test('PATCH {restAccess: true}: the report appears over REST', async ({ assert }) => {
    await admin('admin', 'POST', 'reports', newReport())
    const listed = async () =>
      (await call('alice', 'GET', `${R}/report`)).body.map((r: any) => r.id)
    assert.notInclude(await listed(), NEW_ID)
    const patched = await admin('admin', 'PATCH', P, { restAccess: true })
    assert.equal(patched.status, 200, JSON.stringify(patched.body))
    assert.include(await listed(), NEW_ID)
    const shown = (await admin('admin', 'GET', P)).body
    assert.equal(shown.restAccess, true)
    assert.equal(shown.templates[0].size, CSV_TEMPLATE.length, 'the file is kept')
  })

  test('dry run and stale If-Match change nothing', async ({ assert }) => {
    const before = await adminState()
    const dry = await admin('admin', 'POST', 'reports?dryRun=true', newReport())
    assert.equal(dry.status, 200, dry.text)
    assert.include(dry.body.changes.join('\n'), "report 'New customers': created")
    const patchDry = await admin('admin', 'PATCH', `reports/${IDS.hidden}?dryRun=true`, {
      restAccess: true,
    })
    assert.equal(patchDry.status, 200)
    const del = await admin('admin', 'DELETE', `reports/${IDS.hidden}?dryRun=true`)
    assert.equal(del.status, 200)
    assert.equal(await adminState(), before)
    const version = versionOf(await admin('admin', 'GET', 'reports'))
    const stale = { 'If-Match': `"${version - 1}"` }
    const refused = [
      await admin('admin', 'POST', 'reports', newReport(), stale),
      await admin('admin', 'PATCH', `reports/${IDS.hidden}`, { restAccess: true }, stale),
      await admin('admin', 'DELETE', `reports/${IDS.hidden}`, undefined, stale),
    ]
    assert.deepEqual(
      refused.map((r) => r.status),
      [412, 412, 412]
    )
    assert.equal(await adminState(), before)
    const current = await admin(
      'admin',
      'PATCH',
      `reports/${IDS.hidden}`,
      { restAccess: true },
      { 'If-Match': `"${version}"` }
    )
    assert.equal(current.status, 200)
  })
})
