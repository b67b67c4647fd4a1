/**
 * Relations named like the members every JavaScript object inherits (`constructor`,
 * `toString`): the read pipeline keeps a row's loaded relations in a plain object
 * (app/engine/data/read/loaded_row.ts), so "loaded" must mean an own key. What a user sees:
 * such a relation reads, nests and names instances like any other, absent when not loaded,
 * empty or null when there is nothing.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc, fullAccessData, numberedId } from '#tests/helpers/engine'

const id = numberedId

test.group('entities: relations named like inherited members', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await applyDoc({
      entities: [
        {
          name: 'rn_Maker',
          idType: 'uuid',
          instanceName: 'label',
          attributes: [
            { name: 'label', type: 'string', length: 20 },
            {
              name: 'toString',
              type: 'association',
              cardinality: 'ONE_TO_MANY',
              target: 'rn_Part',
              mappedBy: 'constructor',
            },
          ],
        },
        {
          name: 'rn_Part',
          idType: 'uuid',
          instanceName: '{label} by {constructor}',
          attributes: [
            { name: 'label', type: 'string', length: 20 },
            {
              name: 'constructor',
              type: 'association',
              cardinality: 'MANY_TO_ONE',
              target: 'rn_Maker',
            },
          ],
        },
      ],
    })
    await db.table('rn_maker').insert([
      { id: id(1), label: 'acme' },
      { id: id(2), label: 'idle' },
    ])
    await db.table('rn_part').insert([
      { id: id(11), label: 'gear', constructor_id: id(1) },
      { id: id(12), label: 'loose', constructor_id: null },
    ])
  })

  test('to-one and to-many relations, loaded, empty, null and not loaded', async ({ assert }) => {
    const dm = await fullAccessData()
    const plan = JSON.stringify({
      entity: 'rn_Maker',
      properties: [
        'label',
        { name: 'toString', fetchPlan: { properties: ['label', 'constructor'] } },
      ],
    })
    const makers = JSON.parse(
      (await dm.listJson('rn_Maker', { fetchPlan: plan, sort: 'label' })).json
    )
    assert.deepEqual(
      makers.map((m: any) => [m.label, m.toString.map((p: any) => [p.label, p._instanceName])]),
      [
        ['acme', [['gear', 'gear by acme']]],
        ['idle', []],
      ]
    )
    // The maker again, below itself: its meta keys only.
    assert.deepEqual(makers[0].toString[0].constructor, {
      _entityName: 'rn_Maker',
      _instanceName: 'acme',
      id: id(1),
    })

    const parts = JSON.parse((await dm.listJson('rn_Part', { sort: 'label' })).json)
    assert.deepEqual(
      parts.map((p: any) => [p.label, p._instanceName, Object.hasOwn(p, 'constructor')]),
      [
        ['gear', 'gear by acme', true],
        // A null reference is left out, and so is its part of the instance name.
        ['loose', 'loose', false],
      ]
    )
    const loose = await dm.load('rn_Part', id(12), { fetchPlan: '_base', returnNulls: true })
    assert.isNull((loose as any).constructor)
    const maker = await dm.load('rn_Maker', id(2), { fetchPlan: '_base' })
    assert.isFalse(Object.hasOwn(maker as object, 'toString'))
  })
})
