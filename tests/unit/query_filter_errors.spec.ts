import { test } from '@japa/runner'
import { CUSTOMER_ID, ORDER, c, details } from '#tests/unit/_filter_fixtures'

test.group('filter parser: errors', () => {
  const cases: [string, unknown, string][] = [
    ['no filter', undefined, 'Entities filter cannot be null'],
    ['null filter', null, 'Entities filter cannot be null'],
    ['filter not an object', [], 'Entities filter must be a JSON object'],
    ['filter text null', 'null', 'Entities filter must be a JSON object'],
    ['filter a number', 5, 'Entities filter must be a JSON object'],
    [
      'conditions not an array',
      { conditions: { property: 'number' } },
      "Field 'conditions' must be a JSON array",
    ],
    [
      'group conditions not an array',
      { conditions: [{ group: 'OR', conditions: 'x' }] },
      "Field 'conditions' must be a JSON array",
    ],
    [
      'no property',
      { conditions: [{ operator: '=', value: 1 }] },
      "Field 'property' is not defined for filter condition",
    ],
    [
      'property null',
      { conditions: [{ property: null, operator: '=', value: 1 }] },
      "Field 'property' is not defined for filter condition",
    ],
    [
      'property an object',
      { conditions: [{ property: { a: 1 }, operator: '=', value: 1 }] },
      "Field 'property' is not defined for filter condition",
    ],
    [
      'no operator',
      { conditions: [{ property: 'number', value: 1 }] },
      "Field 'operator' is not defined for filter condition",
    ],
    [
      'operator null',
      { conditions: [c('number', null as any, 1)] },
      "Field 'operator' is not defined for filter condition",
    ],
    ['unknown operator', { conditions: [c('number', 'xyz', 1)] }, 'Operator is not supported: xyz'],
    ['operator case', { conditions: [c('number', 'IN', ['a'])] }, 'Operator is not supported: IN'],
    ['empty operator', { conditions: [c('number', '', 'a')] }, 'Operator is not supported: '],
    [
      'operator not a string',
      { conditions: [c('number', 1 as any, 'a')] },
      'Operator is not supported: 1',
    ],
    [
      'no value',
      { conditions: [c('number', '=')] },
      "Field 'value' is not defined for filter condition",
    ],
    [
      'value null',
      { conditions: [c('number', '=', null)] },
      "Field 'value' is not defined for filter condition",
    ],
    [
      'unknown property',
      { conditions: [c('foo', '=', 1)] },
      `Property for ${ORDER} not found: foo`,
    ],
    [
      'unknown nested property',
      { conditions: [c('customer.foo', '=', 1)] },
      `Property for ${ORDER} not found: customer.foo`,
    ],
    [
      'path through a datatype',
      { conditions: [c('number.length', '=', 1)] },
      `Property for ${ORDER} not found: number.length`,
    ],
    ['empty property', { conditions: [c('', '=', 1)] }, `Property for ${ORDER} not found: `],
    [
      'trailing dot',
      { conditions: [c('customer.', '=', 1)] },
      `Property for ${ORDER} not found: customer.`,
    ],
    [
      'number as property',
      { conditions: [c(5 as any, '=', 1)] },
      `Property for ${ORDER} not found: 5`,
    ],
    [
      'transient property',
      { conditions: [c('total', '>', 1)] },
      `Property for ${ORDER} is not persistent: total`,
    ],
    [
      'transient through a path',
      { conditions: [c('lines.lineTotal', '>', 1)] },
      `Property for ${ORDER} is not persistent: lines.lineTotal`,
    ],
    [
      'operator for type',
      { conditions: [c('number', '>', 'a')] },
      'Operator > is not available for java type java.lang.String',
    ],
    [
      'operator for enum',
      { conditions: [c('status', 'contains', 'N')] },
      'Operator contains is not available for java type com.example.bookstore.OrderStatus',
    ],
    [
      'operator for reference',
      { conditions: [c('customer', '>', CUSTOMER_ID)] },
      'Operator > is not available for java type bookstore_Customer',
    ],
    [
      'in without array',
      { conditions: [c('number', 'in', 'a')] },
      'JSON array was expected as a value for condition with operator in',
    ],
    [
      'notIn without array',
      { conditions: [c('number', 'notIn', 5)] },
      'JSON array was expected as a value for condition with operator notIn',
    ],
    ['bad value', { conditions: [c('amount', '>', 'x')] }, 'Cannot parse property value: x'],
    ['bad enum value', { conditions: [c('status', '=', 'x')] }, 'Cannot parse enum value: x'],
    [
      'group type',
      { conditions: [{ group: 'XOR', conditions: [] }] },
      'Invalid conditions group type: XOR',
    ],
    [
      'group type null',
      { conditions: [{ group: null, conditions: [] }] },
      'Invalid conditions group type: null',
    ],
    [
      'group type number',
      { conditions: [{ group: 1, conditions: [] }] },
      'Invalid conditions group type: 1',
    ],
  ]
  for (const [title, filter, expected] of cases) {
    test(title, async ({ assert }) => {
      assert.deepEqual(await details(filter), {
        status: 400,
        error: 'Cannot parse entities filter',
        details: expected,
      })
    })
  }

  test('a non-object inside conditions is malformed JSON data, at any level', async ({
    assert,
  }) => {
    for (const [element, text] of [
      [null, 'null'],
      ['abc', 'abc'],
      [5, '5'],
      [[1], '[1]'],
    ] as const) {
      for (const filter of [
        { conditions: [element] },
        { conditions: [{ group: 'OR', conditions: [c('number', '=', 'a'), element] }] },
      ])
        assert.deepEqual(await details(filter), {
          status: 400,
          error: 'Malformed request JSON data structure',
          details: `JSON array element ${text} is not a valid JSON object literal`,
        })
    }
  })

  test('invalid JSON text is a 400 (upstream: 500) with the parser position', async ({
    assert,
  }) => {
    const error = await details('{"conditions": [')
    assert.equal(error.error, 'Cannot parse entities filter')
    assert.match(error.details, /^Entities filter is not valid JSON: JSON5: invalid end of input/)
    assert.equal((await details('')).status, 400)
  })

  test('an unknown entity is a 404', async ({ assert }) => {
    for (const name of ['nope', 'constructor', '__proto__', 'toString'])
      assert.deepEqual(await details({}, name), {
        status: 404,
        error: 'Entity not found',
        details: `Entity ${name} not found`,
      })
  })
})
