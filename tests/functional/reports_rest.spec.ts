/**
 * Reports REST API (reference 11; README "Reports API") through the real server: listing and
 * visibility (REST flag, role restriction, reports.rest.enabled), details, groups, runs with
 * their headers and errors, every parameter type's conversion and refusal, permissions in the
 * documents, limits, and the execution history.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { parse } from 'csv-parse/sync'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { baseUrl } from '#tests/helpers/oauth'
import { call, dataState, setupSecurityFixture, tokens, type Actor } from '#tests/helpers/security'
import { CUSTOMER, GROUP, IDS, R, ROWS, setupReportsFixture } from './reports_fixtures.js'

/** A run through plain HTTP: the raw bytes and headers. */
async function run(actor: Actor, path: string, body?: unknown, raw?: string) {
  const response = await fetch(`${baseUrl()}${R}${path}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${tokens.get(actor)}`,
      ...(body !== undefined || raw !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  })
  const bytes = Buffer.from(await response.arrayBuffer())
  const text = bytes.toString('utf8')
  let json: any = null
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: response.status, headers: response.headers, bytes, text, json }
}

const region = (value: string) => ({ parameters: [{ name: 'region', value }] })
const executions = () => db.from('mg_report_executions').orderBy('id').select('*')
/** The history once it holds `count` rows (a streamed run is recorded when its stream ends). */
async function executionsSettled(count: number) {
  for (let i = 0; i < 100 && (await executions()).length < count; i++)
    await new Promise((r) => setTimeout(r, 50))
  return executions()
}

