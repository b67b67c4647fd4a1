/**
 * Write transactions on a pooled connection (app/engine/schema/dialects/direct_writes.ts):
 * everything in a transaction commits together or not at all, the connection always goes back
 * to the pool, builders give knex's results, statements are reported, and concurrent writes
 * through DataManager all land.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { directTransaction } from '#engine/schema/dialects/direct_writes'
import { dialect, poolInUseSettled, resetDatabase } from '#tests/helpers/database'
import { applyDoc, fullAccessData, numberedId } from '#tests/helpers/engine'
import { observeStatements } from '#tests/helpers/statements'

const id = numberedId

const doc = {
  entities: [
    {
      name: 'dw_Crate',
      idType: 'uuid',
      traits: ['versioned'],
      instanceName: 'label',
      attributes: [
        { name: 'label', type: 'string', length: 10, mandatory: true, unique: true },
        { name: 'weight', type: 'int' },
      ],
    },
  ],
}

const labels = async () =>
  (await db.from('dw_crate').select('label').orderBy('label')).map((r) => r.label)

test.group('entities: direct write transactions', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await applyDoc(doc)
    await db.table('dw_crate').insert({ id: id(1), label: 'first', weight: 1, version: 1 })
  })

  test('an error thrown in the transaction undoes every statement before it', async ({
    assert,
  }) => {
    await assert.rejects(
      () =>
        directTransaction(db.connection(), async (trx) => {
          await trx.table('dw_crate').insert({ id: id(2), label: 'second', version: 1 })
          await trx.from('dw_crate').where('id', id(1)).update({ weight: 99 })
          throw new Error('boom')
        }),
      'boom'
    )
    await assert.rejects(() =>
      directTransaction(db.connection(), async (trx) => {
        await trx.table('dw_crate').insert({ id: id(3), label: 'third', version: 1 })
        await trx.from('no_such_table').select('id')
      })
    )
    assert.deepEqual(await labels(), ['first'])
    assert.equal((await db.from('dw_crate').where('id', id(1)).first()).weight, 1)
    assert.equal(await poolInUseSettled(), 0)
  })

  test("builders give knex's results: rows, first, changed counts, returning", async ({
    assert,
  }) => {
    const result = await directTransaction(db.connection(), async (trx) => {
      const inserted = await trx
        .table('dw_crate')
        .insert({ id: id(2), label: 'second', weight: 2, version: 1 })
        .returning('id')
      const query = trx.from('dw_crate').where('weight', '>', 0)
      const all = await query.clone().orderBy('label').select('label')
      const first = await trx.from('dw_crate').where('id', id(2)).first()
      const none = await trx.from('dw_crate').where('id', id(9)).first()
      const updated = await query.clone().update({ weight: 5 })
      const deleted = await trx.from('dw_crate').where('id', id(9)).delete()
      return { inserted, all, first, none, updated, deleted }
    })
    // As knex: the returned ids on PostgreSQL; SQLite has no RETURNING here, so the rowid.
    assert.deepEqual(result.inserted, dialect() === 'pg' ? [{ id: id(2) }] : [2])
    assert.deepEqual(result.all, [{ label: 'first' }, { label: 'second' }])
    assert.equal(result.first?.label, 'second')
    assert.isNull(result.none)
    assert.equal(Number(result.updated), 2)
    assert.equal(Number(result.deleted), 0)
    assert.deepEqual(
      (await db.from('dw_crate').orderBy('label')).map((r) => [r.label, r.weight]),
      [
        ['first', 5],
        ['second', 5],
      ]
    )
    assert.equal(await poolInUseSettled(), 0)
  })

  test('refused writes among accepted ones write nothing and give their connection back', async ({
    assert,
  }) => {
    const dm = await fullAccessData()
    const refusals = []
    const accepted = []
    for (let i = 0; i < 15; i++) {
      refusals.push(dm.create('dw_Crate', { label: 'far too long a label' }))
      accepted.push(dm.create('dw_Crate', { label: `ok ${String(i).padStart(2, '0')}` }))
      refusals.push(dm.create('dw_Crate', { label: 'first' }))
      refusals.push(dm.update('dw_Crate', id(1), { weight: i, version: 7 }))
      refusals.push(dm.createMany('dw_Crate', [{ label: `no ${i}` }, { weight: 1 }]))
    }
    const outcomes = await Promise.allSettled(refusals)
    assert.isTrue(outcomes.every((o) => o.status === 'rejected'))
    const stored = await Promise.all(accepted)
    const expected = Array.from({ length: 15 }, (_, i) => `ok ${String(i).padStart(2, '0')}`)
    assert.deepEqual(
      stored.map((c) => c._instanceName),
      expected
    )
    assert.deepEqual(await labels(), ['first', ...expected])
    assert.equal((await db.from('dw_crate').where('id', id(1)).first()).weight, 1)
    assert.equal(await poolInUseSettled(), 0)
  })

  test('concurrent writes all land, each statement reported', async ({ assert }) => {
    const dm = await fullAccessData()
    const statements = await observeStatements(() =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          dm.create('dw_Crate', { label: `c${String(i).padStart(2, '0')}`, weight: i })
        )
      )
    )
    const expected = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(2, '0')}`)
    assert.deepEqual(await labels(), [...expected, 'first'])
    assert.lengthOf(
      statements.filter((s) => /^insert into ["`]dw_crate["`]/i.test(s.sql)),
      20
    )
    const updates = await Promise.allSettled(
      Array.from({ length: 5 }, () => dm.update('dw_Crate', id(1), { weight: 7, version: 1 }))
    )
    assert.lengthOf(
      updates.filter((u) => u.status === 'fulfilled'),
      1
    )
    const stored = await db.from('dw_crate').where('id', id(1)).first()
    assert.deepEqual([stored.weight, Number(stored.version)], [7, 2])
    // The same unique value five times at once: one is stored, the others are told why.
    const same = await Promise.allSettled(
      Array.from({ length: 5 }, () => dm.create('dw_Crate', { label: 'same' }))
    )
    assert.lengthOf(
      same.filter((c) => c.status === 'fulfilled'),
      1
    )
    for (const c of same.filter((o) => o.status === 'rejected'))
      assert.include((c as PromiseRejectedResult).reason, {
        status: 400,
        error: 'Validation failed',
      })
    assert.lengthOf(await db.from('dw_crate').where('label', 'same'), 1)
    assert.equal(await poolInUseSettled(), 0)
  })
})
