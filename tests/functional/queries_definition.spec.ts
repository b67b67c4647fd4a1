/**
 * The `queries` section of the application definition (README "Definition format"): export
 * and re-import change nothing; invalid queries are refused at their JSON paths with nothing
 * changed; prune removes the queries a pruned section does not name.
 */
import { test } from '@japa/runner'
import { definitions } from '#definition/main'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'
import { CUSTOMER } from '#tests/helpers/security'
import { QUERIES, THING, THING_ENTITY, setupQueriesFixture } from './queries_fixtures.js'

const valid = {
  entity: CUSTOMER,
  name: 'extra',
  filter: { conditions: [{ property: 'region', operator: '=', value: ':r' }] },
  params: [{ name: 'r', type: 'string' }],
}

/** Imports one invalid query; returns the problems and proves nothing changed. */
async function refused(assert: any, query: Record<string, unknown>) {
  const before = await snapshotState()
  const result = await importDoc({ queries: [valid, query] })
  assert.equal(result.status, 'invalid', JSON.stringify(query))
  assert.equal(await snapshotState(), before, 'nothing changed')
  return result.problems.map((p: any) => `${p.path}: ${p.message}`)
}

test.group('Definition: the queries section', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupQueriesFixture()
  })

  test('export then import changes nothing', async ({ assert }) => {
    const exported = await definitions(await engine()).exportDocument()
    assert.lengthOf(exported.queries as unknown[], QUERIES.length)
    assert.deepEqual(
      (exported.queries as any[]).find((q) => q.name === 'named'),
      {
        entity: CUSTOMER,
        name: 'named',
        filter: QUERIES[1].filter,
        limit: 1,
        params: QUERIES[1].params,
      }
    )
    const before = await snapshotState()
    const again = await importDoc(exported as Record<string, unknown>)
    assert.equal(again.status, 'unchanged', JSON.stringify(again.changes))
    assert.equal(await snapshotState(), before)
  })

  test('invalid queries are refused at their paths', async ({ assert }) => {
    const base = { ...valid, name: 'bad' }
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, entity: 'nope_X' }, "$.queries[1].entity: unknown entity 'nope_X'"],
      [{ ...base, name: 'ALL' }, "$.queries[1].name: 'all' is the built-in query of every entity"],
      [{ ...base, name: 'extra' }, '$.queries[1].name: duplicate query'],
      [{ ...base, fetchPlan: 'nope' }, "$.queries[1].fetchPlan: unknown fetch plan 'nope'"],
      [{ ...base, sort: 'nope' }, '$.queries[1].sort: Cannot sort'],
      [
        { ...base, filter: { conditions: [{ property: 'nope', operator: '=', value: ':r' }] } },
        `$.queries[1].filter: Property for ${CUSTOMER} not found: nope`,
      ],
      [
        {
          ...base,
          filter: { conditions: [{ property: 'creditLimit', operator: '>', value: ':r' }] },
        },
        '$.queries[1].filter: Cannot parse property value: sample',
      ],
      [{ ...base, params: [] }, "$.queries[1].filter: parameter 'r' is not declared in params"],
      [
        { ...base, params: [{ name: 'r', type: 'text' }] },
        "$.queries[1].params[0].type: 'text' is not one of",
      ],
      [
        { ...base, params: [{ name: 'r', type: 'enum', enum: 'nope' }] },
        "$.queries[1].params[0].enum: unknown enum 'nope'",
      ],
      [
        { ...base, params: [{ name: 'r', type: 'entity' }] },
        "$.queries[1].params[0].entity: unknown entity ''",
      ],
      [
        {
          ...base,
          params: [
            { name: 'r', type: 'string' },
            { name: 'r', type: 'string' },
          ],
        },
        "$.queries[1].params[1].name: duplicate parameter 'r'",
      ],
      [{ ...base, limt: 3 }, "$.queries[1].limt: unknown property 'limt'"],
    ]
    for (const [query, expected] of cases) {
      const problems = await refused(assert, query)
      assert.isTrue(
        problems.some((p: string) => p.startsWith(expected)),
        `${expected} in ${problems.join(' | ')}`
      )
    }
  })

  test('a valid change is planned, applied and pruned', async ({ assert }) => {
    const dry = await importDoc({ queries: [valid] }, { dryRun: true })
    assert.deepEqual(dry.changes, [`query ${CUSTOMER}/extra: created`])
    const applied = await importDoc({ queries: [valid] })
    assert.equal(applied.status, 'applied')
    const listed = await definitions(await engine()).exportDocument()
    assert.lengthOf(listed.queries as unknown[], QUERIES.length + 1)
    const same = await importDoc({ queries: [valid] })
    assert.equal(same.status, 'unchanged', 'without prune the others stay')
    const onlyThing = (listed.queries as any[]).filter((q) => q.entity === THING)
    const result = await definitions(await engine()).importDocument(
      { formatVersion: 1, queries: onlyThing },
      { pruneSections: ['queries'] }
    )
    assert.equal(result.status, 'applied', JSON.stringify(result.problems))
    const after = await definitions(await engine()).exportDocument()
    assert.deepEqual(
      (after.queries as any[]).map((q) => q.entity),
      onlyThing.map(() => THING)
    )
  })

  test('stored queries follow renames; a model change that breaks one is refused', async ({
    assert,
  }) => {
    const thing = structuredClone(THING_ENTITY) as any
    thing.name = 'qry_Item'
    thing.renamedFrom = THING
    thing.instanceName = '{title}'
    thing.attributes[0] = { ...thing.attributes[0], name: 'title', renamedFrom: 'label' }
    const renamed = await importDoc({ entities: [thing] })
    assert.equal(renamed.status, 'applied', JSON.stringify(renamed.problems))
    assert.include(
      renamed.changes,
      `query ${THING}/by_label: follows the renames as qry_Item/by_label`
    )
    const exported = await definitions(await engine()).exportDocument()
    const byLabel = (exported.queries as any[]).find((q) => q.name === 'by_label')
    assert.equal(byLabel.entity, 'qry_Item')
    assert.deepEqual(byLabel.filter.conditions[0].property, 'title')
    assert.notInclude(
      (exported.queries as any[]).map((q) => q.entity),
      THING
    )

    const before = await snapshotState()
    const withoutQty = { ...thing, renamedFrom: undefined }
    withoutQty.attributes = thing.attributes
      .filter((a: any) => a.name !== 'qty')
      .map(({ renamedFrom: _r, ...a }: any) => a)
    delete withoutQty.renamedFrom
    const refusedChange = await importDoc(
      { entities: [withoutQty], prune: true },
      { allowDataLoss: true }
    )
    assert.equal(refusedChange.status, 'invalid')
    assert.deepInclude(refusedChange.problems, {
      path: '$.queries',
      message: `stored query qry_Item/by_qty (filter): Property for qry_Item not found: qty; change or delete the query first`,
    })
    assert.equal(await snapshotState(), before, 'nothing changed')
  })
})
