/**
 * Filtered pages reuse the SQL compiled for their shape (app/engine/data/read/shapes.ts): a
 * search repeated with other values must run exactly the statement the query builder would
 * compile for it. For a corpus of filters - the same structures with other values, and
 * structures that differ only slightly (list lengths, empty lists, LIKE and its index ranges,
 * null or not, AND or OR, to-one, to-many and many-to-many paths, the order column) - every
 * statement run through a warm shape cache has the builder's SQL text, values and rows.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { directReader } from '#engine/schema/dialects/direct_reads'
import { prefixRangeFolding } from '#engine/schema/dialects/text_search'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc, fullAccessData, numberedId } from '#tests/helpers/engine'

const id = numberedId

const doc = {
  entities: [
    {
      name: 'fs_Tag',
      idType: 'uuid',
      instanceName: 'name',
      attributes: [{ name: 'name', type: 'string', length: 20 }],
    },
    {
      name: 'fs_Owner',
      idType: 'uuid',
      instanceName: 'name',
      attributes: [{ name: 'name', type: 'string', length: 20 }],
    },
    {
      name: 'fs_Item',
      idType: 'uuid',
      instanceName: 'name',
      attributes: [
        { name: 'name', type: 'string', length: 20 },
        { name: 'count', type: 'int' },
        { name: 'active', type: 'boolean' },
        { name: 'day', type: 'date' },
        { name: 'owner', type: 'association', cardinality: 'MANY_TO_ONE', target: 'fs_Owner' },
        { name: 'tags', type: 'association', cardinality: 'MANY_TO_MANY', target: 'fs_Tag' },
        {
          name: 'lines',
          type: 'composition',
          cardinality: 'ONE_TO_MANY',
          target: 'fs_Line',
          mappedBy: 'item',
        },
      ],
    },
    {
      name: 'fs_Line',
      idType: 'uuid',
      instanceName: 'note',
      attributes: [
        { name: 'note', type: 'string', length: 20 },
        { name: 'item', type: 'association', cardinality: 'MANY_TO_ONE', target: 'fs_Item' },
      ],
    },
  ],
}

const c = (property: string, operator: string, value?: unknown) =>
  value === undefined ? { property, operator } : { property, operator, value }
const and = (...conditions: object[]) => ({ conditions })
const or = (...conditions: object[]) => ({ group: 'OR', conditions })
const all = (...conditions: object[]) => ({ group: 'AND', conditions })

/** Structures, each with several value sets; neighbours differ in one structural detail. */
const FILTERS: object[] = [
  and(c('count', '>', 3)),
  and(c('count', '>', 7)),
  and(c('count', '>=', 3)),
  and(c('count', '<', 3)),
  and(c('active', '=', true), c('count', '>', 2)),
  and(c('active', '=', false), c('count', '>', 5)),
  and(c('active', '<>', true), c('count', '>', 5)),
  and(c('count', 'in', [1, 2])),
  and(c('count', 'in', [3, 4])),
  and(c('count', 'in', [1, 2, 3])),
  and(c('count', 'in', [])),
  and(c('count', 'notIn', [])),
  and(c('count', 'notIn', [1, 2])),
  and(c('name', 'startsWith', 'it')),
  and(c('name', 'startsWith', 'IT')),
  and(c('name', 'startsWith', 'item 1')),
  and(c('name', 'startsWith', '')),
  and(c('name', 'startsWith', 'x_%')),
  and(c('name', 'contains', 'em 1')),
  and(c('name', 'contains', 'EM 2')),
  and(c('name', 'doesNotContain', 'em 1')),
  and(c('name', 'endsWith', '3')),
  and(c('day', 'isNull')),
  and(c('day', 'isNull', false)),
  and(c('day', 'notEmpty')),
  and(c('day', '>', '2026-01-05')),
  and(c('day', '>', '2026-01-02')),
  and(c('owner', 'isNull')),
  and(c('owner', '=', id(11))),
  and(c('owner', '=', id(12))),
  and(c('owner.name', '=', 'alpha')),
  and(c('owner.name', 'startsWith', 'be')),
  and(c('owner.name', '<>', 'alpha')),
  and(c('tags.name', '=', 'red')),
  and(c('tags.name', '=', 'blue')),
  and(c('tags', 'isNull')),
  and(c('tags', 'notEmpty')),
  and(c('lines.note', 'contains', 'n1')),
  and(c('lines.note', 'contains', 'n2')),
  and(c('lines', 'notEmpty')),
  and(or(c('count', '<', 2), c('count', '>', 8))),
  and(or(c('count', '<', 4), c('count', '>', 6))),
  and(or(c('count', '<', 4), c('name', 'startsWith', 'item 9'))),
  and(or(c('count', '<', 4), all(c('active', '=', true), c('count', '>', 6)))),
  and(or(c('count', '<', 4), or(c('active', '=', true), c('count', '>', 6)))),
  and(c('count', '>', 2), or(c('owner.name', '=', 'beta'), c('tags.name', '=', 'red'))),
  and(c('count', '>', 4), or(c('owner.name', '=', 'alpha'), c('tags.name', '=', 'blue'))),
]
const SORTS = [undefined, 'name', '-name', 'count']

