/**
 * The read pipeline's direct path (app/engine/data/read/shaped.ts, schema/dialects/
 * direct_reads.ts): reads outside a transaction run on the driver with SQL cached per statement
 * shape. What a user sees: a read never waits for a write transaction and never sees its
 * uncommitted rows; a model change shows in the next read (the cached SQL follows the model);
 * results through the shape cache equal the builder's on every request, not just the first.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc, fullAccessData, numberedId } from '#tests/helpers/engine'

const id = numberedId

const entities = (extra: Record<string, unknown>[] = []) => [
  {
    name: 'dr_Shelf',
    idType: 'uuid',
    instanceName: 'label',
    attributes: [{ name: 'label', type: 'string', length: 40 }],
  },
  {
    name: 'dr_Box',
    idType: 'uuid',
    traits: ['versioned'],
    instanceName: '{label} on {shelf.label}',
    attributes: [
      { name: 'label', type: 'string', length: 40 },
      { name: 'weight', type: 'int' },
      {
        name: 'shelf',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: 'dr_Shelf',
      },
      ...extra,
    ],
  },
]

/** `promise`, or a rejection after `ms` (a read that waits for a lock never settles in time). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`waited ${ms} ms`)), ms)),
  ])
}

test.group('entities: direct reads', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await applyDoc({ entities: entities() })
    await db.table('dr_shelf').multiInsert([
      { id: id(1), label: 'top' },
      { id: id(2), label: 'bottom' },
    ])
    await db.table('dr_box').multiInsert(
      [1, 2, 3, 4, 5].map((n) => ({
        id: id(100 + n),
        label: `box ${n}`,
        weight: n * 10,
        shelf_id: id(1 + (n % 2)),
        version: 1,
      }))
    )
  })

  test('a read does not wait for an open write transaction and does not see its rows', async ({
    assert,
  }) => {
    const dm = await fullAccessData()
    const trx = await db.transaction()
    try {
      await trx.table('dr_box').insert({
        id: id(200),
        label: 'uncommitted',
        weight: 1,
        shelf_id: id(1),
        version: 1,
      })
      await trx.from('dr_box').where('id', id(101)).update({ weight: 999 })
      const page = await within(dm.list('dr_Box', { sort: 'label', fetchPlan: '_base' }), 2000)
      assert.deepEqual(
        page.items.map((b) => [b.label, b.weight]),
        [1, 2, 3, 4, 5].map((n) => [`box ${n}`, n * 10])
      )
      await assert.rejects(() => within(dm.load('dr_Box', id(200)), 2000), /Entity not found/)
      await trx.commit()
    } catch (error) {
      await trx.rollback()
      throw error
    }
    const after = await dm.list('dr_Box', { sort: 'label' })
    assert.deepEqual(
      after.items.map((b) => [b.label, b.weight]),
      [
        ['box 1', 999],
        ['box 2', 20],
        ['box 3', 30],
        ['box 4', 40],
        ['box 5', 50],
        ['uncommitted', 1],
      ]
    )
    const loaded = await dm.load('dr_Box', id(200), { fetchPlan: '_base' })
    assert.equal(loaded._instanceName, 'uncommitted on top')
  })

  test('the same statement shape with other values: every answer is right', async ({ assert }) => {
    const dm = await fullAccessData()
    for (let round = 0; round < 3; round++) {
      for (const n of [1, 2, 3, 4, 5]) {
        const box = await dm.load('dr_Box', id(100 + n), { fetchPlan: '_base' })
        assert.equal(box.label, `box ${n}`)
        assert.equal(box._instanceName, `box ${n} on ${n % 2 ? 'bottom' : 'top'}`)
        assert.deepInclude(box.shelf as object, { id: id(1 + (n % 2)) })
      }
      for (const [limit, offset] of [
        [2, 0],
        [2, 2],
        [3, 1],
        [10, 0],
      ]) {
        const page = await dm.list('dr_Box', { sort: '-weight', limit, offset })
        const expected = [5, 4, 3, 2, 1].slice(offset, offset + limit).map((n) => `box ${n}`)
        assert.deepEqual(
          page.items.map((b) => b.label),
          expected
        )
      }
    }
    await assert.rejects(() => dm.load('dr_Box', id(999)), /Entity not found/)
  })

  test('a model change shows in the next read; a dropped attribute is gone', async ({ assert }) => {
    const dm = await fullAccessData()
    assert.notProperty(await dm.load('dr_Box', id(101)), 'colour')
    await applyDoc({ entities: entities([{ name: 'colour', type: 'string', length: 20 }]) })
    await db.from('dr_box').where('id', id(101)).update({ colour: 'red' })
    const changed = await fullAccessData()
    assert.equal((await changed.load('dr_Box', id(101))).colour, 'red')
    assert.equal((await changed.list('dr_Box', { sort: 'label', limit: 1 })).items[0].colour, 'red')
    await applyDoc({ prune: true, entities: entities() }, { allowDataLoss: true })
    const reverted = await fullAccessData()
    const box = await reverted.load('dr_Box', id(101))
    assert.notProperty(box, 'colour')
    assert.equal(box.label, 'box 1')
  })
})
