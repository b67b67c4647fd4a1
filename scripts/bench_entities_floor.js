/*
 * The raw floor of `bench:entities`: what hand-written code spends on each read scenario - the
 * driver alone (better-sqlite3, or pg with named statements and date/time columns read as
 * text), the same statements as the API (one per plan level, IN lists of the parent ids), and
 * JSON written as text with exactly the API's bytes (attribute order, instance names, ids as
 * strings, decimals with their scale, nulls omitted). Used by the floor server of
 * scripts/bench_entities.js and by tests/functional/entities_bench_floor.spec.ts, which checks
 * that each scenario's JSON is byte-identical to the API's.
 */

const s = JSON.stringify
/** `,"name":<json>` when the value is not null (the API omits nulls). */
const opt = (name, json) => (json === null ? '' : `,"${name}":${json}`)
const text = (v) => (v === null || v === undefined ? null : s(String(v)))
const num = (v) => (v === null || v === undefined ? null : String(Number(v)))
/** A decimal with its scale: PostgreSQL's numeric text as it is, SQLite's double fixed. */
const dec = (v) => (v === null || v === undefined ? null : typeof v === 'number' ? v.toFixed(2) : v)
const bool = (v) =>
  v === null || v === undefined ? null : v === true || v === 1 ? 'true' : 'false'
/** `2025-01-02 03:04:07.5` (both databases' text) -> `"2025-01-02T03:04:07.5"`. */
const dateTime = (v) =>
  v === null || v === undefined ? null : `"${v.slice(0, 10)}T${v.slice(11)}"`
/** A UTC instant as `toISOString` writes it, from PostgreSQL's text (TimeZone UTC) or SQLite's. */
function instant(v) {
  if (v === null || v === undefined) return null
  if (v.endsWith('Z')) return `"${v}"` // SQLite: stored as the instant's ISO text
  const [, day, time, fraction = ''] = /^(\S+) (\d\d:\d\d:\d\d)(?:\.(\d+))?\+00$/.exec(v)
  return `"${day}T${time}.${fraction.padEnd(3, '0').slice(0, 3)}Z"`
}
const STATUS = { N: 'NEW', P: 'PAID' }

const head = (entity, name, id) =>
  `{"_entityName":"${entity}","_instanceName":${s(name)},"id":"${id}"`

function category(id, name) {
  return `${head('bench_Category', name, id)},"name":${s(name)}}`
}

/** An item with `_base` (its category with `_base`), from a row's columns. */
function itemText(id, code, name, price, quantity, active, version, categoryId, categoryName) {
  return (
    head('bench_Item', `${name} (${categoryName ?? ''})`, id) +
    `,"code":${s(code)},"name":${s(name)}` +
    opt('price', dec(price)) +
    opt('quantity', num(quantity)) +
    opt('active', bool(active)) +
    (categoryId === null ? '' : `,"category":${category(categoryId, categoryName)}`) +
    `,"version":${version}}`
  )
}

/** An item of the list, load and search scenarios. */
export const itemJson = (r) =>
  itemText(
    r.id,
    r.code,
    r.name,
    r.price,
    r.quantity,
    r.active,
    r.version,
    r.category_id,
    r.category_name
  )

const ITEM_PAGE = `select i.id, i.code, i.name, i.price, i.quantity, i.active, i.version,
  c.id as category_id, c.name as category_name
  from bench_item i left join bench_category c on c.id = i.category_id`
const ORDERS = `select id, customer_id, number, date, placed_at, delivery_time, total, status
  from bench_order`
const LINES = `select l.id, l.order_id, l.position, l.quantity, l.price,
  i.id as item_id, i.code as item_code, i.name as item_name, c.name as category_name
  from bench_order_line l left join bench_item i on i.id = l.item_id
  left join bench_category c on c.id = i.category_id`
/** The composition's lines: the item with `_base` (lines extend `_base`, whose instance name
 * needs the item: the item comes with its own `_base` and category). */
const FULL_LINES = `select l.id, l.order_id, l.position, l.quantity, l.price,
  i.id as item_id, i.code, i.name, i.price as item_price, i.quantity as item_quantity, i.active,
  i.version, c.id as category_id, c.name as category_name
  from bench_order_line l left join bench_item i on i.id = l.item_id
  left join bench_category c on c.id = i.category_id`
