/**
 * Invalid documents change nothing and report every problem with its JSON path.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { readFile } from 'node:fs/promises'
import { definitions } from '#definition/main'
import { DEMO_FILE } from '#start/bootstrap'
import { resetDatabase } from '#tests/helpers/database'
import { engine, importDoc, snapshotState } from '#tests/helpers/engine'

const demo = async () => JSON.parse(await readFile(app.makePath(DEMO_FILE), 'utf8'))
const paths = (result: { problems: { path: string }[] }) => result.problems.map((p) => p.path)

test.group('definition: invalid documents', (group) => {
  let before: string
  let modelVersion: number
  group.setup(async () => {
    await resetDatabase()
    const result = await importDoc(await demo())
    if (result.status !== 'applied') throw new Error(JSON.stringify(result))
  })
  group.each.setup(async () => {
    before = await snapshotState()
    modelVersion = (await engine()).model.version
  })
  group.each.teardown(async () => {
    // Whatever the test imported, nothing changed.
    if ((await snapshotState()) !== before)
      throw new Error('an invalid import changed the database')
    if ((await engine()).model.version !== modelVersion)
      throw new Error('an invalid import changed the model version')
  })

  test('semantic errors in the LAST entity: every one is listed with its path', async ({
    assert,
  }) => {
    const doc = await demo()
    const last = doc.entities.length - 1
    const review = doc.entities[last]
    review.attributes.push(
      { name: 'x"; DROP TABLE y; --', type: 'string' },
      { name: 'grade', type: 'varchar(10)); DROP' },
      {
        name: 'reviewer',
        type: 'association',
        cardinality: 'MANY_TO_ONE',
        target: 'bookstore_Nobody',
      },
      { name: 'score', type: 'int', min: 10, max: 1 },
      { name: 'version', type: 'int' }
    )
    review.instanceName = '{book.reviews.rating}'
    const n = review.attributes.length
    const result = await importDoc(doc)
    assert.equal(result.status, 'invalid')
    assert.includeMembers(paths(result), [
      `$.entities[${last}].attributes[${n - 5}].name`,
      `$.entities[${last}].attributes[${n - 4}].type`,
      `$.entities[${last}].attributes[${n - 3}].target`,
      `$.entities[${last}].attributes[${n - 2}].min`,
      `$.entities[${last}].attributes[${n - 1}].name`,
      `$.entities[${last}].instanceName`,
    ])
    assert.isTrue(
      paths(result).every((p) => p.startsWith(`$.entities[${last}]`)),
      JSON.stringify(result.problems)
    )
    assert.deepEqual(result.steps, [])
  })

  test('structural errors in the LAST entity carry their paths', async ({ assert }) => {
    const doc = await demo()
    const last = doc.entities.length - 1
    doc.entities[last].attributes[0].type = 42
    doc.entities[last].attributes[2].mandatory = 'yes'
    const result = await importDoc(doc)
    assert.equal(result.status, 'invalid')
    assert.includeMembers(paths(result), [
      `$.entities[${last}].attributes[0].type`,
      `$.entities[${last}].attributes[2].mandatory`,
    ])
  })

  test('an unknown key and a semantic error are reported together', async ({ assert }) => {
    const doc = await demo()
    const last = doc.entities.length - 1
    doc.entities[last].attributes[2].mandatroy = true
    doc.entities[last].attributes[0].target = 'bookstore_Nope'
    const result = await importDoc(doc)
    assert.equal(result.status, 'invalid')
    assert.includeMembers(paths(result), [
      `$.entities[${last}].attributes[2].mandatroy`,
      `$.entities[${last}].attributes[0].target`,
    ])
  })

  test('an invalid report: every problem with its path, nothing changed', async ({ assert }) => {
    const report = {
      id: 'not-a-uuid',
      name: 'Broken',
      inputParameters: [
        { name: 'Kind', alias: 'kind', type: 'ENUMERATION', enumerationClass: 'x.Nope' },
      ],
      bands: [
        { name: 'Books', entity: 'bookstore_Nope' },
        { name: 'Books', datasets: [{ type: 'sql', sql: 'delete from bookstore_book' }] },
      ],
      templates: [{ code: 'a', outputType: 'JSON', outputTyp: 'JSON' }],
    }
    const result = await importDoc({ ...(await demo()), reports: [report] })
    assert.equal(result.status, 'invalid')
    assert.includeMembers(paths(result), ['$.reports[0].templates[0].outputTyp'])
    const semantic = await importDoc({
      ...(await demo()),
      reports: [{ ...report, templates: [{ code: 'a', outputType: 'JSN' }] }],
    })
    assert.equal(semantic.status, 'invalid')
    assert.sameMembers(paths(semantic), [
      '$.reports[0].id',
      '$.reports[0].inputParameters[0].enumerationClass',
      '$.reports[0].bands[0].datasets[0].entity',
      '$.reports[0].bands[1].name',
      '$.reports[0].bands[1].datasets[0].sql',
      '$.reports[0].templates[0].outputType',
    ])
  })

  test('formatVersion 2 is invalid', async ({ assert }) => {
    const result = await importDoc({ ...(await demo()), formatVersion: 2 })
    assert.equal(result.status, 'invalid')
    assert.deepEqual(paths(result), ['$.formatVersion'])
  })

  test('text that is not JSON or YAML', async ({ assert }) => {
    const json = await definitions(await engine()).importText('{ "formatVersion": 1, ', 'json')
    assert.equal(json.status, 'invalid')
    assert.match(json.problems[0].message, /not valid JSON/)
    const yaml = await definitions(await engine()).importText(
      'formatVersion: 1\n  entities: [',
      'yaml'
    )
    assert.equal(yaml.status, 'invalid')
    assert.match(yaml.problems[0].message, /not valid YAML/)
  })

  test("removing an attribute that another entity's instance name uses is invalid", async ({
    assert,
  }) => {
    // Removing Customer.name is fine for Customer, but LoyaltyCard's instance name uses it.
    const doc = await demo()
    const customer = doc.entities.find((e: any) => e.name === 'bookstore_Customer')
    customer.attributes = customer.attributes.filter((a: any) => a.name !== 'name')
    const result = await importDoc({ formatVersion: 1, prune: true, ...doc })
    assert.equal(result.status, 'invalid')
    assert.isTrue(
      result.problems.some((p) => p.message.includes("'customer.name'")),
      JSON.stringify(result.problems)
    )
  })
})
