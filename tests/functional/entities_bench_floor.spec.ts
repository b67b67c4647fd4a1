/**
 * The scenarios of `bench:entities` (issue 24) answer with exactly the bytes of their raw floor
 * (scripts/bench_entities_floor.js: the driver alone, hand-written JSON), on the benchmark's
 * own model and data: list, load, search, a nested page (orders -> lines -> item, inline plan)
 * and three levels (customers -> orders -> lines -> item, named plan) - instance names, ids as
 * strings, decimals with their scale, dates and times, enums, nulls omitted. And a nested page
 * costs one statement per fetch-plan level whatever its size.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase, dialect } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, makeClient, sendJson } from '#tests/helpers/resource_server'
import { observeStatements } from '#tests/helpers/statements'
import * as M from '../../scripts/bench_entities_model.js'
import { floorScenarios, openDriver, type FloorDriver } from '../../scripts/bench_entities_floor.js'

const ROWS = 200
let token = ''
let driver: FloorDriver
let floor: ReturnType<typeof floorScenarios>

async function api(path: string) {
  const response = await sendJson(token, 'GET', path)
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`)
  return response.text
}

const nestedPath = (limit: number) =>
  `/rest/entities/bench_Order?limit=${limit}&fetchPlan=${encodeURIComponent(M.NESTED_PLAN)}`
const compositionPath = (limit: number) =>
  `/rest/entities/bench_Customer?limit=${limit}&fetchPlan=customer-orders`

test.group('bench:entities scenarios: byte-identical to the raw floor', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await applyDoc({ enums: M.ENUMS, entities: M.ENTITIES, fetchPlans: M.FETCH_PLANS })
    token = (await accessToken(await makeClient())).token
    const pg = dialect() === 'pg'
    const config = db.manager.get(db.primaryConnectionName)!.config.connection as any
    driver = await openDriver(
      pg ? { pg, pgConfig: { ...config } } : { pg, sqliteFile: config.filename }
    )
    for (const sql of M.seedStatements(pg, ROWS)) await driver.exec(sql)
    floor = floorScenarios(driver, { pg })
    return () => driver.close()
  })

  test('list, load and search (_base, the category folded in)', async ({ assert }) => {
    assert.equal(
      await api('/rest/entities/bench_Item?limit=20&fetchPlan=_base'),
      await floor.list()
    )
    for (const n of [1, 77, ROWS]) {
      const id = M.itemId(n)
      assert.equal(await api(`/rest/entities/bench_Item/${id}`), await floor.load(id))
    }
    const search = `/rest/entities/bench_Item/search?filter=${encodeURIComponent(M.SEARCH_FILTER)}&limit=20&fetchPlan=_base`
    assert.equal(await api(search), await floor.search(25))
  })

  test('nested page and three levels, at several page sizes', async ({ assert }) => {
    for (const limit of [1, 7, 20]) {
      const nested = await api(nestedPath(limit))
      assert.equal(nested, await floor.nested(limit), `nested, limit ${limit}`)
      assert.lengthOf(JSON.parse(nested), limit)
      const composition = await api(compositionPath(limit))
      assert.equal(composition, await floor.composition(limit), `composition, limit ${limit}`)
    }
    // What the comparison covers: nulls omitted, fractions, decimal scale, enums, escaping.
    const text = await api(compositionPath(20))
    assert.include(text, '"total":1.60')
    assert.include(text, '"placedAt":"2025-02-02T01:01:07"')
    assert.include(text, '"deliveryTime":"01:15:00"')
    assert.include(text, '"since":"2024-02-15T08:30:00.001Z"')
    assert.include(text, '"_instanceName":"Customer \\"1\\""')
    assert.match(text, /"deliveryTime":"\d\d:15:00\.5"/)
    assert.notInclude(text, 'null')
  })

  test('the floor with rows from the driver arrays (--floor-raw-rows) writes the same bytes', async ({
    assert,
  }) => {
    const pg = dialect() === 'pg'
    const config = db.manager.get(db.primaryConnectionName)!.config.connection as any
    const rawDriver = await openDriver(
      pg
        ? { pg, pgConfig: { ...config }, rawRows: true }
        : { pg, sqliteFile: config.filename, rawRows: true }
    )
    try {
      const raw = floorScenarios(rawDriver, { pg })
      const id = M.itemId(77)
      assert.equal(await raw.list(), await floor.list())
      assert.equal(await raw.load(id), await floor.load(id))
      assert.isNull(await raw.load(M.itemId(ROWS + 1)))
      assert.equal(await raw.search(25), await floor.search(25))
      assert.equal(await raw.nested(20), await floor.nested(20))
      assert.equal(await raw.composition(20), await api(compositionPath(20)))
    } finally {
      await rawDriver.close()
    }
  })

  test('one statement per fetch-plan level, whatever the page size', async ({ assert }) => {
    const counts = async (path: string) =>
      (await observeStatements(() => api(path))).filter((s) => /\bbench_/.test(s.sql)).length
    for (const limit of [1, 5, 20]) {
      // Orders; lines with their item and its category folded in.
      assert.equal(await counts(nestedPath(limit)), 2, `nested, limit ${limit}`)
      // Customers; orders; lines with item and category folded in.
      assert.equal(await counts(compositionPath(limit)), 3, `composition, limit ${limit}`)
    }
  })
})
