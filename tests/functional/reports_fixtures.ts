/**
 * Fixture of the Reports API tests: the security fixture (sec_Customer/Order/OrderLine with
 * region row-level roles and attribute limits per actor), a `report-user` role with
 * `reports.rest.enabled` given to alice, bob, carol and erin (dave has none), and reports
 * imported through the definition document.
 */
import { importDoc } from '#tests/helpers/engine'
import { CUSTOMER, LINE, ORDER, ROWS, USERS } from '#tests/helpers/security'

export const R = '/rest/reports'
export const COLOR = 'rpt.Color'
export const GROUP = { id: '6f1c3c1e-0000-4000-8000-00000000a0a0', title: 'Sales', code: 'sales' }

export const IDS = {
  customers: '6f1c3c1e-0000-4000-8000-000000000001',
  hidden: '6f1c3c1e-0000-4000-8000-000000000002',
  owners: '6f1c3c1e-0000-4000-8000-000000000003',
  params: '6f1c3c1e-0000-4000-8000-000000000004',
  orders: '6f1c3c1e-0000-4000-8000-000000000005',
}

const customersBand = {
  name: 'Customers',
  entity: CUSTOMER,
  filter: { conditions: [{ property: 'region', operator: '=', value: ':region' }] },
  sort: 'name',
  fields: ['name', 'region', 'email', 'notes', 'creditLimit'],
}

export const REPORTS = [
  {
    id: IDS.customers,
    name: 'Customers by region',
    code: 'CUSTOMERS',
    group: GROUP,
    restAccess: true,
    inputParameters: [{ name: 'Region', alias: 'region', type: 'TEXT', required: true }],
    bands: [customersBand],
    templates: [
      {
        code: 'DEFAULT',
        outputType: 'CSV',
        default: true,
        outputNamePattern: 'customers-${Root.region}',
      },
      { code: 'json', outputType: 'JSON' },
      { code: 'xlsx', outputType: 'XLSX' },
      { code: 'html', outputType: 'HTML' },
      { code: 'table', outputType: 'TABLE' },
      { code: 'chart', outputType: 'CHART' },
      { code: 'pivot', outputType: 'PIVOT_TABLE' },
    ],
  },
  {
    id: IDS.hidden,
    name: 'Not over REST',
    restAccess: false,
    bands: [],
    templates: [{ code: 'DEFAULT', outputType: 'JSON' }],
  },
  {
    id: IDS.owners,
    name: 'Owners only',
    restAccess: true,
    roles: ['crm-owner'],
    bands: [],
    templates: [{ code: 'DEFAULT', outputType: 'JSON' }],
  },
  {
    id: IDS.params,
    name: 'Every parameter',
    code: 'PARAMS',
    restAccess: true,
    inputParameters: [
      { name: 'Text', alias: 'text', type: 'TEXT', defaultValue: 'fallback' },
      { name: 'Number', alias: 'number', type: 'NUMERIC' },
      { name: 'Flag', alias: 'flag', type: 'BOOLEAN' },
      { name: 'Day', alias: 'day', type: 'DATE', defaultValue: '2024-01-01' },
      { name: 'At', alias: 'at', type: 'TIME' },
      { name: 'Stamp', alias: 'stamp', type: 'DATETIME' },
      { name: 'Color', alias: 'color', type: 'ENUMERATION', enumerationClass: COLOR },
      { name: 'Customer', alias: 'customer', type: 'ENTITY', entityMetaClass: CUSTOMER },
      { name: 'Customers', alias: 'customers', type: 'ENTITY_LIST', entityMetaClass: CUSTOMER },
    ],
    bands: [
      { name: 'Params' },
      { name: 'Picked', type: 'entityList', parameter: 'customers', fields: ['name'] },
    ],
    templates: [{ code: 'DEFAULT', outputType: 'JSON', default: true }],
  },
  {
    id: IDS.orders,
    name: 'Orders with lines',
    restAccess: true,
    bands: [
      {
        name: 'Orders',
        entity: ORDER,
        sort: 'number',
        fields: ['number', 'customer.name', 'customer.creditLimit', 'total'],
        children: [
          {
            name: 'Lines',
            entity: LINE,
            filter: { conditions: [{ property: 'order', operator: '=', value: ':Orders.id' }] },
            sort: 'product',
            fields: ['product', 'qty', 'price'],
          },
        ],
      },
    ],
    templates: [{ code: 'DEFAULT', outputType: 'JSON', default: true }],
  },
]

const withRole = (username: string) => {
  const user = USERS.find((u) => u.username === username)!
  return { ...user, resourceRoles: [...user.resourceRoles, 'report-user'] }
}

/** Adds the report role, the enum and the reports (run after setupSecurityFixture). */
export async function setupReportsFixture() {
  const result = await importDoc({
    enums: [
      {
        name: COLOR,
        values: [
          { name: 'RED', id: 'R' },
          { name: 'BLUE', id: 'B' },
        ],
      },
    ],
    resourceRoles: [
      {
        code: 'report-user',
        scopes: ['API'],
        childRoles: [],
        specificPolicies: ['reports.rest.enabled'],
        // Dataset filters run as the caller: the link of Lines to Orders must be viewable.
        attributePolicies: [{ entity: LINE, attributes: ['order'], action: 'VIEW' }],
      },
    ],
    users: ['alice', 'bob', 'carol', 'erin'].map(withRole),
    reports: REPORTS,
  })
  if (result.status !== 'applied') throw new Error(JSON.stringify(result))
}

export { CUSTOMER, ROWS }
