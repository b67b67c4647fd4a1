/**
 * SQLite storage of entity tables (app/engine/schema/dialects/sqlite.ts `clustered`): a table
 * keyed by a uuid or string id with small rows, and a link table, are stored WITHOUT ROWID (a
 * row by id is one b-tree search); integer keys and rows that may be large keep their rowid.
 * What a user sees is the same data through the API, also after a table rebuild; on PostgreSQL
 * (no such storage choice) the same data checks run.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { dialect, resetDatabase } from '#tests/helpers/database'
import { applyDoc, fullAccessData, valuesOf } from '#tests/helpers/engine'

const shelf = (labelLength: number) => ({
  name: 'cl_Shelf',
  idType: 'uuid',
  instanceName: 'label',
  attributes: [
    { name: 'label', type: 'string', length: labelLength, unique: true },
    { name: 'tags', type: 'association', cardinality: 'MANY_TO_MANY', target: 'cl_Tag' },
  ],
})
const entities = (labelLength = 40) => [
  shelf(labelLength),
  {
    name: 'cl_Tag',
    idType: 'string',
    instanceName: 'name',
    attributes: [{ name: 'name', type: 'string', length: 30 }],
  },
  {
    name: 'cl_Note',
    idType: 'uuid',
    instanceName: 'title',
    attributes: [
      { name: 'title', type: 'string', length: 40 },
      { name: 'body', type: 'text' },
    ],
  },
  {
    name: 'cl_Counter',
    idType: 'long',
    instanceName: 'name',
    attributes: [{ name: 'name', type: 'string', length: 40 }],
  },
  {
    name: 'cl_Wide',
    idType: 'uuid',
    instanceName: 'a',
    attributes: [
      { name: 'a', type: 'string', length: 600 },
      { name: 'b', type: 'string', length: 600 },
    ],
  },
]

/** Whether SQLite stores `table` WITHOUT ROWID (from its CREATE TABLE statement). */
async function withoutRowid(table: string): Promise<boolean> {
  const [row] = await db.rawQuery(
    `select sql from sqlite_master where type = 'table' and name = ?`,
    [table]
  )
  return /\)\s*WITHOUT ROWID$/i.test(String(row.sql))
}

test.group('schema: SQLite tables clustered on their key', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await applyDoc({ entities: entities() })
  })

  test('uuid and string keys with small rows and link tables are clustered; others keep rowid', async ({
    assert,
  }) => {
    const dm = await fullAccessData()
    await dm.create('cl_Tag', { id: 'red', name: 'Red' })
    await dm.create('cl_Tag', { id: 'blue', name: 'Blue' })
    const created = await dm.create('cl_Shelf', {
      label: 'top',
      tags: [{ id: 'red' }, { id: 'blue' }],
    })
    await dm.create('cl_Note', { title: 'n', body: 'x'.repeat(5000) })
    const counter = await dm.create('cl_Counter', { name: 'c' })
    assert.match(String(counter.id), /^\d+$/)
    const loaded = await dm.load('cl_Shelf', String(created.id), {
      fetchPlan: JSON.stringify({ properties: ['label', { name: 'tags', fetchPlan: '_base' }] }),
    })
    assert.deepEqual(
      (loaded.tags as any[]).map((t) => t.name),
      ['Blue', 'Red']
    )
    // A unique attribute stays unique.
    await assert.rejects(() => dm.create('cl_Shelf', { label: 'top' }))
    if (dialect() !== 'sqlite') return
    assert.isTrue(await withoutRowid('cl_shelf'), 'uuid key')
    assert.isTrue(await withoutRowid('cl_tag'), 'string key')
    assert.isTrue(await withoutRowid('cl_shelf_tags_link'), 'link table')
    assert.isFalse(await withoutRowid('cl_note'), 'text column')
    assert.isFalse(await withoutRowid('cl_counter'), 'integer key')
    assert.isFalse(await withoutRowid('cl_wide'), 'rows declared over 1 KiB')
  })

  test('a rebuilt table stays clustered and keeps its rows and links', async ({ assert }) => {
    const dm = await fullAccessData()
    await dm.create('cl_Tag', { id: 'red', name: 'Red' })
    const created = await dm.create('cl_Shelf', { label: 'a long label', tags: [{ id: 'red' }] })
    // Shortening the column rebuilds the table on SQLite (values cut, data loss allowed).
    await applyDoc({ entities: entities(5) }, { allowDataLoss: true })
    assert.deepEqual(await valuesOf('cl_shelf', 'label'), ['a lon'])
    const loaded = await dm.load('cl_Shelf', String(created.id), {
      fetchPlan: JSON.stringify({ properties: ['label', { name: 'tags', fetchPlan: '_base' }] }),
    })
    assert.equal(loaded.label, 'a lon')
    assert.deepEqual(
      (loaded.tags as any[]).map((t) => t.id),
      ['red']
    )
    if (dialect() === 'sqlite') assert.isTrue(await withoutRowid('cl_shelf'))
  })
})
