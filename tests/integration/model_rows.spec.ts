/**
 * The model rows follow a change incrementally (app/engine/metadata/store_write.ts): entities a
 * change does not touch keep their rows, the others are rewritten, and the rows always read
 * back as the model that was applied (reordered, renamed and removed entities included).
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc, engine } from '#tests/helpers/engine'
import { loadModelDefinition } from '#engine/metadata/store'
import { normalizeModel } from '#engine/metadata/normalize'

const thing = (name: string, attributes = ['a', 'b']) => ({
  name,
  attributes: attributes.map((a) => ({ name: a, type: 'string', length: 20 })),
})

const rowIds = async () => {
  const entities = await db.from('mg_entities').select('id', 'name')
  const attributes = await db.from('mg_attributes').select('id', 'entity_id', 'name')
  return Object.fromEntries(
    entities.map((e) => [
      e.name,
      { id: e.id, attributes: attributes.filter((a) => a.entity_id === e.id).map((a) => a.id) },
    ])
  )
}

test.group('model rows', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('an attribute added to one entity rewrites that entity only', async ({ assert }) => {
    await applyDoc({ entities: [thing('mr_One'), thing('mr_Two'), thing('mr_Three')] })
    const before = await rowIds()
    await applyDoc({ entities: [thing('mr_Two', ['a', 'b', 'c'])] })
    const after = await rowIds()
    assert.deepEqual(after.mr_One, before.mr_One)
    assert.deepEqual(after.mr_Three, before.mr_Three)
    assert.notDeepEqual(after.mr_Two, before.mr_Two)
    assert.lengthOf(after.mr_Two.attributes, 3)
    const stored = await loadModelDefinition(db.connection())
    assert.deepEqual(stored, normalizeModel((await engine()).model.definition))
  })

  test('renamed, removed and reordered entities read back exactly as applied', async ({
    assert,
  }) => {
    await applyDoc({ entities: [thing('mr_One'), thing('mr_Two'), thing('mr_Three')] })
    const wanted = [thing('mr_Three'), { ...thing('mr_Deux'), renamedFrom: 'mr_Two' }]
    await applyDoc({ prune: true, entities: wanted }, { allowDataLoss: true })
    const stored = await loadModelDefinition(db.connection())
    assert.deepEqual(
      stored.entities.map((e) => e.name),
      ['mr_Three', 'mr_Deux']
    )
    assert.deepEqual(stored, normalizeModel((await engine()).model.definition))
    assert.deepEqual(Object.keys(await rowIds()).sort(), ['mr_Deux', 'mr_Three'])
  })
})
