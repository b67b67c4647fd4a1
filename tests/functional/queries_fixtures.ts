/**
 * Fixture of the Queries API tests: the security fixture (sec_Customer with row-level region
 * roles for alice (EU) and bob (US)) plus qry_Thing, one attribute of every parameter type, and
 * named queries over both, imported through the definition document.
 */
import { applyDoc } from '#tests/helpers/engine'
import { CUSTOMER, ROWS, call, setupSecurityFixture } from '#tests/helpers/security'

export const THING = 'qry_Thing'
export const COLOR = 'com.example.Color'
export const Q = '/rest/queries'

export const THING_ENTITY = {
  name: THING,
  instanceName: '{label}',
  attributes: [
    { name: 'label', type: 'string', length: 50 },
    { name: 'qty', type: 'int' },
    { name: 'big', type: 'long' },
    { name: 'ratio', type: 'double' },
    { name: 'price', type: 'decimal', precision: 10, scale: 2 },
    { name: 'active', type: 'boolean' },
    { name: 'day', type: 'date' },
    { name: 'at', type: 'time' },
    { name: 'stamp', type: 'dateTime' },
    { name: 'ref', type: 'uuid' },
    { name: 'color', type: 'enum', enum: COLOR },
    { name: 'customer', type: 'association', cardinality: 'MANY_TO_ONE', target: CUSTOMER },
  ],
}

const eq = (property: string, param: string) => ({
  conditions: [{ property, operator: '=', value: `:${param}` }],
})

/** One query per parameter type over qry_Thing (`byX` with parameter `x`). */
export const TYPED = [
  ['label', 'string'],
  ['qty', 'int'],
  ['big', 'long'],
  ['ratio', 'double'],
  ['price', 'decimal'],
  ['active', 'boolean'],
  ['day', 'date'],
  ['at', 'time'],
  ['stamp', 'dateTime'],
  ['ref', 'uuid'],
  ['color', 'enum'],
  ['customer', 'entity'],
] as const

export const QUERIES = [
  {
    entity: CUSTOMER,
    name: 'byMinLimit',
    fetchPlan: '_base',
    filter: { conditions: [{ property: 'creditLimit', operator: '>=', value: ':min' }] },
    sort: 'name',
    params: [{ name: 'min', type: 'int' }],
  },
  {
    entity: CUSTOMER,
    name: 'named',
    filter: { conditions: [{ property: 'name', operator: 'in', value: [':a', ':b'] }] },
    params: [
      { name: 'a', type: 'string' },
      { name: 'b', type: 'string' },
    ],
    limit: 1,
  },
  {
    entity: CUSTOMER,
    name: 'byNameNot',
    filter: { conditions: [{ property: 'name', operator: '<>', value: ':n' }] },
    sort: 'name',
    params: [{ name: 'n', type: 'string' }],
  },
  ...TYPED.map(([attribute, type]) => ({
    entity: THING,
    name: `by_${attribute}`,
    filter: eq(attribute, 'v'),
    params: [
      {
        name: 'v',
        type,
        ...(type === 'enum' ? { enum: COLOR } : {}),
        ...(type === 'entity' ? { entity: CUSTOMER } : {}),
      },
    ],
  })),
]

export const THING_ID = '00000000-0000-4000-8000-0000000007a1'
export const THING_REF = '5b0a3c1e-2f4d-4a8b-9c7e-1d2e3f405162'

/** Security fixture + qry_Thing (two rows) + the queries. */
export async function setupQueriesFixture() {
  await setupSecurityFixture()
  await applyDoc({
    entities: [THING_ENTITY],
    enums: [
      {
        name: COLOR,
        values: [
          { name: 'RED', id: 'R' },
          { name: 'BLUE', id: 'B' },
        ],
      },
    ],
    queries: QUERIES,
  })
  const things = [
    {
      id: THING_ID,
      label: 'first',
      qty: 7,
      big: 9007199254740000,
      ratio: 2.5,
      price: 12.34,
      active: true,
      day: '2024-03-01',
      at: '10:15:00',
      stamp: '2024-03-01T10:15:00',
      ref: THING_REF,
      color: 'RED',
      customer: { id: ROWS.eu1 },
    },
    { id: '00000000-0000-4000-8000-0000000007a2', label: 'second', qty: 8, active: false },
  ]
  for (const thing of things) {
    const response = await call('admin', 'POST', `/rest/entities/${THING}`, thing)
    if (response.status !== 201) throw new Error(JSON.stringify(response.body))
  }
}

/** Sample request values per type that match the first thing. */
export const MATCHING: Record<string, string> = {
  string: 'first',
  int: '7',
  long: '9007199254740000',
  double: '2.5',
  decimal: '12.34',
  boolean: 'true',
  date: '2024-03-01',
  time: '10:15:00',
  dateTime: '2024-03-01T10:15:00',
  uuid: THING_REF,
  enum: 'RED',
  entity: ROWS.eu1,
}

/** A value each type refuses (none for string). */
export const BAD: Record<string, string> = {
  int: '7.5',
  long: 'x',
  double: 'abc',
  decimal: '1,5',
  boolean: 'maybe',
  date: '2024-02-30',
  time: '25:00',
  dateTime: '2024-03-01',
  uuid: 'not-a-uuid',
  enum: 'GREEN',
  entity: 'nope',
}
