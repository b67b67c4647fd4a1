/*
 * The model and data of `bench:entities` (scripts/bench_entities.js), shared with the test that
 * checks each scenario's JSON against its raw floor (tests/functional/entities_bench_floor.spec.ts):
 *
 *   bench_Category 1 -- n bench_Item                      (list, load, search, create, update)
 *   bench_Customer 1 -- n bench_Order 1 -- n bench_OrderLine n -- 1 bench_Item   (nested reads)
 *
 * Every datatype whose value the driver may turn into something else is on the nested path:
 * date, time, dateTime, offsetDateTime, decimal, long, enum, boolean.
 */

/** Deterministic uuids: row n of a table tagged `tag` (a 4-hex-digit group). */
export const uuid = (tag, n) => `00000000-${tag}-4000-8000-${n.toString(16).padStart(12, '0')}`
export const itemId = (n) => uuid('0001', n)
export const categoryId = (n) => uuid('0002', n)
export const CATEGORIES = 100
/** Orders per customer and lines per order. */
export const ORDERS_PER_CUSTOMER = 3
export const LINES_PER_ORDER = 3

/** The entities (definition document format) of the benchmark. */
export const ENTITIES = [
  {
    name: 'bench_Category',
    idType: 'uuid',
    instanceName: 'name',
    attributes: [{ name: 'name', type: 'string', length: 60, mandatory: true }],
  },
  {
    name: 'bench_Item',
    idType: 'uuid',
    traits: ['versioned'],
    instanceName: '{name} ({category.name})',
    attributes: [
      { name: 'code', type: 'string', length: 20, mandatory: true },
      { name: 'name', type: 'string', length: 100, mandatory: true },
      { name: 'price', type: 'decimal', precision: 12, scale: 2 },
      { name: 'quantity', type: 'int' },
      { name: 'active', type: 'boolean' },
      {
        name: 'category',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: 'bench_Category',
        onDelete: 'deny',
      },
    ],
    indexes: [{ attributes: ['code'] }],
  },
  {
    name: 'bench_Customer',
    idType: 'uuid',
    instanceName: 'name',
    attributes: [
      { name: 'name', type: 'string', length: 60, mandatory: true },
      { name: 'email', type: 'string', length: 80 },
      { name: 'since', type: 'offsetDateTime' },
      { name: 'points', type: 'long' },
      {
        name: 'orders',
        type: 'association',
        cardinality: 'ONE_TO_MANY',
        target: 'bench_Order',
        mappedBy: 'customer',
      },
    ],
  },
  {
    name: 'bench_Order',
    idType: 'uuid',
    instanceName: '{number}',
    attributes: [
      { name: 'number', type: 'string', length: 20, mandatory: true },
      { name: 'date', type: 'date', mandatory: true },
      { name: 'placedAt', type: 'dateTime' },
      { name: 'deliveryTime', type: 'time' },
      { name: 'total', type: 'decimal', precision: 12, scale: 2 },
      { name: 'status', type: 'enum', enum: 'bench_OrderStatus' },
      {
        name: 'customer',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: 'bench_Customer',
        onDelete: 'deny',
      },
      {
        name: 'lines',
        type: 'composition',
        cardinality: 'ONE_TO_MANY',
        target: 'bench_OrderLine',
        mappedBy: 'order',
      },
    ],
  },
  {
    name: 'bench_OrderLine',
    idType: 'uuid',
    instanceName: '{item.name} x {quantity}',
    attributes: [
      {
        name: 'order',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: 'bench_Order',
        mandatory: true,
        onDelete: 'cascade',
      },
      { name: 'position', type: 'int', mandatory: true },
      { name: 'quantity', type: 'int', mandatory: true },
      { name: 'price', type: 'decimal', precision: 12, scale: 2 },
      {
        name: 'item',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: 'bench_Item',
        onDelete: 'deny',
      },
    ],
  },
]

export const ENUMS = [
  {
    name: 'bench_OrderStatus',
    values: [
      { name: 'NEW', id: 'N' },
      { name: 'PAID', id: 'P' },
    ],
  },
]

/** Three levels: customer -> orders -> lines -> item (the composition scenario). */
export const FETCH_PLANS = [
  {
    entity: 'bench_Customer',
    name: 'customer-orders',
    extends: '_base',
    properties: [
      {
        name: 'orders',
        fetchPlan: {
          extends: '_base',
          properties: [
            {
              name: 'lines',
              fetchPlan: {
                extends: '_base',
                properties: [{ name: 'item', fetchPlan: '_instance_name' }],
              },
            },
          ],
        },
      },
    ],
  },
]

