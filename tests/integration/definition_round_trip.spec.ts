/**
 * Round trip and idempotence of the definition document: importing what export wrote (JSON or
 * YAML) is a no-op, and so is importing the same document twice.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { readFile } from 'node:fs/promises'
import { definitions, renderDocument } from '#definition/main'
import { DEMO_FILE } from '#start/bootstrap'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'

const demo = async () => JSON.parse(await readFile(app.makePath(DEMO_FILE), 'utf8'))
const version = async (key: 'model' | 'settings') =>
  Number((await db.from('mg_versions').where('key', key).first()).version)

function assertUnchanged(assert: any, result: Awaited<ReturnType<typeof importDoc>>) {
  assert.equal(
    result.status,
    'unchanged',
    JSON.stringify({
      problems: result.problems,
      changes: result.changes,
      refusals: result.refusals,
    })
  )
  assert.deepEqual(result.changes, [])
  assert.deepEqual(result.steps, [])
  assert.deepEqual(result.problems, [])
}

test.group('definition: round trip', (group) => {
  group.setup(async () => {
    await resetDatabase()
    const result = await importDoc({
      ...(await demo()),
      settings: { 'svc.core.available-locales': 'en,de', 'svc.rest.default-max-fetch-size': 500 },
    })
    if (result.status !== 'applied') throw new Error(JSON.stringify(result))
  })

  test('export then import (JSON) is unchanged: zero steps, zero changes, same model version', async ({
    assert,
  }) => {
    const e = await engine()
    const exported = await definitions(e).exportDocument()
    const before = await snapshotState()
    const modelVersion = e.model.version
    assertUnchanged(
      assert,
      await definitions(e).importDocument(JSON.parse(renderDocument(exported, 'json')))
    )
    assert.equal(e.model.version, modelVersion)
    assert.equal(await version('model'), modelVersion)
    assert.equal(await snapshotState(), before)
  })

  test('export then import (YAML) is unchanged', async ({ assert }) => {
    const e = await engine()
    const yaml = renderDocument(await definitions(e).exportDocument(), 'yaml')
    assert.match(yaml, /^formatVersion: 1$/m)
    const before = await snapshotState()
    assertUnchanged(assert, await definitions(await engine()).importText(yaml, 'yaml'))
    assert.equal(await snapshotState(), before)
  })

  test('the export includes the settings and the whole model', async ({ assert }) => {
    const exported = await definitions(await engine()).exportDocument()
    assert.deepEqual(exported.settings, {
      'svc.core.available-locales': 'en,de',
      'svc.rest.default-max-fetch-size': 500,
    })
    assert.lengthOf(exported.entities as unknown[], 15)
    assert.lengthOf(exported.fetchPlans as unknown[], 8)
    assert.lengthOf(exported.enums as unknown[], 3)
  })

  test('importing the original demo document again is unchanged', async ({ assert }) => {
    const before = await snapshotState()
    assertUnchanged(assert, await importDoc(await demo()))
    assert.equal(await snapshotState(), before)
  })

  test('a YAML export re-imported as JSON and vice versa gives the same model', async ({
    assert,
  }) => {
    const e = await engine()
    const exported = await definitions(e).exportDocument()
    const { parse } = await import('yaml')
    assert.deepEqual(
      parse(renderDocument(exported, 'yaml')),
      JSON.parse(renderDocument(exported, 'json'))
    )
  })
})

test.group('definition: idempotence', (group) => {
  group.each.setup(async () => void (await resetDatabase()))

  const doc = {
    entities: [
      {
        name: 'shop_Item',
        table: 'shop_item',
        idType: 'uuid',
        traits: ['versioned'],
        attributes: [
          {
            name: 'code',
            type: 'string',
            length: 20,
            mandatory: true,
            unique: true,
            readOnly: false,
          },
          { name: 'qty', type: 'int', min: '0', max: '100' },
          { name: 'price', type: 'decimal', precision: 10, scale: 2, min: 0.5 },
          {
            name: 'owner',
            type: 'association',
            cardinality: 'MANY_TO_ONE',
            target: 'shop_Owner',
            onDelete: 'unlink',
          },
        ],
        indexes: [{ attributes: ['qty'], unique: false }],
      },
      { name: 'shop_Owner', caption: {}, attributes: [{ name: 'name', type: 'string' }] },
    ],
    enums: [{ name: 'shop.Kind', values: [{ name: 'A', id: 1 }] }],
  }

  test('importing the same document twice: the second import is unchanged', async ({ assert }) => {
    const first = await importDoc(doc)
    assert.equal(first.status, 'applied', JSON.stringify(first.problems))
    const before = await snapshotState()
    const modelVersion = await version('model')
    assertUnchanged(assert, await importDoc(doc))
    assert.equal(await version('model'), modelVersion)
    assert.equal(await snapshotState(), before)
  })

  test('a dry run changes nothing and reports the plan', async ({ assert }) => {
    const before = await snapshotState()
    const result = await importDoc(doc, { dryRun: true })
    assert.equal(result.status, 'dry-run')
    assert.isAbove(result.steps.length, 0)
    assert.include(result.changes, 'entity shop_Item: added')
    assert.equal(await snapshotState(), before)
  })
})