const CUSTOMERS = 'select id, name, email, since, points from bench_customer'

/** `?, ?, ?` for `n` values. */
const marks = (n) => Array.from({ length: n }, () => '?').join(', ')

/** Rows grouped by `key`, in statement order. */
function groupBy(rows, key) {
  const out = new Map()
  for (const r of rows) {
    const k = r[key]
    const list = out.get(k)
    if (list) list.push(r)
    else out.set(k, [r])
  }
  return out
}

const itemName = (l) => (l.item_name === null ? '' : l.item_name)

/** A line of the nested scenario: item with code and name. */
function nestedLine(l) {
  const item =
    l.item_id === null
      ? ''
      : `,"item":${head('bench_Item', `${l.item_name} (${l.category_name ?? ''})`, l.item_id)},"code":${s(l.item_code)},"name":${s(l.item_name)}}`
  return (
    head('bench_OrderLine', `${itemName(l)} x ${l.quantity}`, l.id) +
    `,"position":${l.position},"quantity":${l.quantity}` +
    opt('price', dec(l.price)) +
    item +
    '}'
  )
}

/** A line of the composition scenario: `_base`, its item with `_base`. */
function compositionLine(l) {
  const item =
    l.item_id === null
      ? ''
      : `,"item":${itemText(l.item_id, l.code, l.name, l.item_price, l.item_quantity, l.active, l.version, l.category_id, l.category_name)}`
  return (
    head('bench_OrderLine', `${l.name ?? ''} x ${l.quantity}`, l.id) +
    `,"position":${l.position},"quantity":${l.quantity}` +
    opt('price', dec(l.price)) +
    item +
    '}'
  )
}

/** An order's own attributes (`_base`; the nested plan has no deliveryTime). */
function orderFields(o, withTime) {
  return (
    head('bench_Order', o.number, o.id) +
    `,"number":${s(o.number)},"date":"${String(o.date).slice(0, 10)}"` +
    opt('placedAt', dateTime(o.placed_at)) +
    (withTime ? opt('deliveryTime', text(o.delivery_time)) : '') +
    opt('total', dec(o.total)) +
    opt('status', o.status === null ? null : `"${STATUS[o.status]}"`)
  )
}

const array = (list, f) => `[${list ? list.map(f).join(',') : ''}]`

/**
 * The floor's scenarios over `db` (`query(sql, params)` -> rows, `?` placeholders): each
 * resolves to `{status, body}` with the body as JSON text. `pg`: booleans bound as such.
 */
export function floorScenarios(db, { pg }) {
  const page = async (where, params, limit) =>
    `[${(await db.query(`${ITEM_PAGE}${where} order by i.id limit ?`, [...params, limit])).map(itemJson).join(',')}]`
  const lines = async (orders, sql = LINES) =>
    orders.length
      ? groupBy(
          await db.query(
            `${sql} where l.order_id in (${marks(orders.length)}) order by l.id`,
            orders.map((o) => o.id)
          ),
          'order_id'
        )
      : new Map()
  return {
    list: (limit = 20) => page('', [], limit),
    search: (quantity, limit = 20) =>
      page(' where i.active = ? and i.quantity > ?', [pg ? true : 1, quantity], limit),
    async load(id) {
      const [row] = await db.query(`${ITEM_PAGE} where i.id = ?`, [id])
      return row ? itemJson(row) : null
    },
    /** Orders with their lines and each line's item (inline plan). */
    async nested(limit = 20) {
      const orders = await db.query(`${ORDERS} order by id limit ?`, [limit])
      const byOrder = await lines(orders)
      return array(
        orders,
        (o) => `${orderFields(o, false)},"lines":${array(byOrder.get(o.id), nestedLine)}}`
      )
    },
    /** Customers -> orders -> lines -> item (named plan `customer-orders`). */
    async composition(limit = 20) {
      const customers = await db.query(`${CUSTOMERS} order by id limit ?`, [limit])
      const orders = customers.length
        ? await db.query(
            `${ORDERS} where customer_id in (${marks(customers.length)}) order by id`,
            customers.map((c) => c.id)
          )
        : []
      const byCustomer = groupBy(orders, 'customer_id')
      const byOrder = await lines(orders, FULL_LINES)
      const order = (o) =>
        `${orderFields(o, true)},"lines":${array(byOrder.get(o.id), compositionLine)}}`
      return array(
        customers,
        (c) =>
          head('bench_Customer', c.name, c.id) +
          `,"name":${s(c.name)}` +
          opt('email', text(c.email)) +
          opt('since', instant(c.since)) +
          opt('points', num(c.points)) +
          `,"orders":${array(byCustomer.get(c.id), order)}}`
      )
    },
  }
}

