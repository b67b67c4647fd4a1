/**
 * Admin-written logic in reports without admin-written JavaScript (README "Reports API"):
 * filtrex computed fields and parameter validation, JSONata band transforms in a worker with a
 * time limit (a transform that never ends is stopped, the server stays up).
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'
import { ORDER, call, setupSecurityFixture } from '#tests/helpers/security'
import { R, setupReportsFixture } from './reports_fixtures.js'

const ID = '6f1c3c1e-0000-4000-8000-0000000000c1'
const RUN = `${R}/run/${ID}`

/** Stores the report (applied, or unchanged when it is stored already). */
async function put(r: Record<string, unknown>) {
  const result = await importDoc({ reports: [r] })
  if (!['applied', 'unchanged'].includes(result.status))
    throw new Error(JSON.stringify(result.problems))
}

const report = (transform?: string) => ({
  id: ID,
  name: 'Logic',
  restAccess: true,
  inputParameters: [
    {
      name: 'Factor',
      alias: 'factor',
      type: 'NUMERIC',
      defaultValue: '2',
      validation: { expression: 'factor > 0 and factor < 10', message: 'factor must be 1 to 9' },
    },
  ],
  bands: [
    {
      name: 'Orders',
      entity: ORDER,
      sort: 'number',
      fields: ['number', 'total'],
      computed: { doubled: 'total * 2', label: 'number + " / " + total' },
      ...(transform ? { transform } : {}),
    },
  ],
  templates: [{ code: 'DEFAULT', outputType: 'JSON', default: true }],
})

test.group('Reports: expressions and transforms', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
    await setupReportsFixture()
  })

  test('computed fields are filtrex expressions over the row', async ({ assert }) => {
    await put(report())
    const response = await call('admin', 'POST', RUN, {})
    assert.equal(response.status, 200, JSON.stringify(response.body))
    const rows = response.body.Root.bands.Orders.map((o: any) => o.fields)
    assert.deepInclude(rows[0], { number: 'O-EU', total: 10, doubled: 20, label: 'O-EU / 10' })
    assert.deepInclude(rows[1], { number: 'O-US', total: 20, doubled: 40 })
  })

  test('a parameter validation expression refuses a run with its message', async ({ assert }) => {
    await put(report())
    const refused = await call('admin', 'POST', RUN, {
      parameters: [{ name: 'factor', value: '12' }],
    })
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, { error: 'Run report error', details: 'factor must be 1 to 9' })
    const fine = await call('admin', 'POST', RUN, { parameters: [{ name: 'factor', value: '3' }] })
    assert.equal(fine.status, 200)
  })

  test('a JSONata transform maps the band rows', async ({ assert }) => {
    await put(
      report('$map($, function($r) { {"number": $lowercase($r.number), "total": $r.total * 10} })')
    )
    const response = await call('admin', 'POST', RUN, {})
    assert.equal(response.status, 200, JSON.stringify(response.body))
    assert.deepEqual(
      response.body.Root.bands.Orders.map((o: any) => o.fields),
      [
        { number: 'o-eu', total: 100 },
        { number: 'o-us', total: 200 },
      ]
    )
  })

  test('a transform that never ends is stopped (503) and the server carries on', async ({
    assert,
  }) => {
    await put(report('($f := function($n) { $f($n + 1) }; $f(0))'))
    const started = Date.now()
    const stopped = await call('admin', 'POST', RUN, {})
    assert.equal(stopped.status, 503)
    assert.match(stopped.body.details, /transform took longer than/)
    assert.isBelow(Date.now() - started, 20_000)
    assert.equal((await call('admin', 'GET', '/rest/entities/sec_Order')).status, 200)
  })

  test('expressions that do not compile are refused when the report is saved', async ({
    assert,
  }) => {
    const bad = {
      ...report('$map($, function('),
      id: '6f1c3c1e-0000-4000-8000-0000000000c2',
      name: 'Bad',
    }
    bad.bands[0].computed = { doubled: 'total * * 2', label: 'x' }
    const result = await importDoc({ reports: [bad] })
    assert.equal(result.status, 'invalid')
    const paths = result.problems.map((p) => p.path)
    assert.includeMembers(paths, [
      '$.reports[0].bands[0].computed.doubled',
      '$.reports[0].bands[0].transform',
    ])
  })
})
