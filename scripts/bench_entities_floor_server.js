/*
 * The floor server of `bench:entities` (started by scripts/bench_entities.js, with its
 * arguments): plain node:http + the driver, the API's routes for the benchmark's scenarios,
 * the reads of scripts/bench_entities_floor.js (byte-identical JSON), create and update with
 * the same statements as the write pipeline's. FLOOR_PORT: the port; `--pg`: PostgreSQL.
 */
import { createServer } from 'node:http'
import { floorScenarios, openDriver } from './bench_entities_floor.js'
import { pgConfig } from './bench_common.js'

const PG = process.argv.includes('--pg')
const db = await openDriver({
  pg: PG,
  sqliteFile: 'tmp/bench-entities.sqlite3',
  pgConfig: pgConfig(process.env.BENCH_DB_DATABASE ?? 'modelgate_bench_entities'),
  rawRows: process.argv.includes('--floor-raw-rows'),
})
const reads = floorScenarios(db, { pg: PG })

function readBody(req) {
  return new Promise((resolve) => {
    let data = ''
    req.on('data', (chunk) => (data += chunk))
    req.on('end', () => resolve(data))
  })
}

async function minimalItem(t, id) {
  const [row] = await t.query(
    `select i.id, i.name, i.version, c.name as category_name from bench_item i
     left join bench_category c on c.id = i.category_id where i.id = ?`,
    [id]
  )
  return {
    _entityName: 'bench_Item',
    _instanceName: `${row.name} (${row.category_name ?? ''})`,
    id: String(row.id),
    version: row.version,
  }
}

async function create(body) {
  const newId = crypto.randomUUID()
  const result = await db.tx(async (t) => {
    // Reference existence, insert, then the minimal response (instance name + version).
    const [found] = await t.query('select id from bench_category where id = ?', [body.category.id])
    if (!found) return null
    await t.query(
      `insert into bench_item (id, code, name, price, quantity, active, version, category_id)
       values (?, ?, ?, ?, ?, ?, 1, ?)`,
      [
        newId,
        body.code,
        body.name,
        body.price,
        body.quantity,
        PG ? body.active : Number(body.active),
        found.id,
      ]
    )
    return minimalItem(t, newId)
  })
  return result ? [201, JSON.stringify(result), newId] : [400, '[{"message":"bad reference"}]']
}

async function update(id, body) {
  const result = await db.tx(async (t) => {
    const [row] = await t.query(
      'select id, code, name, price, quantity, active, version, category_id from bench_item where id = ?',
      [id]
    )
    if (!row) return null
    await t.query('update bench_item set quantity = ?, version = version + 1 where id = ?', [
      body.quantity,
      id,
    ])
    return minimalItem(t, id)
  })
  return result ? [200, JSON.stringify(result)] : [404, '{"error":"Entity not found"}']
}

/** [status, JSON text, created id?] of a request. */
async function answer(req) {
  const url = new URL(req.url, 'http://floor')
  const [, , , entity, id] = url.pathname.split('/') // /rest/entities/{entity}/{id|search}
  const limit = Number(url.searchParams.get('limit') ?? 20)
  if (req.method === 'GET') {
    if (entity === 'bench_Order') return [200, await reads.nested(limit)]
    if (entity === 'bench_Customer') return [200, await reads.composition(limit)]
    if (!id) return [200, await reads.list(limit)]
    if (id === 'search') {
      const filter = JSON.parse(url.searchParams.get('filter'))
      return [200, await reads.search(filter.conditions[1].value, limit)]
    }
    const item = await reads.load(id)
    return item ? [200, item] : [404, '{"error":"Entity not found"}']
  }
  const body = JSON.parse(await readBody(req))
  if (req.method === 'POST') return create(body)
  if (req.method === 'PUT') return update(id, body)
  return [405, '{}']
}

const server = createServer(async (req, res) => {
  try {
    const [status, body, created] = await answer(req)
    const headers = { 'content-type': 'application/json;charset=UTF-8' }
    if (created) headers.location = `/rest/entities/bench_Item/${created}`
    res.writeHead(status, headers)
    res.end(body)
  } catch (error) {
    res.writeHead(500, { 'content-type': 'application/json;charset=UTF-8' })
    res.end(JSON.stringify({ error: String(error) }))
  }
})
// A normal exit on SIGTERM (a CPU profile, --cpu-prof, is written on exit).
process.on('SIGTERM', () => process.exit(0))
server.listen(Number(process.env.FLOOR_PORT), '127.0.0.1', () => process.send?.('ready'))
