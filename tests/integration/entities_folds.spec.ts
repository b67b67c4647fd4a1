/**
 * Folded to-one references (app/engine/data/read/folds.ts) along a chain longer than one
 * statement may join: a node's parent's parent... 11 levels up the same table. What a user sees:
 * every level is there and right (a column named up to the identifier limit included),
 * soft-deleted parents read as absent, and the statement count
 * stays fixed (8 joins in the first statement, the rest from one batch with joins of its own),
 * the same through a warm shape cache.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc, fullAccessData, numberedId } from '#tests/helpers/engine'
import { observeStatements } from '#tests/helpers/statements'
import { columnNameFor } from '#engine/metadata/naming'

const id = numberedId
const DEPTH = 11
/** A column name of 60 characters: with a prefix, past PostgreSQL's 63-byte identifiers. */
const LONG = 'noteWithANameLongEnoughToReachTheLimitOfSqlIdents'

/** `parent` nested `depth` levels deep. */
function chainPlan(depth: number): Record<string, unknown> {
  const properties: unknown[] = ['name', LONG]
  if (depth > 0) properties.push({ name: 'parent', fetchPlan: chainPlan(depth - 1) })
  return { properties }
}

/** The names up the chain of `node`, as the response nests them. */
function names(node: any): string[] {
  const out: string[] = []
  for (let at = node.parent; at; at = at.parent) {
    if (at[LONG] !== `note of ${at.name}`) throw new Error(`${at.name}: ${at[LONG]}`)
    out.push(at.name)
  }
  return out
}

test.group('entities: folded to-one references', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await applyDoc({
      entities: [
        {
          name: 'fo_Node',
          idType: 'uuid',
          traits: ['softDelete'],
          instanceName: 'name',
          attributes: [
            { name: 'name', type: 'string', length: 20 },
            { name: LONG, type: 'string', length: 20 },
            { name: 'parent', type: 'association', cardinality: 'MANY_TO_ONE', target: 'fo_Node' },
          ],
        },
      ],
    })
    // n0 <- n1 <- ... <- n11
    for (let n = 0; n <= DEPTH; n++) {
      await db.table('fo_node').insert({
        id: id(n),
        name: `n${n}`,
        [columnNameFor(LONG)]: `note of n${n}`,
        parent_id: n ? id(n - 1) : null,
      })
    }
  })

  test('an 11-level chain: every level, two statements, the same when warm', async ({ assert }) => {
    const dm = await fullAccessData()
    const plan = JSON.stringify({ entity: 'fo_Node', ...chainPlan(DEPTH) })
    const expected = Array.from({ length: DEPTH }, (_, i) => `n${DEPTH - 1 - i}`)
    for (const round of ['cold', 'warm']) {
      let node: any
      const seen = await observeStatements(async () => {
        node = await dm.load('fo_Node', id(DEPTH), { fetchPlan: plan })
      })
      assert.deepEqual(names(node), expected, round)
      assert.lengthOf(seen, 2, `${round}: ${seen.map((s) => s.sql).join('\n')}`)
      assert.match(seen[0].sql, /as .j8. on .j8.\..id. = .j7.\..parent_id./)
      assert.notMatch(seen[0].sql, /j9/)
      assert.match(seen[1].sql, /from .fo_node. as .r. left join .fo_node. as .j1./)
      // A folded reference's key is not selected (the joined id stands for it); the last
      // joined level's is, for the batch that follows it.
      const selected = seen[0].sql.slice(0, seen[0].sql.indexOf(' from '))
      assert.notMatch(selected, /.t0.\..parent_id./, round)
      assert.notMatch(selected, /.j7.\..parent_id./, round)
      assert.match(selected, /.j8.\..parent_id./, round)
    }
  })

  test('a soft-deleted parent ends the chain at every depth, joined or batched', async ({
    assert,
  }) => {
    await db.from('fo_node').where('id', id(5)).update({ deleted_date: new Date().toISOString() })
    const dm = await fullAccessData()
    const plan = JSON.stringify({ entity: 'fo_Node', ...chainPlan(DEPTH) })
    const node: any = await dm.load('fo_Node', id(DEPTH), { fetchPlan: plan })
    assert.deepEqual(names(node), ['n10', 'n9', 'n8', 'n7', 'n6'])
    let n6 = node
    while (n6.name !== 'n6') n6 = n6.parent
    assert.notProperty(n6, 'parent')
    const page = await dm.list('fo_Node', { fetchPlan: plan, sort: 'name' })
    // n5 itself is hidden; n6 and above stop at n6, n4 and below reach n0.
    assert.deepEqual(
      page.items.map((n) => [n.name, names(n).length]),
      [
        ['n0', 0],
        ['n1', 1],
        ['n10', 4],
        ['n11', 5],
        ['n2', 2],
        ['n3', 3],
        ['n4', 4],
        ['n6', 0],
        ['n7', 1],
        ['n8', 2],
        ['n9', 3],
      ]
    )
  })
})

test.group('entities: folded to-one references, wide targets', (group) => {
  const WIDTH = 400
  const REFS = ['a', 'b', 'c', 'd', 'e']

  group.each.setup(async () => {
    await resetDatabase()
    await applyDoc({
      entities: [
        {
          name: 'fw_Wide',
          idType: 'uuid',
          instanceName: 'v0',
          attributes: Array.from({ length: WIDTH }, (_, i) => ({ name: `v${i}`, type: 'int' })),
        },
        {
          name: 'fw_Holder',
          idType: 'uuid',
          attributes: REFS.map((name) => ({
            name,
            type: 'association',
            cardinality: 'MANY_TO_ONE',
            target: 'fw_Wide',
          })),
        },
      ],
    })
    const wide: Record<string, unknown> = { id: id(1) }
    for (let i = 0; i < WIDTH; i++) wide[`v${i}`] = i
    await db.table('fw_wide').insert(wide)
    await db.table('fw_holder').insert({
      id: id(2),
      ...Object.fromEntries(REFS.map((r) => [`${r}_id`, id(1)])),
    })
  })

  test('5 references of 401 columns: joined up to the column limit, the rest batched', async ({
    assert,
  }) => {
    const dm = await fullAccessData()
    const plan = JSON.stringify({
      entity: 'fw_Holder',
      properties: REFS.map((name) => ({ name, fetchPlan: '_local' })),
    })
    let holder: any
    const seen = await observeStatements(async () => {
      holder = await dm.load('fw_Holder', id(2), { fetchPlan: plan })
    })
    for (const r of REFS) assert.equal(holder[r].v399, WIDTH - 1, r)
    // 2 joined (6 + 2 x 401 columns), 3 batched: one statement would have had 2011 columns,
    // past what both databases allow in a result.
    assert.lengthOf(seen, 4)
    assert.match(seen[0].sql, /as .j2./)
    assert.notMatch(seen[0].sql, /as .j3./)
  })
})