/** The nested scenario's inline plan: orders, each with its lines and each line's item. */
export const NESTED_PLAN = JSON.stringify({
  properties: [
    'number',
    'date',
    'placedAt',
    'total',
    'status',
    {
      name: 'lines',
      fetchPlan: {
        properties: [
          'position',
          'quantity',
          'price',
          { name: 'item', fetchPlan: { properties: ['code', 'name'] } },
        ],
      },
    },
  ],
})

export const SEARCH_FILTER = JSON.stringify({
  conditions: [
    { property: 'active', operator: '=', value: true },
    { property: 'quantity', operator: '>', value: 25 },
  ],
})

/**
 * The statements that fill the tables: `rows` items, rows / 10 customers (at least 30), 3
 * orders per customer, 3 lines per order. `pg`: PostgreSQL, else SQLite (values in the stored
 * forms of write/README.md "Values").
 */
export function seedStatements(pg, rows) {
  const customers = Math.max(30, Math.floor(rows / 10))
  const orders = customers * ORDERS_PER_CUSTOMER
  const lines = orders * LINES_PER_ORDER
  const seq = (n) =>
    pg
      ? `select g as n from generate_series(1, ${Number(n)}) g`
      : `with recursive s(n) as (select 1 union all select n + 1 from s where n < ${Number(n)}) select n from s`
  const hexId = (tag, expr) =>
    pg
      ? `('00000000-${tag}-4000-8000-' || lpad(to_hex(${expr}), 12, '0'))::uuid`
      : `printf('00000000-${tag}-4000-8000-%012x', ${expr})`
  const code = (prefix, expr) =>
    pg ? `'${prefix}' || lpad((${expr})::text, 7, '0')` : `printf('${prefix}%07d', ${expr})`
  const two = (expr) => (pg ? `lpad((${expr})::text, 2, '0')` : `printf('%02d', ${expr})`)
  // Fractions only on some rows: the minimal-digit formatting of dateTime and time is exercised.
  const frac = (expr) => `case when (${expr}) % 4 = 0 then '.5' else '' end`
  const placedAt = `'2025-0' || (1 + n % 9) || '-' || ${two('1 + n % 28')} || ' ' || ${two('n % 24')} || ':' || ${two('n % 60')} || ':07' || ${frac('n')}`
  const since = `'2024-' || ${two('1 + n % 12')} || '-15T08:30:00.' || ${pg ? `lpad((n % 1000)::text, 3, '0')` : `printf('%03d', n % 1000)`} || 'Z'`
  return [
    `insert into bench_category (id, name) select ${hexId('0002', 'n')}, 'Category ' || n from (${seq(CATEGORIES)}) q`,
    `insert into bench_item (id, code, name, price, quantity, active, version, category_id)
     select ${hexId('0001', 'n')}, ${code('C', 'n')}, 'Item ' || n, (n % 1000) + 0.99, n % 50,
            n % 2 = 0, 1, ${hexId('0002', `(n % ${CATEGORIES}) + 1`)}
     from (${seq(rows)}) q`,
    `insert into bench_customer (id, name, email, since, points)
     select ${hexId('0004', 'n')}, 'Customer "' || n || '"', case when n % 5 = 0 then null else 'c' || n || '@example.com' end,
            ${pg ? `(${since})::timestamptz` : since}, n * 1000003
     from (${seq(customers)}) q`,
    `insert into bench_order (id, number, date, placed_at, delivery_time, total, status, customer_id)
     select ${hexId('0005', 'n')}, ${code('O', 'n')}, ${pg ? `(${placedAt})::date` : `substr(${placedAt}, 1, 10)`},
            ${pg ? `(${placedAt})::timestamp` : placedAt},
            case when n % 3 = 0 then null else ${two('n % 24')} || ':15:00' || ${frac('n + 1')} end ${pg ? '::time' : ''},
            (n % 500) * 1.5 + 0.1, case when n % 2 = 0 then 'P' else 'N' end,
            ${hexId('0004', `((n - 1) / ${ORDERS_PER_CUSTOMER}) + 1`)}
     from (${seq(orders)}) q`,
    `insert into bench_order_line (id, order_id, position, quantity, price, item_id)
     select ${hexId('0006', 'n')}, ${hexId('0005', `((n - 1) / ${LINES_PER_ORDER}) + 1`)},
            ((n - 1) % ${LINES_PER_ORDER}) + 1, 1 + n % 7, (n % 100) + 0.5,
            ${hexId('0001', `(n * 7919 % ${rows}) + 1`)}
     from (${seq(lines)}) q`,
  ]
}
