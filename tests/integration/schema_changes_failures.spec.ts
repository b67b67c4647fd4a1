/**
 * Failures the planner cannot foresee and requests that cannot be honoured: a conversion the
 * database refuses (PostgreSQL) comes back as status 'failed' with nothing applied; renames onto
 * existing names and index names that collide with tables are invalid.
 */
import { test } from '@japa/runner'
import { resetDatabase, dialect } from '#tests/helpers/database'
import { applyDoc, importDoc, insertRows, snapshotState, valuesOf } from '#tests/helpers/engine'

const item = (...attributes: Record<string, unknown>[]) => ({
  entities: [
    { name: 'fx_Item', attributes: [{ name: 'name', type: 'string', length: 20 }, ...attributes] },
  ],
})

test.group('schema changes: failures and conflicts', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  test('a conversion the database cannot perform changes nothing', async ({ assert }) => {
    await applyDoc(item({ name: 'code', type: 'string', length: 10 }))
    await insertRows('fx_item', [
      { name: 'a', code: 'abc' },
      { name: 'b', code: '12' },
    ])
    const before = await snapshotState()
    const result = await importDoc(item({ name: 'code', type: 'int' }), { allowDataLoss: true })
    if (dialect() === 'pg') {
      assert.equal(result.status, 'failed')
      assert.match(
        result.problems[0].message,
        /database refused the change, nothing was applied: .*integer/
      )
      assert.equal(await snapshotState(), before)
    } else {
      // SQLite converts with its own CAST rules: text that is not a number becomes 0.
      assert.equal(result.status, 'applied')
      assert.deepEqual((await valuesOf('fx_item', 'code', 'name')).map(Number), [0, 12])
    }
  })

  test('renaming an attribute onto a name that exists is invalid', async ({ assert }) => {
    await applyDoc(item({ name: 'isbn', type: 'string' }, { name: 'code', type: 'string' }))
    const before = await snapshotState()
    const result = await importDoc({
      prune: true,
      ...item({ name: 'code', type: 'string', renamedFrom: 'isbn' }),
    })
    assert.equal(result.status, 'invalid')
    assert.deepInclude(result.problems, {
      path: '$.entities[0].attributes[1].renamedFrom',
      message: "cannot rename attribute 'isbn' to 'code': 'code' already exists",
    })
    assert.equal(await snapshotState(), before)
  })

  test('renaming an entity from a name the document still uses is invalid', async ({ assert }) => {
    await applyDoc(item())
    const result = await importDoc({
      entities: [
        { name: 'fx_Item', attributes: [{ name: 'name', type: 'string' }] },
        { name: 'fx_Thing', renamedFrom: 'fx_Item', attributes: [] },
      ],
    })
    assert.equal(result.status, 'invalid')
    assert.deepInclude(result.problems, {
      path: '$.entities[1].renamedFrom',
      message: "cannot rename entity 'fx_Item': the document still names it",
    })
  })

  test('explicit index names may not collide with tables, other indexes or derived names', async ({
    assert,
  }) => {
    const result = await importDoc({
      entities: [
        {
          name: 'fx_Item',
          attributes: [
            { name: 'name', type: 'string' },
            { name: 'size', type: 'int' },
          ],
          indexes: [
            { attributes: ['name'], name: 'fx_item' },
            { attributes: ['size'], name: 'by_size' },
            { attributes: ['name', 'size'], name: 'by_size' },
            { attributes: ['size'], name: 'ix_mine' },
          ],
        },
      ],
    })
    assert.equal(result.status, 'invalid')
    assert.deepEqual(
      result.problems.map((p) => p.path),
      [
        '$.entities[0].indexes[0].name',
        '$.entities[0].indexes[2].name',
        '$.entities[0].indexes[3].name',
      ]
    )
  })
})
