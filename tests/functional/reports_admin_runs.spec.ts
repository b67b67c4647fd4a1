/**
 * Reports admin API through the real server: template upload and download, band preview, runs
 * as the admin, the execution history and delete.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { admin, adminState, adminTokens } from '#tests/helpers/admin'
import { baseUrl } from '#tests/helpers/oauth'
import { call } from '#tests/helpers/security'
import { IDS, R } from './reports_fixtures.js'
import {
  CSV_TEMPLATE,
  NEW_ID,
  P,
  download,
  executionsRecorded,
  newReport,
  reportRows,
  setupReportsAdmin,
  upload,
} from './reports_admin_fixtures.js'

test.group('admin API: reports, files and runs', (group) => {
  group.each.setup(async () => {
    await setupReportsAdmin()
  })

  test('template upload (raw bytes), too large 413, download', async ({ assert }) => {
    await admin('admin', 'POST', 'reports', newReport())
    const bytes = Buffer.from('{"hello": "${Root.region}"}')
    const uploaded = await upload(`${P}/templates/json/file?fileName=shape.json`, bytes)
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body))
    const file = await download(`${P}/templates/json/file`)
    assert.deepEqual(file.bytes, bytes)
    const shown = (await admin('admin', 'GET', P)).body.templates[1]
    assert.include(shown, { code: 'json', fileName: 'shape.json', size: bytes.length })
    // The other template's file is untouched.
    assert.deepEqual((await download(`${P}/templates/DEFAULT/file`)).bytes, CSV_TEMPLATE)
    const before = await adminState()
    const large = await upload(
      `${P}/templates/json/file?fileName=big.json`,
      Buffer.alloc(20 * 2 ** 20 + 1, 1)
    )
    assert.equal(large.status, 413)
    const unknown = await upload(`${P}/templates/nope/file?fileName=x.csv`, bytes)
    assert.equal(unknown.status, 404)
    assert.equal(await adminState(), before)
  })

  test('preview: the rows of a band, of a stored and of an unsaved report', async ({ assert }) => {
    const stored = await admin('admin', 'POST', `reports/${IDS.customers}/preview`, {
      band: 'Customers',
      parameters: [{ name: 'region', value: 'EU' }],
    })
    assert.equal(stored.status, 200, stored.text)
    assert.equal(stored.body.band, 'Customers')
    assert.deepEqual(stored.body.fields.slice(0, 2), ['name', 'region'])
    assert.deepEqual(
      stored.body.rows.map((r: any) => r.name),
      ['Emil', 'Erika']
    )
    assert.equal(stored.body.total, 2)
    const lines = await admin('admin', 'POST', `reports/${IDS.orders}/preview`, { band: 'Lines' })
    assert.deepEqual(lines.body.rows.map((r: any) => r.product).sort(), ['ink', 'paper', 'pen'])
    // An unsaved report (not stored at all): its band's rows, nothing stored.
    const before = await reportRows()
    const unsaved = await admin('admin', 'POST', `${P}/preview`, {
      band: 'Customers',
      parameters: [{ name: 'region', value: 'US' }],
      report: newReport(),
    })
    assert.equal(unsaved.status, 200, unsaved.text)
    assert.deepEqual(
      unsaved.body.rows.map((r: any) => [r.name, r.region]),
      [
        ['Carla', 'US'],
        ['Uma', 'US'],
      ]
    )
    const bad = await admin('admin', 'POST', `${P}/preview`, {
      band: 'Customers',
      report: newReport({ bands: [{ name: 'Customers', entity: 'sec_Nope' }] }),
    })
    assert.equal(bad.status, 422)
    assert.deepInclude(
      bad.body.problems.map((p: any) => p.path),
      '$.report.bands[0].datasets[0].entity'
    )
    const unknownBand = await admin('admin', 'POST', `reports/${IDS.customers}/preview`, {
      band: 'Nope',
      parameters: [{ name: 'region', value: 'EU' }],
    })
    assert.equal(unknownBand.status, 422)
    assert.equal(await reportRows(), before)
  })

  test('run as the admin: the document with the reference headers, whatever restAccess', async ({
    assert,
  }) => {
    const ran = await fetch(`${baseUrl()}/admin/api/reports/${IDS.hidden}/run`, {
      method: 'POST',
      headers: {
        'Authorization': `Bearer ${adminTokens.get('admin')}`,
        'Content-Type': 'application/json',
      },
      body: '{}',
    })
    assert.equal(ran.status, 200)
    assert.equal(ran.headers.get('content-type'), 'application/json')
    assert.match(ran.headers.get('content-disposition')!, /^inline; filename=".+\.json"$/)
    assert.equal(ran.headers.get('cache-control'), 'no-cache')
    assert.equal(ran.headers.get('pragma'), 'no-cache')
    assert.equal(ran.headers.get('expires'), '0')
    assert.property((await ran.json()) as object, 'Root')
    // Over REST the same report does not exist for alice.
    assert.equal((await call('alice', 'POST', `${R}/run/${IDS.hidden}`, {})).status, 404)
  })

  test('executions: newest first, filtered by report', async ({ assert }) => {
    const body = { parameters: [{ name: 'region', value: 'EU' }] }
    await admin('admin', 'POST', `reports/${IDS.customers}/run`, body)
    await executionsRecorded(1)
    await admin('admin', 'POST', `reports/${IDS.hidden}/run`, {})
    await executionsRecorded(2)
    await call('alice', 'POST', `${R}/run/${IDS.customers}`, {
      parameters: [{ name: 'region', value: 'US' }],
    })
    await executionsRecorded(3)
    const all = await admin('admin', 'GET', 'reports/executions')
    assert.equal(all.status, 200)
    assert.deepEqual(
      all.body.executions.map((e: any) => [e.reportId, e.user, e.outcome]),
      [
        [IDS.customers, 'alice', 'success'],
        [IDS.hidden, 'root', 'success'],
        [IDS.customers, 'root', 'success'],
      ]
    )
    const first = all.body.executions[2]
    assert.include(first, {
      reportName: 'Customers by region',
      template: 'DEFAULT',
      outputType: 'CSV',
      rows: 2,
      error: null,
    })
    assert.deepEqual(first.parameters, body.parameters)
    const filtered = await admin(
      'admin',
      'GET',
      `reports/executions?report=${IDS.customers}&limit=1`
    )
    assert.deepEqual(
      filtered.body.executions.map((e: any) => e.user),
      ['alice']
    )
  })

  test('delete: 404 over REST and the admin API; the history stays', async ({ assert }) => {
    await admin('admin', 'POST', 'reports', newReport({ restAccess: true }))
    await call('alice', 'POST', `${R}/run/${NEW_ID}`, {
      parameters: [{ name: 'region', value: 'EU' }],
    })
    await executionsRecorded(1)
    const deleted = await admin('admin', 'DELETE', P)
    assert.equal(deleted.status, 200, deleted.text)
    assert.equal((await admin('admin', 'GET', P)).status, 404)
    assert.equal((await call('alice', 'GET', `${R}/report/${NEW_ID}`)).status, 404)
    assert.equal((await call('alice', 'POST', `${R}/run/${NEW_ID}`, {})).status, 404)
    assert.equal((await admin('admin', 'DELETE', P)).status, 404)
    assert.lengthOf(await db.from('mg_report_templates').where('report_id', NEW_ID), 0)
    const history = await db.from('mg_report_executions').where('report_id', NEW_ID)
    assert.lengthOf(history, 1)
    // The other reports are untouched.
    assert.lengthOf((await admin('admin', 'GET', 'reports')).body.reports, 5)
  })
})