interface Run {
  sql: string
  bindings: unknown[]
  names: unknown[]
}

/** Lists with `filter` and `sort`; the page statement it ran and the rows it returned. */
async function run(filter: object, sort: string | undefined): Promise<Run> {
  const data = await fullAccessData()
  const seen: { sql: string; bindings: unknown[] }[] = []
  const knex = db.connection().getReadClient()
  const listener = (_: unknown, query: { sql: string; bindings: unknown[] }) => {
    if (/from ["`]fs_item["`] as ["`]t0["`]/.test(query.sql)) seen.push(query)
  }
  knex.on('query-response', listener)
  try {
    const page = await data.list('fs_Item', { filter, sort, limit: 5, fetchPlan: '_local' })
    const [statement] = seen
    return {
      sql: statement.sql,
      bindings: [...statement.bindings],
      names: page.items.map((i) => i.name),
    }
  } finally {
    knex.removeListener('query-response', listener)
  }
}

const shapes = () => directReader(db.manager.get(db.primaryConnectionName)!.connection!)!.shapes

test.group('entities: filter shapes', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await applyDoc(doc)
    await db.table('fs_owner').multiInsert([
      { id: id(11), name: 'alpha' },
      { id: id(12), name: 'beta' },
    ])
    await db.table('fs_tag').multiInsert([
      { id: id(21), name: 'red' },
      { id: id(22), name: 'blue' },
    ])
    const items = Array.from({ length: 10 }, (_, n) => ({
      id: id(101 + n),
      name: `item ${n}`,
      count: n,
      active: n % 2 === 0,
      day: n % 3 === 0 ? null : `2026-01-0${1 + (n % 9)}`,
      owner_id: n % 4 === 0 ? null : id(11 + (n % 2)),
    }))
    await db.table('fs_item').multiInsert(items)
    await db
      .table('fs_line')
      .multiInsert([1, 2, 5].map((n) => ({ id: id(301 + n), note: `n${n}`, item_id: id(101 + n) })))
  })

  test('a warm shape cache runs the builder SQL, values and rows of every filter', async ({
    assert,
  }) => {
    // The index ranges of `startsWith` follow the database's case folding, probed once.
    await prefixRangeFolding(db.connection())
    const cases = SORTS.flatMap((sort) => FILTERS.map((filter) => ({ filter, sort })))
    const truth: Run[] = []
    for (const { filter, sort } of cases) {
      shapes().clear()
      truth.push(await run(filter, sort))
    }
    let reused = 0
    for (const order of [cases.map((_, i) => i), cases.map((_, i) => cases.length - 1 - i)]) {
      shapes().clear()
      const cache = shapes()
      const get = cache.get.bind(cache)
      // Counts the statements whose SQL came from the cache (the builder did not compile them).
      cache.get = (key: string) => {
        const sql = get(key)
        if (key.startsWith('page|fs_item') && typeof sql === 'string') reused++
        return sql
      }
      for (const i of order) {
        const { filter, sort } = cases[i]
        const label = `${JSON.stringify(filter)} sort ${sort}`
        const warm = await run(filter, sort)
        assert.deepEqual(warm, truth[i], label)
      }
      delete (cache as { get?: unknown }).get
    }
    // Most filters share their shape with a neighbour: they ran on the cached SQL.
    assert.isAbove(reused, cases.length / 2)
    // The corpus is not trivial: its structures compile to many statements.
    assert.isAbove(new Set(truth.map((t) => t.sql)).size, 60)
  })
})
