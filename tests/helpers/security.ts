/**
 * The security fixture of reference/security-test-catalogue.md, on generated entities `sec_*`:
 * Customer {name, email, region, creditLimit, notes, ownerName}, Order {number, customer,
 * lines (composition of OrderLine {product, qty, price}), total}, Secret {value} (no role grants
 * it), PublicNews {title} (anonymous read). Roles, users and a client-credentials client are
 * imported through the definition document; tokens are issued directly.
 *
 * Actors: admin (system-full-access), alice (editor, region EU, sees lines with qty < 100),
 * bob (reader, region US), carol (owner: only customers whose ownerName is her username),
 * dave (no roles), erin (clerk: customers' name and region only, orders without lines, EU),
 * svc (client: api-reader, region EU), anonymous (news-reader).
 */
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { importDoc } from '#tests/helpers/engine'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { baseUrl } from '#tests/helpers/oauth'

export const E = '/rest/entities'
export const CUSTOMER = 'sec_Customer'
export const ORDER = 'sec_Order'
export const LINE = 'sec_OrderLine'

const versioned = ['versioned']
export const ENTITIES = [
  {
    name: CUSTOMER,
    traits: versioned,
    instanceName: '{name} {creditLimit}',
    attributes: [
      { name: 'name', type: 'string', length: 50, mandatory: true },
      { name: 'email', type: 'string', length: 80 },
      { name: 'region', type: 'string', length: 2 },
      { name: 'creditLimit', type: 'int' },
      { name: 'notes', type: 'text' },
      { name: 'ownerName', type: 'string', length: 50 },
    ],
  },
  {
    name: ORDER,
    traits: ['versioned', 'audited'],
    instanceName: '{number} {customer.name}',
    attributes: [
      { name: 'number', type: 'string', length: 20 },
      { name: 'customer', type: 'association', cardinality: 'MANY_TO_ONE', target: CUSTOMER },
      { name: 'total', type: 'int' },
      {
        name: 'lines',
        type: 'composition',
        cardinality: 'ONE_TO_MANY',
        target: LINE,
        mappedBy: 'order',
      },
    ],
  },
  {
    name: LINE,
    attributes: [
      {
        name: 'order',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: ORDER,
        mandatory: true,
        onDelete: 'cascade',
      },
      { name: 'product', type: 'string', length: 50 },
      { name: 'qty', type: 'int' },
      { name: 'price', type: 'int' },
    ],
  },
  { name: 'sec_Secret', attributes: [{ name: 'value', type: 'string', length: 50 }] },
  { name: 'sec_PublicNews', attributes: [{ name: 'title', type: 'string', length: 50 }] },
]

const crud = ['create', 'read', 'update', 'delete']
const role = (code: string, rest: Record<string, unknown>) => ({
  code,
  scopes: ['API'],
  childRoles: ['rest-minimal'],
  ...rest,
})
const filter = (property: string, operator: string, value: unknown) => ({
  conditions: [{ property, operator, value }],
})

export const RESOURCE_ROLES = [
  role('crm-editor', {
    entityPolicies: [CUSTOMER, ORDER, LINE].map((entity) => ({ entity, actions: crud })),
    attributePolicies: [
      {
        entity: CUSTOMER,
        attributes: ['name', 'email', 'region', 'notes', 'ownerName'],
        action: 'MODIFY',
      },
      { entity: CUSTOMER, attributes: ['creditLimit', 'version'], action: 'VIEW' },
      { entity: ORDER, attributes: ['*'], action: 'MODIFY' },
      { entity: LINE, attributes: ['*'], action: 'MODIFY' },
    ],
  }),
  role('crm-reader', {
    entityPolicies: [CUSTOMER, ORDER, LINE].map((entity) => ({ entity, actions: ['read'] })),
    attributePolicies: [
      { entity: CUSTOMER, attributes: ['name', 'email', 'region', 'version'], action: 'VIEW' },
      { entity: ORDER, attributes: ['*'], action: 'VIEW' },
      { entity: LINE, attributes: ['product', 'qty'], action: 'VIEW' },
    ],
  }),
  role('crm-owner', {
    entityPolicies: [
      { entity: CUSTOMER, actions: crud },
      { entity: ORDER, actions: ['read'] },
    ],
    attributePolicies: [
      { entity: CUSTOMER, attributes: ['*'], action: 'MODIFY' },
      { entity: ORDER, attributes: ['*'], action: 'VIEW' },
    ],
  }),
  // Updates customers' name and region only; may create orders but not their lines.
  role('crm-clerk', {
    entityPolicies: [
      { entity: CUSTOMER, actions: ['read', 'update'] },
      { entity: ORDER, actions: ['create', 'read'] },
      { entity: LINE, actions: ['read'] },
    ],
    attributePolicies: [
      { entity: CUSTOMER, attributes: ['name', 'region', 'version'], action: 'MODIFY' },
      { entity: ORDER, attributes: ['*'], action: 'MODIFY' },
    ],
  }),
  role('api-reader', {
    entityPolicies: [{ entity: CUSTOMER, actions: ['read'] }],
    attributePolicies: [{ entity: CUSTOMER, attributes: ['*'], action: 'VIEW' }],
  }),
  role('news-reader', {
    entityPolicies: [{ entity: 'sec_PublicNews', actions: ['read'] }],
    attributePolicies: [{ entity: 'sec_PublicNews', attributes: ['*'], action: 'VIEW' }],
  }),
]

const region = (code: string, value: string) => ({
  code,
  policies: [
    { entity: CUSTOMER, type: 'filter', actions: ['read'], filter: filter('region', '=', value) },
    {
      entity: ORDER,
      type: 'filter',
      actions: ['read'],
      filter: filter('customer.region', '=', value),
    },
  ],
})

