import { test } from '@japa/runner'
import { validateModel } from '#engine/metadata/validate'
import { normalizeModel } from '#engine/metadata/normalize'
import { entity, hasProblem, int, model, str } from '#tests/unit/_fixtures'

const validate = (entities: ReturnType<typeof entity>[], extra = {}) =>
  validateModel(normalizeModel(model(entities, extra)))

test.group('validateModel: names', () => {
  test('valid names pass: {name}')
    .with([
      { name: 'bookstore_Order' },
      { name: 'ref$Colour' },
      { name: 'Customer' },
      { name: 'a1_B2$c3' },
    ])
    .run(({ assert }, { name }) => {
      assert.deepEqual(
        validate([entity(name, [str('title'), str('line_2'), str('firstName')])]),
        []
      )
    })

  test('invalid entity name is reported at .name: {name}')
    .with([
      { name: 'x"; DROP TABLE y; --' },
      { name: 'bookstore Order' },
      { name: '1bookstore' },
      { name: 'bookstore__Order' },
      { name: 'bookstore_' },
      { name: 'a'.repeat(200) },
      { name: 'ü_Order' },
    ])
    .run(({ assert }, { name }) => {
      const problems = validate([entity('ok_Entity', [str('title')]), entity(name, [str('title')])])
      hasProblem(assert, problems, '$.entities[1].name', /invalid entity name/)
      assert.isTrue(
        problems.every((p) => p.path.startsWith('$.entities[1]')),
        JSON.stringify(problems)
      )
    })

  test('entity names differing only in case clash', ({ assert }) => {
    const problems = validate([
      entity('shop_Order', [str('a')]),
      entity('shop_order', [str('a')], { table: 'shop_order2' }),
    ])
    hasProblem(assert, problems, '$.entities[1].name', /differ only in case/)
  })

  test('the same entity twice is a duplicate', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Order', [str('a')]), entity('shop_Order', [str('b')])]),
      '$.entities[1].name',
      /duplicate entity/
    )
  })

  test('invalid attribute name is reported at its path: {name}')
    .with([
      { name: 'x"; DROP TABLE y; --' },
      { name: 'first name' },
      { name: '_hidden' },
      { name: 'a$b' },
      { name: 'b'.repeat(200) },
    ])
    .run(({ assert }, { name }) => {
      const problems = validate([entity('shop_Item', [str('title'), str(name)])])
      hasProblem(assert, problems, '$.entities[0].attributes[1].name', /invalid attribute name/)
      assert.lengthOf(problems, 1)
    })

  test('attribute names differing only in case clash', ({ assert }) => {
    const problems = validate([entity('shop_Item', [str('title'), str('Title')])])
    hasProblem(assert, problems, '$.entities[0].attributes[1].name', /clashes/)
  })

  test('reserved attribute name is rejected: {name}')
    .with([
      { name: 'version' },
      { name: 'id' },
      { name: 'createdBy' },
      { name: 'deletedDate' },
      { name: '__securityToken' },
    ])
    .run(({ assert }, { name }) => {
      hasProblem(
        assert,
        validate([entity('shop_Item', [str(name)])]),
        '$.entities[0].attributes[0].name'
      )
    })

  test('an attribute whose column is a system column is rejected', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Item', [str('created_by')])]),
      '$.entities[0].attributes[0].name',
      /already used/
    )
  })

  test('attributes mapping to the same column clash', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Item', [str('firstName'), str('first_name')])]),
      '$.entities[0].attributes[1].name',
      /column 'first_name'/
    )
  })

  test('a long attribute name whose column exceeds 63 characters is rejected', ({ assert }) => {
    // 52 characters, but 'aB' x 26 becomes 'a_b_...' (77 characters) as a column.
    const name = 'aB'.repeat(26)
    hasProblem(
      assert,
      validate([entity('shop_Item', [str(name)])]),
      '$.entities[0].attributes[0].name',
      /63/
    )
  })

  test('a long entity name whose derived table exceeds 63 characters is rejected', ({ assert }) => {
    const name = 'shop_' + 'Ab'.repeat(29)
    hasProblem(assert, validate([entity(name, [str('a')])]), '$.entities[0].name', /table name/)
  })

  test('enum names and values', ({ assert }) => {
    const enums = [
      {
        name: 'com.example.Status',
        values: [
          { name: 'NEW', id: 'N' },
          { name: 'NEW', id: 'N' },
        ],
      },
      { name: 'bad name"', values: [] },
    ]
    const problems = validate([], { enums })
    hasProblem(assert, problems, '$.enums[0].values[1].name', /duplicate enum value/)
    hasProblem(assert, problems, '$.enums[0].values[1].id', /duplicate enum value id/)
    hasProblem(assert, problems, '$.enums[1].name', /invalid enum name/)
    hasProblem(assert, problems, '$.enums[1].values', /at least one value/)
  })
})

test.group('validateModel: datatypes', () => {
  test('unknown type is reported at .type', ({ assert }) => {
    const problems = validate([
      entity('shop_Item', [str('a'), { name: 'b', type: 'varchar(10)); DROP' as any }]),
    ])
    hasProblem(
      assert,
      problems,
      '$.entities[0].attributes[1].type',
      /unknown type 'varchar\(10\)\); DROP'/
    )
  })

  test('length on a non-string attribute', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Item', [int('a', { length: 10 })])]),
      '$.entities[0].attributes[0].length',
      /string attributes only/
    )
  })

  test('length out of range', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Item', [str('a', { length: 0 })])]),
      '$.entities[0].attributes[0].length'
    )
  })

  test('invalid pattern regex', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Item', [str('a', { pattern: '([a-z' })])]),
      '$.entities[0].attributes[0].pattern',
      /invalid regular expression/
    )
  })

  test('pattern on a number', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Item', [int('a', { pattern: '^1$' })])]),
      '$.entities[0].attributes[0].pattern'
    )
  })

  test('min greater than max', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Item', [int('a', { min: 10, max: 1 })])]),
      '$.entities[0].attributes[0].min',
      /greater than max/
    )
  })

  test('min on a string and non-numeric min', ({ assert }) => {
    const problems = validate([
      entity('shop_Item', [str('a', { min: 1 }), int('b', { max: 'ten' })]),
    ])
    hasProblem(assert, problems, '$.entities[0].attributes[0].min', /numeric attributes only/)
    hasProblem(assert, problems, '$.entities[0].attributes[1].max', /must be a number/)
  })

  test('enum attribute without enum, or with an unknown one', ({ assert }) => {
    const problems = validate([
      entity('shop_Item', [
        { name: 'a', type: 'enum' },
        { name: 'b', type: 'enum', enum: 'com.x.Missing' },
      ]),
    ])
    hasProblem(assert, problems, '$.entities[0].attributes[0].enum', /needs 'enum'/)
    hasProblem(assert, problems, '$.entities[0].attributes[1].enum', /unknown enum/)
  })

  test('decimal precision and scale', ({ assert }) => {
    const problems = validate([
      entity('shop_Item', [
        { name: 'a', type: 'decimal', precision: 50 },
        { name: 'b', type: 'decimal', precision: 5, scale: 6 },
      ]),
    ])
    hasProblem(assert, problems, '$.entities[0].attributes[0].precision')
    hasProblem(assert, problems, '$.entities[0].attributes[1].scale')
  })

  test('relation keys on a datatype attribute', ({ assert }) => {
    hasProblem(
      assert,
      validate([entity('shop_Item', [str('a', { target: 'shop_Item' })])]),
      '$.entities[0].attributes[0].target'
    )
  })
})
