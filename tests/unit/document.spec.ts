import { test } from '@japa/runner'
import { parseDocumentText, validateDocument } from '#definition/document'
import { demoDocument, hasProblem } from '#tests/unit/_fixtures'

const base = () => ({
  formatVersion: 1,
  entities: [
    { name: 'shop_A', attributes: [{ name: 'a', type: 'string' }] },
    { name: 'shop_B', attributes: [{ name: 'b', type: 'int' }] },
    { name: 'shop_C', attributes: [{ name: 'c', type: 'string' }] },
  ],
})

test.group('document: structure', () => {
  test('the demo document is structurally valid', async ({ assert }) => {
    const { document, problems } = await validateDocument(await demoDocument())
    assert.deepEqual(problems, [])
    assert.lengthOf(document!.entities, 15)
    assert.isFalse(document!.prune)
    assert.deepEqual(document!.settings, {})
  })

  test('structural errors carry JSON paths', async ({ assert }) => {
    const doc: any = base()
    doc.entities[2].attributes[0].type = 5
    doc.entities[1].attributes[0].mandatory = 'yes'
    doc.entities[0].idType = 'serial'
    doc.entities[1].attributes.push({ type: 'string' })
    const { document, problems } = await validateDocument(doc)
    assert.isUndefined(document)
    hasProblem(assert, problems, '$.entities[2].attributes[0].type')
    hasProblem(assert, problems, '$.entities[1].attributes[0].mandatory')
    hasProblem(assert, problems, '$.entities[0].idType')
    hasProblem(assert, problems, '$.entities[1].attributes[1].name')
  })

  test('a document that is not an object', async ({ assert }) => {
    for (const raw of [null, [], 'text', 1]) {
      const { problems } = await validateDocument(raw)
      hasProblem(assert, problems, '$', /JSON object/)
    }
  })

  test('unknown keys are reported everywhere', async ({ assert }) => {
    const doc: any = base()
    doc.entities[0].attributes[0].mandatroy = true
    doc.entities[1].colour = 'red'
    doc.entities[2].indexes = [{ attributes: ['c'], uniq: true }]
    doc.enums = [{ name: 'x.E', values: [{ name: 'A', id: 'a', label: 'A' }], extra: 1 }]
    doc.fetchPlans = [{ entity: 'shop_A', name: 'p', properties: ['a'], view: 'x' }]
    doc.extra = true
    const { document, problems } = await validateDocument(doc)
    assert.exists(document, 'the structure is usable: semantic checks still run')
    hasProblem(
      assert,
      problems,
      '$.entities[0].attributes[0].mandatroy',
      /unknown property 'mandatroy'/
    )
    hasProblem(assert, problems, '$.entities[1].colour')
    hasProblem(assert, problems, '$.entities[2].indexes[0].uniq')
    hasProblem(assert, problems, '$.enums[0].values[0].label')
    hasProblem(assert, problems, '$.enums[0].extra')
    hasProblem(assert, problems, '$.fetchPlans[0].view')
    hasProblem(assert, problems, '$.extra')
  })

  test('formatVersion other than 1 is rejected: {$self}')
    .with([2, '1', 0, null] as any[])
    .run(async ({ assert }, version) => {
      const { document, problems } = await validateDocument({ ...base(), formatVersion: version })
      assert.isUndefined(document)
      hasProblem(assert, problems, '$.formatVersion', /must be the number 1/)
    })

  test('formatVersion is required', async ({ assert }) => {
    const { entities } = base()
    hasProblem(assert, (await validateDocument({ entities })).problems, '$.formatVersion')
  })

  test('renamedFrom is accepted on entities and attributes', async ({ assert }) => {
    const doc: any = base()
    doc.entities[0].renamedFrom = 'shop_Old'
    doc.entities[0].attributes[0].renamedFrom = 'old'
    const { document, problems } = await validateDocument(doc)
    assert.deepEqual(problems, [])
    assert.equal(document!.entities[0].renamedFrom, 'shop_Old')
    assert.equal(document!.entities[0].attributes[0].renamedFrom, 'old')
  })

  test('a null setting (remove the stored value) is structurally valid', async ({ assert }) => {
    const { document, problems } = await validateDocument({
      ...base(),
      settings: { 'svc.rest.services-config': null, 'svc.core.available-locales': ['en'] },
    })
    assert.deepEqual(problems, [])
    assert.deepEqual(document!.settings, {
      'svc.rest.services-config': null,
      'svc.core.available-locales': ['en'],
    })
  })

  test('min and max accept numbers and strings alike', async ({ assert }) => {
    const doc: any = base()
    doc.entities[1].attributes[0] = { name: 'b', type: 'int', min: '0', max: 10 }
    const { document, problems } = await validateDocument(doc)
    assert.deepEqual(problems, [])
    assert.deepInclude(document!.entities[1].attributes[0], { min: '0', max: 10 })
  })

  test('settings must be an object; prune a boolean', async ({ assert }) => {
    const { problems } = await validateDocument({ ...base(), settings: ['a'], prune: 'yes' })
    hasProblem(assert, problems, '$.settings')
    hasProblem(assert, problems, '$.prune')
  })
})