test.group('Reports API', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
    await setupReportsFixture()
  })

  test('GET /report lists the reports the caller may see', async ({ assert }) => {
    const alice = await call('alice', 'GET', `${R}/report`)
    assert.equal(alice.status, 200)
    assert.deepEqual(alice.body, [
      { id: IDS.customers, name: 'Customers by region', code: 'CUSTOMERS', group: GROUP.id },
      { id: IDS.params, name: 'Every parameter', code: 'PARAMS' },
      { id: IDS.orders, name: 'Orders with lines' },
    ])
    // carol has crm-owner: the role-restricted report is hers too.
    const carol = await call('carol', 'GET', `${R}/report`)
    assert.includeMembers(
      carol.body.map((r: any) => r.id),
      [IDS.owners, IDS.customers]
    )
  })

  test('without reports.rest.enabled: 403 everywhere; without a token: 401', async ({ assert }) => {
    for (const path of [
      '/report',
      `/report/${IDS.customers}`,
      `/group/${GROUP.id}`,
      '/docs/openapi.json',
    ]) {
      assert.equal((await call('dave', 'GET', `${R}${path}`)).status, 403, path)
      assert.equal((await call('anonymous', 'GET', `${R}${path}`)).status, 401, path)
    }
    const before = (await executions()).length
    const refused = await run('dave', `/run/${IDS.customers}`, region('EU'))
    assert.equal(refused.status, 403)
    assert.equal((await executions()).length, before)
  })

  test('GET /report/{id}: details as upstream; hidden, role-restricted, unknown: 404; bad id: 400', async ({
    assert,
  }) => {
    const details = await call('alice', 'GET', `${R}/report/${IDS.customers}`)
    assert.equal(details.status, 200)
    assert.deepEqual(details.body.inputParameters, [
      { name: 'Region', alias: 'region', type: 'TEXT', required: true, hidden: false },
    ])
    assert.deepEqual(details.body.templates[0], {
      code: 'DEFAULT',
      outputType: 'CSV',
      default: true,
    })
    assert.equal(details.body.templates.length, 7)
    const params = await call('alice', 'GET', `${R}/report/${IDS.params}`)
    const byAlias = Object.fromEntries(params.body.inputParameters.map((p: any) => [p.alias, p]))
    assert.equal(byAlias.customer.entityMetaClass, CUSTOMER)
    assert.equal(byAlias.color.enumerationClass, 'rpt.Color')
    assert.equal(byAlias.day.defaultValue, '2024-01-01')
    for (const id of [IDS.hidden, IDS.owners, '6f1c3c1e-0000-4000-8000-0000000000ff']) {
      const missing = await call('alice', 'GET', `${R}/report/${id}`)
      assert.equal(missing.status, 404)
      assert.deepEqual(missing.body, {
        error: 'Entity not found',
        details: `Entity report_Report with id ${id} not found`,
      })
      assert.equal((await run('alice', `/run/${id}`)).status, 404)
    }
    assert.equal((await call('carol', 'GET', `${R}/report/${IDS.owners}`)).status, 200)
    assert.deepEqual((await call('alice', 'GET', `${R}/report/x`)).body, {
      error: 'Invalid entity ID',
      details: 'Cannot convert x into valid entity ID',
    })
  })

  test('GET /group/{id}; unknown group 404', async ({ assert }) => {
    const found = await call('alice', 'GET', `${R}/group/${GROUP.id}`)
    assert.deepEqual(found.body, GROUP)
    const missing = await call('alice', 'GET', `${R}/group/6f1c3c1e-0000-4000-8000-00000000ffff`)
    assert.equal(missing.status, 404)
    assert.equal(
      missing.body.details,
      'Entity report_ReportGroup with id 6f1c3c1e-0000-4000-8000-00000000ffff not found'
    )
  })

  test('POST /run/{id}: the default template, upstream headers, the caller rows', async ({
    assert,
  }) => {
    const before = await dataState()
    const response = await run('alice', `/run/${IDS.customers}`, region('EU'))
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('content-type'), 'application/csv')
    assert.equal(response.headers.get('content-disposition'), 'inline; filename="customers-EU.csv"')
    assert.equal(response.headers.get('cache-control'), 'no-cache')
    assert.equal(response.headers.get('pragma'), 'no-cache')
    assert.equal(response.headers.get('expires'), '0')
    const rows = parse(response.text, { columns: true, bom: true })
    assert.deepEqual(
      rows.map((r: any) => r.name),
      ['Emil', 'Erika']
    )
    const attached = await run('alice', `/run/code/CUSTOMERS`, {
      ...region('EU'),
      attachment: true,
    })
    assert.match(
      attached.headers.get('content-disposition')!,
      /^attachment; filename="customers-EU\.csv"$/
    )
    assert.equal(await dataState(), before)
  })

  test('template choice: unknown 400; TABLE, CHART, PIVOT_TABLE 400; others render', async ({
    assert,
  }) => {
    const unknown = await run('alice', `/run/${IDS.customers}`, {
      ...region('EU'),
      template: 'nope',
    })
    assert.equal(unknown.status, 400)
    assert.deepEqual(unknown.json, {
      error: 'Template not found',
      details: `Template with code nope not found for report ${IDS.customers}`,
    })
    for (const [code, type] of [
      ['table', 'TABLE'],
      ['chart', 'CHART'],
      ['pivot', 'PIVOT_TABLE'],
    ]) {
      const refused = await run('alice', `/run/${IDS.customers}`, {
        ...region('EU'),
        template: code,
      })
      assert.equal(refused.status, 400, code)
      assert.deepEqual(refused.json, {
        error: 'Run report error',
        details: `${type} report output type is not supported by Reporting REST API`,
      })
    }
    const json = await run('alice', `/run/${IDS.customers}`, { ...region('US'), template: 'json' })
    assert.equal(json.headers.get('content-type'), 'application/json')
    assert.deepEqual(
      json.json.Root.bands.Customers.map((c: any) => c.fields.name),
      []
    )
    const html = await run('alice', `/run/${IDS.customers}`, { ...region('EU'), template: 'html' })
    assert.equal(html.headers.get('content-type'), 'text/html')
    assert.include(html.text, 'Erika')
    const xlsx = await run('alice', `/run/${IDS.customers}`, { ...region('EU'), template: 'xlsx' })
    assert.equal(
      xlsx.headers.get('content-type'),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
    )
    assert.equal(xlsx.bytes.subarray(0, 2).toString(), 'PK')
  })

  test('bad bodies and parameters: 400 with the upstream error', async ({ assert }) => {
    const invalid = await run('alice', `/run/${IDS.customers}`, undefined, '{"parameters": [')
    assert.equal(invalid.status, 400)
    assert.equal(invalid.json.error, 'Invalid JSON body')
    const missing = await run('alice', `/run/${IDS.customers}`, {})
    assert.deepEqual(missing.json, {
      error: 'Run report error',
      details: 'Required report parameter "region" not found',
    })
    // Unknown aliases are ignored, as upstream.
    const extra = await run('alice', `/run/${IDS.customers}`, {
      parameters: [
        { name: 'region', value: 'EU' },
        { name: 'nope', value: 1 },
      ],
    })
    assert.equal(extra.status, 200)
  })

  test('every parameter type is converted; wrong values are 400', async ({ assert }) => {
    const response = await run('alice', `/run/${IDS.params}`, {
      parameters: [
        { name: 'number', value: '12.5' },
        { name: 'flag', value: 'true' },
        { name: 'at', value: '10:15:00' },
        { name: 'stamp', value: '2024-03-01T10:15:00' },
        { name: 'color', value: 'RED' },
        { name: 'customer', value: ROWS.eu1 },
        { name: 'customers', values: [ROWS.eu2, ROWS.eu1] },
      ],
    })
    assert.equal(response.status, 200, response.text)
    const root = response.json.Root
    assert.deepInclude(root.fields, {
      text: 'fallback',
      number: 12.5,
      flag: true,
      day: '2024-01-01',
      at: '10:15:00',
      stamp: '2024-03-01T10:15:00',
      color: 'RED',
    })
    assert.match(root.fields.customer, /^Erika/)
    assert.deepEqual(
      root.bands.Picked.map((b: any) => b.fields.name),
      ['Emil', 'Erika']
    )
    assert.equal(root.bands.Params[0].fields.color, 'RED')
    const bad: [string, unknown][] = [
      ['number', '1,5'],
      ['flag', 'maybe'],
      ['day', '2024-02-30'],
      ['at', '25:00'],
      ['stamp', '2024-03-01'],
      ['color', 'GREEN'],
    ]
    for (const [name, value] of bad) {
      const refused = await run('alice', `/run/${IDS.params}`, { parameters: [{ name, value }] })
      assert.equal(refused.status, 400, name)
      assert.equal(refused.json.error, 'Run report error', name)
      assert.include(refused.json.details, `'${name}'`, name)
    }
    const unknown = await run('alice', `/run/${IDS.params}`, {
      parameters: [{ name: 'customer', value: '6f1c3c1e-0000-4000-8000-0000000000aa' }],
    })
    assert.equal(unknown.status, 404)
    assert.equal(unknown.json.error, 'Entity not found')
    // bob (US region) may not read an EU customer: it does not exist for him.
    const foreign = await run('bob', `/run/${IDS.params}`, {
      parameters: [{ name: 'customer', value: ROWS.eu1 }],
    })
    assert.equal(foreign.status, 404)
  })

  test('permissions shape the document: rows and attributes per caller', async ({ assert }) => {
    const erin = await run('erin', `/run/${IDS.customers}`, region('EU'))
    const bob = await run('bob', `/run/${IDS.customers}`, region('US'))
    const bobEu = await run('bob', `/run/${IDS.customers}`, region('EU'))
    assert.deepEqual(
      parse(erin.text, { columns: true, bom: true }).map((r: any) => r.name),
      ['Emil', 'Erika']
    )
    assert.deepEqual(
      parse(bob.text, { columns: true, bom: true }).map((r: any) => r.name),
      ['Carla', 'Uma']
    )
    assert.deepEqual(parse(bobEu.text, { columns: true, bom: true }), [])
    // notes and creditLimit: neither may view them; their values are in neither document.
    for (const doc of [erin, bob]) {
      assert.notInclude(doc.text, 'notes of')
      assert.notInclude(doc.text, '1000')
    }
    const rowsOf = (text: string): Record<string, string>[] =>
      parse(text, { columns: true, bom: true })
    assert.equal(rowsOf(bob.text)[1].email, 'uma@example.com')
    assert.equal(rowsOf(erin.text)[0].email, '')
    // Master-detail: alice sees the EU order and only its small lines; price is hers to see.
    const alice = await run('alice', `/run/${IDS.orders}`)
    assert.equal(alice.status, 200, alice.text)
    const orders = alice.json.Root.bands.Orders
    assert.lengthOf(orders, 1, alice.text)
    assert.deepEqual(
      orders.map((o: any) => o.fields.number),
      ['O-EU']
    )
    assert.deepEqual(
      orders[0].bands.Lines.map((l: any) => [l.fields.product, l.fields.price]),
      [['pen', 2]]
    )
    const bobRun = await run('bob', `/run/${IDS.orders}`)
    assert.equal(bobRun.status, 200, bobRun.text)
    const bobOrders = bobRun.json.Root.bands.Orders
    assert.deepEqual(
      bobOrders.map((o: any) => o.fields.number),
      ['O-US']
    )
    assert.notProperty(bobOrders[0].bands.Lines[0].fields, 'price')
    assert.notProperty(bobOrders[0].fields, 'customer.creditLimit')
  })

  test('limits: too many rows is 413 and nothing is sent; the history records every run', async ({
    assert,
  }) => {
    await db.from('mg_report_executions').delete()
    await applyDoc({ settings: { 'svc.reports.max-rows': 1 } })
    try {
      const refused = await run('alice', `/run/${IDS.customers}`, region('EU'))
      assert.equal(refused.status, 413)
      assert.include(refused.json.details, 'svc.reports.max-rows')
    } finally {
      await applyDoc({ settings: { 'svc.reports.max-rows': 100000 } })
    }
    await run('alice', `/run/${IDS.customers}`, region('EU'))
    const rows = await executionsSettled(2)
    assert.lengthOf(rows, 2)
    assert.include(rows[0], {
      username: 'alice',
      outcome: 'refused',
      source: 'rest',
      report_id: IDS.customers,
    })
    assert.include(rows[1], {
      username: 'alice',
      outcome: 'success',
      template: 'DEFAULT',
      output_type: 'CSV',
    })
    assert.isAbove(Number(rows[1].size_bytes), 10)
    assert.equal(Number(rows[1].rows), 2)
    assert.deepEqual(JSON.parse(rows[1].parameters), [{ name: 'region', value: 'EU' }])
  })

  test('output size limit: 413 for a document built in memory; a streamed one is cut off', async ({
    assert,
  }) => {
    await db.from('mg_report_executions').delete()
    await applyDoc({ settings: { 'svc.reports.max-output-size': '100' } })
    try {
      const json = await run('alice', `/run/${IDS.customers}`, {
        ...region('EU'),
        template: 'json',
      })
      assert.equal(json.status, 413)
      assert.equal(json.json.error, 'Run report error')
      // CSV streams: passed before the first byte went out, it is still a 413.
      const streamed = await run('alice', `/run/${IDS.customers}`, region('EU'))
      assert.equal(streamed.status, 413)
      assert.equal(streamed.headers.get('content-disposition'), null)
      assert.equal(streamed.json.error, 'Run report error')
    } finally {
      await applyDoc({ settings: { 'svc.reports.max-output-size': '50MB' } })
    }
    const outcomes = (await executionsSettled(2)).map((e: any) => e.outcome)
    assert.deepEqual(outcomes, ['refused', 'error'])
  })

  test('GET /docs/openapi.json|yaml describe the API', async ({ assert }) => {
    const json = await call('alice', 'GET', `${R}/docs/openapi.json`)
    assert.equal(json.status, 200)
    assert.equal(json.body.openapi, '3.1.0')
    assert.properties(json.body.paths, [
      '/report',
      '/report/{id}',
      '/run/{id}',
      '/run/code/{code}',
      '/group/{id}',
    ])
    const yaml = await call('alice', 'GET', `${R}/docs/openapi.yaml`)
    assert.equal(yaml.headers.get('content-type'), 'application/yaml')
    assert.include(yaml.body, 'openapi: 3.1.0')
  })
})
