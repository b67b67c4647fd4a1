import { test } from '@japa/runner'
import type { FilterCondition } from '#engine/query/filter_ast'
import { OPERATORS, operatorsFor } from '#engine/query/operators/registry'
import { errorOf, valueOf } from '#tests/unit/_query_fixtures'
import { B, UUID, run } from '#tests/unit/_filter_operator_fixtures'

/** A valid sample value per operator for each representative property. */
interface Probe {
  entity: string
  property: string
  javaType: string
  allowed: string[]
  sample: unknown
}

const STRING_OPS = [
  '=',
  '<>',
  'in',
  'notIn',
  'contains',
  'doesNotContain',
  'startsWith',
  'endsWith',
  'isNull',
  'notEmpty',
]
const DATE_OPS = ['=', '<>', '>', '>=', '<', '<=', 'in', 'notIn', 'isNull', 'notEmpty']
const TIME_OPS = ['=', '<>', '>', '>=', '<', '<=', 'isNull', 'notEmpty']
const NUMBER_OPS = DATE_OPS
const BOOLEAN_OPS = ['=', '<>', 'isNull', 'notEmpty']
const IDENTITY_OPS = ['=', '<>', 'in', 'notIn', 'isNull', 'notEmpty']
const OPAQUE_OPS = ['isNull', 'notEmpty']

const PROBES: Probe[] = [
  { entity: B, property: 'title', javaType: 'java.lang.String', allowed: STRING_OPS, sample: 'a' },
  { entity: B, property: 'blurb', javaType: 'java.lang.String', allowed: STRING_OPS, sample: 'a' },
  {
    entity: B,
    property: 'pageCount',
    javaType: 'java.lang.Integer',
    allowed: NUMBER_OPS,
    sample: 5,
  },
  {
    entity: 'bookstore_Customer',
    property: 'loyaltyPoints',
    javaType: 'java.lang.Long',
    allowed: NUMBER_OPS,
    sample: 5,
  },
  {
    entity: B,
    property: 'weightKg',
    javaType: 'java.lang.Double',
    allowed: NUMBER_OPS,
    sample: 1.5,
  },
  {
    entity: B,
    property: 'price',
    javaType: 'java.math.BigDecimal',
    allowed: NUMBER_OPS,
    sample: 9.99,
  },
  {
    entity: B,
    property: 'inPrint',
    javaType: 'java.lang.Boolean',
    allowed: BOOLEAN_OPS,
    sample: true,
  },
  {
    entity: B,
    property: 'publicationDate',
    javaType: 'java.time.LocalDate',
    allowed: DATE_OPS,
    sample: '2020-01-31',
  },
  {
    entity: 'bookstore_Review',
    property: 'reviewedAt',
    javaType: 'java.time.LocalDateTime',
    allowed: DATE_OPS,
    sample: '2020-01-31T10:00:00',
  },
  {
    entity: 'bookstore_Order',
    property: 'placedAt',
    javaType: 'java.time.OffsetDateTime',
    allowed: DATE_OPS,
    sample: '2020-01-31T10:00:00Z',
  },
  {
    entity: 'bookstore_Warehouse',
    property: 'opensAt',
    javaType: 'java.time.LocalTime',
    allowed: TIME_OPS,
    sample: '08:00:00',
  },
  {
    entity: 'bookstore_Customer',
    property: 'externalRef',
    javaType: 'java.util.UUID',
    allowed: IDENTITY_OPS,
    sample: UUID,
  },
  {
    entity: B,
    property: 'genre',
    javaType: 'com.example.bookstore.Genre',
    allowed: IDENTITY_OPS,
    sample: 'POETRY',
  },
  {
    entity: B,
    property: 'cover',
    javaType: 'io.jmix.core.FileRef',
    allowed: IDENTITY_OPS,
    sample: 'fs://2021/03/12/a.jpg?name=a.jpg',
  },
  {
    entity: B,
    property: 'publisher',
    javaType: 'bookstore_Publisher',
    allowed: IDENTITY_OPS,
    sample: UUID,
  },
  {
    entity: B,
    property: 'authors',
    javaType: 'bookstore_Author',
    allowed: IDENTITY_OPS,
    sample: UUID,
  },
  { entity: B, property: 'id', javaType: 'java.util.UUID', allowed: IDENTITY_OPS, sample: UUID },
  { entity: B, property: 'metadata', javaType: 'json', allowed: OPAQUE_OPS, sample: 'x' },
]

test.group('filter operators: availability per type (upstream RestFilterOpManagerImpl)', () => {
  test('the registry holds exactly the upstream tokens', ({ assert }) => {
    assert.sameMembers(
      [...OPERATORS.keys()],
      [
        '=',
        '<>',
        '>',
        '>=',
        '<',
        '<=',
        'in',
        'notIn',
        'contains',
        'doesNotContain',
        'startsWith',
        'endsWith',
        'isNull',
        'notEmpty',
      ]
    )
  })

  for (const probe of PROBES) {
    test(`${probe.entity}.${probe.property}`, async ({ assert }) => {
      for (const token of OPERATORS.keys()) {
        const value = ['in', 'notIn'].includes(token)
          ? [probe.sample]
          : ['isNull', 'notEmpty'].includes(token)
            ? undefined
            : probe.sample
        const result = await run(probe.entity, probe.property, token, value)
        if (probe.allowed.includes(token)) {
          assert.isTrue(result.ok, `${token} should be allowed: ${JSON.stringify(result)}`)
          assert.equal(valueOf(result).root.conditions[0].kind, 'condition')
        } else {
          assert.equal(
            errorOf(result).details,
            `Operator ${token} is not available for java type ${probe.javaType}`
          )
        }
      }
      const first = valueOf(await run(probe.entity, probe.property, 'isNull'))
      const type = (first.root.conditions[0] as FilterCondition).valueType
      assert.sameOrderedMembers(
        operatorsFor(type),
        [...OPERATORS.keys()].filter((t) => probe.allowed.includes(t))
      )
    })
  }
})