export const ROW_LEVEL_ROLES = [
  region('eu-region', 'EU'),
  region('us-region', 'US'),
  {
    code: 'small-lines',
    policies: [
      { entity: LINE, type: 'filter', actions: ['read'], filter: filter('qty', '<', 100) },
    ],
  },
  {
    code: 'own-customers',
    policies: [
      {
        entity: CUSTOMER,
        type: 'filter',
        actions: ['read'],
        filter: filter('ownerName', '=', ':current_user_username'),
      },
      {
        entity: CUSTOMER,
        type: 'predicate',
        actions: ['update', 'delete'],
        filter: filter('notes', '<>', 'locked'),
      },
    ],
  },
]

const user = (username: string, resourceRoles: string[], rowLevelRoles: string[] = []) => ({
  username,
  password: 'S3cret-passw0rd',
  resourceRoles,
  rowLevelRoles,
})

export const USERS = [
  user('alice', ['crm-editor'], ['eu-region', 'small-lines']),
  user('bob', ['crm-reader'], ['us-region']),
  user('carol', ['crm-owner'], ['own-customers']),
  user('dave', []),
  user('erin', ['crm-clerk'], ['eu-region']),
  user('sec-admin', ['system-full-access']),
  { username: 'anonymous', resourceRoles: ['news-reader'], rowLevelRoles: [] },
]

export type Actor = 'admin' | 'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'svc' | 'anonymous'
export const tokens = new Map<Actor, string | null>()

/** Row ids of the seeded data. */
export const ROWS = {
  eu1: '00000000-0000-4000-8000-00000000e001',
  eu2: '00000000-0000-4000-8000-00000000e002',
  us1: '00000000-0000-4000-8000-00000000a001',
  carol: '00000000-0000-4000-8000-00000000c001',
  orderEu: '00000000-0000-4000-8000-0000000000e1',
  orderUs: '00000000-0000-4000-8000-0000000000a1',
  lineSmall: '00000000-0000-4000-8000-0000000001e1',
  lineBig: '00000000-0000-4000-8000-0000000002e1',
  lineUs: '00000000-0000-4000-8000-0000000001a1',
}

/** Imports the model, roles and users; seeds rows; issues one token per actor. */
export async function setupSecurityFixture() {
  const result = await importDoc({
    entities: ENTITIES,
    resourceRoles: RESOURCE_ROLES,
    rowLevelRoles: ROW_LEVEL_ROLES,
    users: USERS,
    settings: { 'svc.resource-server.anonymous-url-patterns': '/rest/entities/sec_PublicNews/**' },
  })
  if (result.status !== 'applied') throw new Error(JSON.stringify(result))
  await seed()
  const client = await makeClient({ resourceRoles: [] })
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'sec-admin'] as const) {
    const u = await User.findByOrFail('username', name)
    tokens.set(name === 'sec-admin' ? 'admin' : name, (await accessToken(client, u)).token)
  }
  const svc = await makeClient({ resourceRoles: ['api-reader'], rowLevelRoles: ['eu-region'] })
  tokens.set('svc', (await accessToken(svc)).token)
  tokens.set('anonymous', null)
}

export async function seed() {
  for (const table of [
    'sec_order_line',
    'sec_order',
    'sec_customer',
    'sec_secret',
    'sec_public_news',
  ])
    await db.from(table).delete()
  const customer = (id: string, name: string, r: string, extra: Record<string, unknown> = {}) => ({
    id,
    name,
    email: `${name.toLowerCase()}@example.com`,
    region: r,
    credit_limit: 1000,
    notes: `notes of ${name}`,
    owner_name: null,
    version: 1,
    ...extra,
  })
  await db
    .table('sec_customer')
    .multiInsert([
      customer(ROWS.eu1, 'Erika', 'EU'),
      customer(ROWS.eu2, 'Emil', 'EU'),
      customer(ROWS.us1, 'Uma', 'US'),
      customer(ROWS.carol, 'Carla', 'US', { owner_name: 'carol' }),
    ])
  await db.table('sec_order').multiInsert([
    { id: ROWS.orderEu, number: 'O-EU', customer_id: ROWS.eu1, total: 10, version: 1 },
    { id: ROWS.orderUs, number: 'O-US', customer_id: ROWS.us1, total: 20, version: 1 },
  ])
  await db.table('sec_order_line').multiInsert([
    { id: ROWS.lineSmall, order_id: ROWS.orderEu, product: 'pen', qty: 1, price: 2 },
    { id: ROWS.lineBig, order_id: ROWS.orderEu, product: 'paper', qty: 500, price: 1 },
    { id: ROWS.lineUs, order_id: ROWS.orderUs, product: 'ink', qty: 2, price: 9 },
  ])
  await db.table('sec_secret').insert({ id: '00000000-0000-4000-8000-0000000000f1', value: 's' })
  await db
    .table('sec_public_news')
    .insert({ id: '00000000-0000-4000-8000-0000000000f2', title: 'hi' })
}

/** Every row of the fixture's tables, as one string (a negative test compares before/after). */
export async function dataState(): Promise<string> {
  const parts = []
  for (const table of [
    'sec_customer',
    'sec_order',
    'sec_order_line',
    'sec_secret',
    'sec_public_news',
  ])
    parts.push(await db.from(table).select('*').orderBy('id'))
  return JSON.stringify(parts, (_k, v) => (v instanceof Date ? v.toISOString() : v))
}

/** A request as `actor` through the real server; JSON in and out. */
export async function call(actor: Actor, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {}
  const token = tokens.get(actor)
  if (token) headers.Authorization = `Bearer ${token}`
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let json: any = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = text
  }
  return { status: response.status, body: json, headers: response.headers }
}
