/**
 * Reports admin API, refused changes: every definition problem is a 422 with its path into the
 * request body, and nothing changed (report tables, definition, audit trail, versions).
 */
import { test } from '@japa/runner'
import { admin, adminState } from '#tests/helpers/admin'
import { CUSTOMER, IDS } from './reports_fixtures.js'
import { NEW_ID, newReport, reportRows, setupReportsAdmin } from './reports_admin_fixtures.js'

const customers = (dataset: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'Customers',
  datasets: [{ type: 'query', entity: CUSTOMER, fields: ['name'], ...dataset }],
  ...extra,
})
const where = (property: string, value: unknown) => ({
  filter: { conditions: [{ property, operator: '=', value }] },
})
const sql = (text: string) => ({
  bands: [{ name: 'Rows', datasets: [{ type: 'sql', sql: text }] }],
})
const param = (p: Record<string, unknown>) => ({
  inputParameters: [
    { name: 'Region', alias: 'region', type: 'TEXT' },
    { name: 'P', alias: 'p', ...p },
  ],
})
const templates = (...list: Record<string, unknown>[]) => ({ templates: list })

const CASES: [string, Record<string, unknown>, string][] = [
  [
    'unknown entity in a band dataset',
    { bands: [customers({ entity: 'sec_Nope' })] },
    '$.bands[0].datasets[0].entity',
  ],
  [
    'filter on an unknown attribute',
    { bands: [customers(where('nope', 'x'))] },
    '$.bands[0].datasets[0].filter',
  ],
  [
    'undeclared :param',
    { bands: [customers(where('region', ':nope'))] },
    '$.bands[0].datasets[0].filter',
  ],
  [
    ':Band.field naming a band that is not an ancestor',
    {
      bands: [
        customers({}),
        {
          name: 'Other',
          datasets: [{ type: 'query', entity: CUSTOMER, ...where('name', ':Customers.name') }],
        },
      ],
    },
    '$.bands[1].datasets[0].filter',
  ],
  ['duplicate band names', { bands: [customers({}), customers({})] }, '$.bands[1].name'],
  [
    'duplicate band names in a child',
    { bands: [customers({}, { children: [customers({})] })] },
    '$.bands[0].children[0].name',
  ],
  ['unknown role', { roles: ['report-user', 'nope'] }, '$.roles[1]'],
  [
    'unknown enum in parameters',
    param({ type: 'ENUMERATION', enumerationClass: 'rpt.Nope' }),
    '$.inputParameters[1].enumerationClass',
  ],
  [
    'unknown entity in parameters',
    param({ type: 'ENTITY', entityMetaClass: 'sec_Nope' }),
    '$.inputParameters[1].entityMetaClass',
  ],
  ['unknown parameter type', param({ type: 'TXT' }), '$.inputParameters[1].type'],
  [
    'bad template output type',
    templates({ code: 'a', outputType: 'XLSY' }),
    '$.templates[0].outputType',
  ],
  [
    'two default templates',
    templates(
      { code: 'a', outputType: 'JSON', default: true },
      { code: 'b', outputType: 'CSV', default: true }
    ),
    '$.templates',
  ],
  [
    'a template file that is not base64:',
    templates({ code: 'a', outputType: 'CSV', file: 'abc' }),
    '$.templates[0].file',
  ],
  [
    'an unknown key (outputTyp)',
    templates({ code: 'a', outputTyp: 'JSON', outputType: 'JSON' }),
    '$.templates[0].outputTyp',
  ],
  ['an unknown band key', { bands: [customers({}, { entitty: CUSTOMER })] }, '$.bands[0].entitty'],
  ['SQL: delete', sql('delete from sec_customer'), '$.bands[0].datasets[0].sql'],
  [
    'SQL: two statements',
    sql('select name from sec_customer; select 1'),
    '$.bands[0].datasets[0].sql',
  ],
  ['SQL: system table', sql('select * from mg_users'), '$.bands[0].datasets[0].sql'],
  [
    'SQL: a writing CTE',
    sql('with d as (delete from sec_customer returning id) select * from d'),
    '$.bands[0].datasets[0].sql',
  ],
  [
    'SQL: dollar quotes hiding a system table',
    sql(`select $$'$$ as q, password as "p" from users where 'x' <> $$'$$`),
    '$.bands[0].datasets[0].sql',
  ],
  [
    'SQL: brackets hiding a system table',
    sql("select 1 as [x'], password from users as [y']"),
    '$.bands[0].datasets[0].sql',
  ],
  [
    'SQL: undeclared ${param}',
    sql('select name from sec_customer where region = ${nope}'),
    '$.bands[0].datasets[0].sql',
  ],
  [
    'a filtrex expression that does not compile',
    { bands: [customers({}, { computed: { x: '1 +' } })] },
    '$.bands[0].computed.x',
  ],
  ['a report id that is not a UUID', { id: 'abc' }, '$.id'],
  ['a template without code', templates({ outputType: 'JSON' }), '$.templates[0].code'],
  ['a report code another report has', { code: 'CUSTOMERS' }, '$.code'],
]

test.group('admin API: reports, refused changes', (group) => {
  group.setup(async () => {
    await setupReportsAdmin()
  })

  test('POST {0}: 422 at {2}, nothing changed')
    .with(CASES)
    .run(async ({ assert }, [_name, change, path]) => {
      const before = await reportRows()
      const reply = await admin('admin', 'POST', 'reports', newReport(change))
      assert.equal(reply.status, 422, reply.text)
      assert.equal(reply.body.error, 'Invalid definition')
      assert.include(
        reply.body.problems.map((p: any) => p.path),
        path,
        reply.text
      )
      assert.equal(await reportRows(), before)
      assert.equal((await admin('admin', 'GET', `reports/${NEW_ID}`)).status, 404)
    })

  test('PUT and PATCH with problems: 422 with paths, the stored report unchanged', async ({
    assert,
  }) => {
    const before = await adminState()
    const put = await admin('admin', 'PUT', `reports/${IDS.customers}`, {
      ...newReport({ bands: [customers({ entity: 'sec_Nope' })] }),
      id: IDS.customers,
    })
    assert.equal(put.status, 422)
    assert.include(
      put.body.problems.map((p: any) => p.path),
      '$.bands[0].datasets[0].entity'
    )
    const patch = await admin('admin', 'PATCH', `reports/${IDS.customers}`, { roles: ['nope'] })
    assert.equal(patch.status, 422)
    assert.deepEqual(
      patch.body.problems.map((p: any) => p.path),
      ['$.roles[0]']
    )
    const type = await admin('admin', 'PATCH', `reports/${IDS.customers}`, { restAccess: 'yes' })
    assert.equal(type.status, 422)
    assert.deepEqual(
      type.body.problems.map((p: any) => p.path),
      ['$.restAccess']
    )
    // A name another report has.
    const taken = await admin('admin', 'POST', 'reports', newReport({ name: 'Not over REST' }))
    assert.equal(taken.status, 422)
    assert.include(
      taken.body.problems.map((p: any) => p.path),
      '$.name'
    )
    assert.equal(await adminState(), before)
  })
})
