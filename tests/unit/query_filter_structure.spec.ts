import { test } from '@japa/runner'
import { parseFilter } from '#engine/query/filter_parser'
import type { FilterCondition, FilterGroup } from '#engine/query/filter_ast'
import { conditionsOf } from '#engine/query/filter_ast'
import { demoModel, errorOf, valueOf } from '#tests/unit/_query_fixtures'
import { CUSTOMER_ID, ORDER, c, details, only, parse } from '#tests/unit/_filter_fixtures'

test.group('filter parser: structure', () => {
  test('an empty filter is no restriction', async ({ assert }) => {
    for (const filter of [
      {},
      { conditions: [] },
      { conditions: null },
      '{}',
      '{"conditions":[]}',
    ]) {
      const parsed = valueOf(await parse(filter))
      assert.deepEqual(parsed.root, { kind: 'group', type: 'AND', conditions: [] })
      assert.equal(parsed.conditionCount, 0)
      assert.equal(parsed.entity.name, ORDER)
    }
  })

  test('the upstream example: root conditions ANDed, an OR group, references', async ({
    assert,
  }) => {
    const parsed = valueOf(
      await parse({
        conditions: [
          {
            group: 'OR',
            conditions: [c('number', '<>', 'A-1'), c('amount', '>', 100)],
          },
          c('customer.name', 'startsWith', 'Sh'),
          c('customer', '=', { _entityName: 'bookstore_Customer', id: CUSTOMER_ID }),
          c('currency', 'in', ['EUR', 'USD']),
          c('createdBy', 'isNull'),
        ],
      })
    )
    assert.equal(parsed.conditionCount, 6)
    const [or, starts, customer, currency, createdBy] = parsed.root.conditions
    assert.equal(or.kind, 'group')
    assert.equal((or as FilterGroup).type, 'OR')
    assert.deepInclude((or as FilterGroup).conditions[0], {
      family: 'comparison',
      comparator: '<>',
      value: 'A-1',
    })
    assert.deepInclude((or as FilterGroup).conditions[1], { comparator: '>', value: '100' })
    assert.deepInclude(starts, { family: 'like', match: 'startsWith', value: 'Sh' })
    assert.deepInclude(customer, { family: 'comparison', comparator: '=', value: CUSTOMER_ID })
    assert.deepEqual((customer as FilterCondition).valueType, {
      datatype: 'uuid',
      enum: null,
      reference: 'bookstore_Customer',
    })
    assert.deepInclude(currency, { family: 'list', negated: false, values: ['EUR', 'USD'] })
    assert.deepInclude(createdBy, { family: 'null', isSet: false, operator: 'isNull' })
  })

  test('group types are case-insensitive; groups nest; a group key wins', async ({ assert }) => {
    const parsed = valueOf(
      await parse({
        conditions: [
          {
            group: 'or',
            conditions: [
              { group: 'And', conditions: [c('number', '=', 'a'), c('note', '=', 'b')] },
              c('number', '=', 'c'),
            ],
          },
          { group: 'AND', conditions: [c('number', '=', 'd')] },
        ],
      })
    )
    const [or, and] = parsed.root.conditions as FilterGroup[]
    assert.equal(or.type, 'OR')
    assert.equal((or.conditions[0] as FilterGroup).type, 'AND')
    assert.lengthOf((or.conditions[0] as FilterGroup).conditions, 2)
    assert.equal(and.type, 'AND')
    assert.equal(parsed.conditionCount, 4)
    assert.deepEqual(
      [...conditionsOf(parsed.root)].map((x) => (x as { value?: unknown }).value),
      ['a', 'b', 'c', 'd']
    )
  })

  test('empty groups impose no restriction and are dropped', async ({ assert }) => {
    const parsed = valueOf(
      await parse({
        conditions: [
          { group: 'OR', conditions: [] },
          { group: 'OR', conditions: [{ group: 'AND' }, c('number', '=', 'x')] },
          { group: 'AND', conditions: [{ group: 'OR', conditions: [{ group: 'OR' }] }] },
        ],
      })
    )
    assert.lengthOf(parsed.root.conditions, 1)
    const or = parsed.root.conditions[0] as FilterGroup
    assert.lengthOf(or.conditions, 1)
    assert.equal(or.conditions[0].kind, 'condition')
  })

  test('unknown keys are a 400 naming them (stricter than upstream, TY7)', async ({ assert }) => {
    const cases: [unknown, string][] = [
      [{ conditions: [c('number', '=', 'x')], extra: true }, `'extra' in the filter`],
      [{ condition: [c('number', '=', 'x')] }, `'condition' in the filter`],
      [c('number', '=', 'x'), `'property' in the filter`],
      [{ conditions: [{ ...c('number', '=', 'x'), foo: 1 }] }, `'foo' in a condition`],
      [
        { conditions: [{ group: 'OR', property: 'number', conditions: [] }] },
        `'property' in a conditions group`,
      ],
    ]
    for (const [filter, where] of cases)
      assert.include((await details(filter)).details, `Unknown key ${where}`)
  })

  test('property paths: to-one, composition, to-many, many-to-many, system attributes', async ({
    assert,
  }) => {
    const name = await only({ conditions: [c('customer.name', '=', 'Ann')] })
    assert.deepEqual(
      name.path.attributes.map((a) => a.name),
      ['customer', 'name']
    )
    assert.deepEqual(
      name.path.owners.map((e) => e.name),
      [ORDER, 'bookstore_Customer']
    )
    assert.equal(name.path.text, 'customer.name')
    assert.isFalse(name.path.toMany)

    const country = await only({ conditions: [c('shippingAddress.country.name', '=', 'Germany')] })
    assert.deepEqual(
      country.path.owners.map((e) => e.name),
      [ORDER, 'bookstore_Address', 'ref$Country']
    )
    const lines = await only({ conditions: [c('lines.quantity', '>', 2)] })
    assert.isTrue(lines.path.toMany)
    assert.deepInclude(lines, { value: 2 })
    const authors = await only(
      { conditions: [c('authors.lastName', 'contains', 'mann')] },
      'bookstore_Book'
    )
    assert.isTrue(authors.path.toMany)
    const deep = await only(
      { conditions: [c('lines.book.publisher.country.name', '=', 'France')] },
      ORDER
    )
    assert.lengthOf(deep.path.attributes, 5)
    for (const [property, value] of [
      ['id', CUSTOMER_ID],
      ['version', 3],
      ['createdBy', 'admin'],
      ['customer.id', CUSTOMER_ID],
    ] as const) {
      const sys = await only({ conditions: [c(property, '=', value)] })
      assert.equal(sys.path.text, property)
    }
  })

  test('a path may end at a relation: to-one by id, to-many as "any related row"', async ({
    assert,
  }) => {
    const customer = await only({ conditions: [c('customer', '<>', CUSTOMER_ID)] })
    assert.equal(customer.path.attributes[0].kind, 'association')
    const lines = await only({ conditions: [c('lines', 'notEmpty')] })
    assert.deepInclude(lines, { family: 'null', isSet: true })
    assert.isTrue(lines.path.toMany)
    assert.equal(lines.valueType.reference, 'bookstore_OrderLine')
    const stock = await only({ conditions: [c('stockItem', 'in', [1, '2'])] }, 'bookstore_Book')
    assert.deepInclude(stock, { values: [1, 2] })
    assert.equal(stock.valueType.datatype, 'long')
  })

  test('JSON text: strict and lenient (unquoted keys, single quotes, comments)', async ({
    assert,
  }) => {
    const strict = await only('{"conditions":[{"property":"number","operator":"=","value":"a"}]}')
    assert.equal(strict.value, 'a')
    const lenient = await only(
      "{conditions: [ /* upstream docs style */ {property: 'number', operator: '=', value: 'b'}]}"
    )
    assert.equal(lenient.value, 'b')
    const decoded = await only(
      decodeURIComponent(
        encodeURIComponent('{"conditions":[{"property":"status","operator":"=","value":"PAID"}]}')
      )
    )
    assert.equal(decoded.value, 'P')
  })

  test('the readable hook hides attributes anywhere on a path, like unknown ones', async ({
    assert,
  }) => {
    const model = await demoModel()
    const readable = (a: { name: string }) => a.name !== 'loyaltyPoints' && a.name !== 'customer'
    const hidden = (property: string) =>
      errorOf(parseFilter(model, ORDER, { conditions: [c(property, 'isNull')] }, { readable }))
    assert.equal(hidden('customer').details, `Property for ${ORDER} not found: customer`)
    assert.equal(hidden('customer.name').details, `Property for ${ORDER} not found: customer.name`)
    const viaLines = errorOf(
      parseFilter(
        model,
        'bookstore_Customer',
        { conditions: [c('loyaltyPoints', '>', 1)] },
        { readable }
      )
    )
    assert.equal(viaLines.details, 'Property for bookstore_Customer not found: loyaltyPoints')
    assert.isTrue(
      parseFilter(model, ORDER, { conditions: [c('number', '=', 'x')] }, { readable }).ok
    )
  })
})