/**
 * `rawRows` (`bench:entities --floor-raw-rows`): the floor's rows come from the driver's arrays
 * through an object literal compiled per statement, as the API's reads make them
 * (app/engine/schema/dialects/sqlite_rows.ts, pg_rows.ts), instead of the driver's own objects.
 */
function rowBuilder(names) {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ')
  return new Function('v', `return { ${fields} }`)
}

/** A SQLite statement of the floor (raw, with its row builder, under `rawRows`). */
function prepare(conn, sql, rawRows) {
  const st = conn.prepare(sql)
  if (!rawRows || !st.reader) return st
  st.build = rowBuilder(st.columns().map((c) => c.name))
  return st.raw(true)
}

/** pg type parsers of the floor: date, timestamp and timestamptz as the server's text. */
const TEXT_TYPES = new Set([1082, 1114, 1184])

/**
 * `query(sql, params)` -> rows, `run`, `exec`, `tx(fn)`, `close()` with `?` placeholders, on
 * the driver alone. PostgreSQL: statements named once seen (prepared per connection, as the
 * API's are), dates as text, TimeZone UTC.
 */
export async function openDriver({ pg: usePg, sqliteFile, pgConfig, rawRows = false }) {
  if (!usePg) {
    const { default: Database } = await import('better-sqlite3')
    const conn = new Database(sqliteFile)
    conn.pragma('journal_mode = WAL')
    conn.pragma('foreign_keys = ON')
    conn.pragma('busy_timeout = 5000')
    const cache = new Map()
    const stmt = (sql) => cache.get(sql) ?? cache.set(sql, prepare(conn, sql, rawRows)).get(sql)
    const all = (sql, params) => {
      const st = stmt(sql)
      if (!st.reader) return (st.run(...params), [])
      const rows = st.all(...params)
      if (st.build) for (let i = 0; i < rows.length; i++) rows[i] = st.build(rows[i])
      return rows
    }
    return {
      query: async (sql, params = []) => all(sql, params),
      run: async (sql, params = []) => void stmt(sql).run(...params),
      exec: async (sql) => void conn.exec(sql),
      tx: async (fn) => {
        // better-sqlite3 is synchronous: nothing else runs between BEGIN and COMMIT.
        conn.exec('BEGIN IMMEDIATE')
        try {
          const result = await fn({ query: async (q, p = []) => all(q, p) })
          conn.exec('COMMIT')
          return result
        } catch (error) {
          conn.exec('ROLLBACK')
          throw error
        }
      },
      close: async () => conn.close(),
    }
  }
  const { default: pg } = await import('pg')
  const types = {
    getTypeParser: (oid, format) =>
      TEXT_TYPES.has(oid) ? (v) => v : pg.types.getTypeParser(oid, format),
  }
  const pool = new pg.Pool({ ...pgConfig, max: 10, options: '-c TimeZone=UTC' })
  const named = new Map()
  const prepared = (sql) => {
    let entry = named.get(sql)
    if (!entry) {
      let i = 0
      const text = sql.replace(/\?/g, () => `$${++i}`)
      named.set(sql, (entry = { text, name: `floor${named.size + 1}` }))
    }
    return entry
  }
  const query = async (client, sql, params = []) => {
    const entry = prepared(sql)
    const { text, name } = entry
    if (!rawRows) return (await client.query({ text, name, values: params, types })).rows
    const result = await client.query({ text, name, values: params, types, rowMode: 'array' })
    if (!result.fields.length) return result.rows
    const build = (entry.build ??= rowBuilder(result.fields.map((f) => f.name)))
    return result.rows.map(build)
  }
  return {
    query: (sql, params) => query(pool, sql, params),
    run: async (sql, params) => void (await query(pool, sql, params)),
    exec: async (sql) => void (await pool.query(sql)),
    tx: async (fn) => {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn({ query: (q, p) => query(client, q, p) })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
