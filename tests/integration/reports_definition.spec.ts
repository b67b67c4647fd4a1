/**
 * The definition's `reports` section: import then export gives the same reports (template files
 * as `base64:...`), importing the export again is `unchanged`, the band shorthand is exported in
 * the canonical `datasets` form, `prune` removes unnamed reports, and a model change that breaks
 * a stored report is refused naming it.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { definitions } from '#definition/main'
import { readTemplateFile } from '#reports/store'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'

const ITEM = {
  name: 'rpt_Item',
  attributes: [
    { name: 'name', type: 'string', length: 50 },
    { name: 'region', type: 'string', length: 2 },
  ],
}
const TAG = { name: 'rpt_Tag', attributes: [{ name: 'label', type: 'string', length: 50 }] }
const CSV = Buffer.from('name,region\n')
const FILE = `base64:${CSV.toString('base64')}`

/** The spec's app-definition example style: the band's one dataset written on the band. */
const ITEMS = {
  id: '7a000000-0000-4000-8000-000000000001',
  name: 'Items',
  code: 'ITEMS',
  group: { id: '7a000000-0000-4000-8000-0000000000a1', title: 'Stock' },
  restAccess: true,
  inputParameters: [{ name: 'Region', alias: 'region', type: 'TEXT', required: true }],
  bands: [
    {
      name: 'Items',
      entity: 'rpt_Item',
      filter: { conditions: [{ property: 'region', operator: '=', value: ':region' }] },
      fields: ['name', 'region'],
    },
  ],
  valueFormats: [{ name: 'Items.name', format: '#' }],
  templates: [
    { code: 'DEFAULT', outputType: 'CSV', fileName: 'items.csv', default: true, file: FILE },
    { code: 'json', outputType: 'JSON' },
  ],
}
const TAGS = {
  id: '7a000000-0000-4000-8000-000000000002',
  name: 'Tags',
  bands: [{ name: 'Tags', datasets: [{ type: 'query', entity: 'rpt_Tag', fields: ['label'] }] }],
  templates: [{ code: 'DEFAULT', outputType: 'JSON' }],
}

const exported = async () => (await definitions(await engine()).exportDocument()) as any
const reportNames = async () => (await db.from('mg_reports').orderBy('name')).map((r) => r.name)

test.group('definition: reports section', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    const result = await importDoc({ entities: [ITEM, TAG], reports: [ITEMS, TAGS] })
    if (result.status !== 'applied') throw new Error(JSON.stringify(result))
  })

  test('export gives the reports back; importing the export again is unchanged', async ({
    assert,
  }) => {
    const doc = await exported()
    assert.deepEqual(
      doc.reports.map((r: any) => r.name),
      ['Items', 'Tags']
    )
    const items = doc.reports[0]
    assert.deepInclude(items, {
      id: ITEMS.id,
      name: 'Items',
      code: 'ITEMS',
      restAccess: true,
      group: ITEMS.group,
    })
    assert.deepEqual(items.inputParameters, ITEMS.inputParameters)
    assert.deepEqual(items.valueFormats, ITEMS.valueFormats)
    const template = items.templates[0]
    assert.include(template, {
      code: 'DEFAULT',
      outputType: 'CSV',
      fileName: 'items.csv',
      default: true,
      file: FILE,
    })
    assert.equal(template.size, CSV.length)
    assert.match(template.sha256, /^[0-9a-f]{64}$/)
    assert.deepEqual(items.templates[1], { code: 'json', outputType: 'JSON' })
    // The stored file is the same bytes.
    const row = await db
      .from('mg_report_templates')
      .where({ report_id: ITEMS.id, code: 'DEFAULT' })
      .first()
    assert.deepEqual(await readTemplateFile(row.file_key), CSV)

    const before = await snapshotState()
    const again = await importDoc(doc)
    assert.equal(again.status, 'unchanged', JSON.stringify(again.changes))
    const original = await importDoc({ entities: [ITEM, TAG], reports: [ITEMS, TAGS] })
    assert.equal(original.status, 'unchanged', JSON.stringify(original.changes))
    assert.equal(await snapshotState(), before)
    assert.deepEqual((await exported()).reports, doc.reports)
  })

  test('the band shorthand is exported in the canonical datasets form', async ({ assert }) => {
    const band = (await exported()).reports[0].bands[0]
    assert.deepEqual(band, {
      name: 'Items',
      datasets: [
        {
          type: 'query',
          entity: 'rpt_Item',
          filter: ITEMS.bands[0].filter,
          fields: ['name', 'region'],
        },
      ],
      children: [],
    })
  })

  test('a template without file keeps its stored file; file: null removes it', async ({
    assert,
  }) => {
    const kept: Record<string, unknown> = { ...ITEMS.templates[0] }
    delete kept.file
    const same = await importDoc({ reports: [{ ...ITEMS, templates: [kept, ITEMS.templates[1]] }] })
    assert.equal(same.status, 'unchanged', JSON.stringify(same.changes))
    const removed = await importDoc({
      reports: [{ ...ITEMS, templates: [{ ...kept, file: null }] }],
    })
    assert.equal(removed.status, 'applied')
    const template = (await exported()).reports[0].templates[0]
    assert.notProperty(template, 'file')
    assert.notProperty(template, 'sha256')
  })

  test('prune: true removes unnamed reports; without prune they stay', async ({ assert }) => {
    const kept = await importDoc({ reports: [ITEMS] })
    assert.equal(kept.status, 'unchanged')
    assert.deepEqual(await reportNames(), ['Items', 'Tags'])
    // (prune applies to the whole document: the model is named too.)
    const pruned = await importDoc({ prune: true, entities: [ITEM, TAG], reports: [ITEMS] })
    assert.equal(pruned.status, 'applied', JSON.stringify(pruned.problems))
    assert.include(pruned.changes, "report 'Tags': deleted (prune)")
    assert.deepEqual(await reportNames(), ['Items'])
    assert.lengthOf(await db.from('mg_report_templates').where('report_id', TAGS.id), 0)
    assert.isTrue((await engine()).model.entities.has('rpt_Tag'))
  })

  test('removing an entity or attribute a stored report uses is refused naming the report', async ({
    assert,
  }) => {
    const before = await snapshotState()
    const entity = await importDoc({ prune: true, entities: [ITEM] })
    assert.equal(entity.status, 'invalid')
    const messages = entity.problems.map((p) => p.message).join('\n')
    assert.match(messages, /stored report 'Tags'.*unknown entity 'rpt_Tag'/)
    const attribute = await importDoc({
      prune: true,
      entities: [{ ...ITEM, attributes: [ITEM.attributes[0]] }, TAG],
    })
    assert.equal(attribute.status, 'invalid')
    assert.match(
      attribute.problems.map((p) => p.message).join('\n'),
      /stored report 'Items'.*region/
    )
    assert.equal(await snapshotState(), before)
    assert.isTrue((await engine()).model.entities.has('rpt_Tag'))
    // Removing the report and the entity in one document is fine.
    const both = await importDoc({ prune: true, entities: [ITEM], reports: [ITEMS] })
    assert.equal(both.status, 'applied', JSON.stringify(both.problems))
  })
})