test.group('document: fetch plan properties', () => {
  const withPlan = (properties: unknown) => ({
    ...base(),
    fetchPlans: [{ entity: 'shop_A', name: 'p', properties }],
  })

  test('names, { name, fetchPlan } and inline plans at any depth are accepted', async ({
    assert,
  }) => {
    const properties = [
      'a',
      { name: 'a' },
      { name: 'r', fetchPlan: '_base' },
      {
        name: 'r',
        fetchPlan: {
          extends: '_base',
          properties: [{ name: 's', fetchPlan: { properties: ['x'] } }],
        },
      },
    ]
    const { document, problems } = await validateDocument(withPlan(properties))
    assert.deepEqual(problems, [])
    assert.deepEqual(document!.fetchPlans[0].properties, properties)
  })

  test('bad shapes are reported with paths', async ({ assert }) => {
    const properties = [
      5,
      { fetchPlan: '_base' },
      { name: 'r', fetchPlan: 7 },
      { name: 'r', fetchPlan: { extends: 3, properties: 'x' } },
      { name: 'r', plan: 'x' },
    ]
    const { problems } = await validateDocument(withPlan(properties))
    hasProblem(assert, problems, '$.fetchPlans[0].properties[0]', /attribute name or/)
    hasProblem(assert, problems, '$.fetchPlans[0].properties[1]', /attribute name or/)
    hasProblem(
      assert,
      problems,
      '$.fetchPlans[0].properties[2].fetchPlan',
      /plan name or an inline plan/
    )
    hasProblem(assert, problems, '$.fetchPlans[0].properties[3].fetchPlan.extends')
    hasProblem(assert, problems, '$.fetchPlans[0].properties[3].fetchPlan.properties', /array/)
    hasProblem(assert, problems, '$.fetchPlans[0].properties[4].plan', /unknown property/)
  })

  test('properties must be an array', async ({ assert }) => {
    hasProblem(
      assert,
      (await validateDocument(withPlan('a,b'))).problems,
      '$.fetchPlans[0].properties'
    )
  })
})

test.group('document: parsing', () => {
  test('JSON and YAML parse to the same value', ({ assert }) => {
    const yaml =
      'formatVersion: 1\nentities:\n  - name: shop_A\n    attributes:\n      - { name: a, type: string }\n'
    assert.deepEqual(
      parseDocumentText(yaml, 'yaml'),
      parseDocumentText(
        JSON.stringify({
          formatVersion: 1,
          entities: [{ name: 'shop_A', attributes: [{ name: 'a', type: 'string' }] }],
        }),
        'json'
      )
    )
  })
})
