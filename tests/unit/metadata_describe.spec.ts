/**
 * Metadata documents (app/engine/metadata/describe.ts) through a MetadataViewer: captions per
 * request and the security hooks (hidden entities, attributes and references are absent).
 */
import { test } from '@japa/runner'
import { Model } from '#engine/metadata/model'
import { normalizeModel } from '#engine/metadata/normalize'
import {
  describeEntities,
  describeEntity,
  describeEnum,
  describeFetchPlans,
  describeNamedFetchPlan,
  type MetadataViewer,
} from '#engine/metadata/describe'
import { entity, m2o, model, plan, str } from '#tests/unit/_fixtures'

const snapshot = new Model(
  1,
  normalizeModel(
    model(
      [
        entity('s_Secret', [str('code')], { instanceName: 'code' }),
        entity(
          's_Doc',
          [str('title'), str('internalNote'), m2o('secret', 's_Secret'), m2o('owner', 's_Doc')],
          { instanceName: '{title} ({secret.code})' }
        ),
      ],
      {
        enums: [{ name: 'com.example.Kind', values: [{ name: 'A_KIND', id: 'a' }] }],
        fetchPlans: [plan('s_Doc', 'doc-all', ['title', 'internalNote', 'secret', 'owner'])],
      }
    )
  )
)

const everything: MetadataViewer = {
  caption: (key) => `[${key}]`,
  canRead: () => true,
  canView: () => true,
}
const restricted: MetadataViewer = {
  ...everything,
  canRead: (name) => name !== 's_Secret',
  canView: (name, attribute) => !(name === 's_Doc' && attribute === 'internalNote'),
}

test.group('metadata descriptions', () => {
  test('captions come from the viewer, keyed Entity.attribute and Enum.VALUE', ({ assert }) => {
    const doc = describeEntity(snapshot, 's_Doc', everything)!
    assert.deepEqual(
      doc.properties.map((p) => p.description),
      ['[s_Doc.id]', '[s_Doc.title]', '[s_Doc.internalNote]', '[s_Doc.secret]', '[s_Doc.owner]']
    )
    assert.deepEqual(describeEnum(snapshot, 'com.example.Kind', everything), {
      name: 'com.example.Kind',
      values: [{ name: 'A_KIND', id: 'a', caption: '[com.example.Kind.A_KIND]' }],
    })
    assert.isNull(describeEnum(snapshot, 'com.example.Nope', everything))
  })

  test('an entity the viewer cannot read is absent everywhere', ({ assert }) => {
    assert.deepEqual(
      describeEntities(snapshot, restricted).map((e) => e.entityName),
      ['s_Doc']
    )
    assert.isNull(describeEntity(snapshot, 's_Secret', restricted))
    assert.isNull(describeFetchPlans(snapshot, 's_Secret', restricted))
    assert.equal(describeNamedFetchPlan(snapshot, 's_Secret', '_base', restricted), 'entity')
    assert.equal(describeNamedFetchPlan(snapshot, 's_Doc', 'nope', restricted), 'plan')
  })

  test('hidden attributes and references to hidden entities are absent', ({ assert }) => {
    const doc = describeEntity(snapshot, 's_Doc', restricted)!
    assert.deepEqual(
      doc.properties.map((p) => p.name),
      ['id', 'title', 'owner']
    )
    const [all] = describeFetchPlans(snapshot, 's_Doc', restricted)!
    assert.deepEqual(all.properties, [
      'title',
      {
        name: 'owner',
        fetchPlan: {
          name: '_base',
          properties: ['id', 'title'],
        },
      },
    ])
    const base = describeNamedFetchPlan(snapshot, 's_Doc', '_base', everything)
    assert.deepEqual(typeof base === 'string' ? base : base.properties.at(-1), {
      name: 'secret',
      fetchPlan: { properties: ['id', 'code'] },
    })
  })
})
