import { test } from '@japa/runner'
import { parseFilter } from '#engine/query/filter_parser'
import type { FilterCondition, FilterGroup } from '#engine/query/filter_ast'
import { DEFAULT_FILTER_LIMITS } from '#engine/query/limits'
import { LIKE_ESCAPE, escapeLike, likePattern } from '#engine/query/operators/like'
import { demoModel, errorOf, valueOf } from '#tests/unit/_query_fixtures'

const ORDER = 'bookstore_Order'
const c = (property: string, operator: string, value?: unknown) => ({ property, operator, value })

async function parse(filter: unknown, options = {}) {
  return parseFilter(await demoModel(), ORDER, filter, options)
}

async function details(filter: unknown, options = {}) {
  return errorOf(await parse(filter, options)).details
}

function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = c('number', '=', 'x')
  for (let k = 0; k < depth; k++) node = { group: 'OR', conditions: [node] }
  return { conditions: [node] }
}

test.group('filter hostile: limits (catalogue FQ6-FQ8, FQ18)', () => {
  test('groups nested 1,000 deep: 400, no stack overflow, as a value and as text', async ({
    assert,
  }) => {
    const expected = 'Conditions groups are nested deeper than 10 levels'
    assert.equal(await details(nested(1000)), expected)
    assert.equal(await details(JSON.stringify(nested(1000))), expected)
    const text = '{"conditions":' + '[{"group":"OR","conditions":'.repeat(5000)
    assert.equal(await details(text + '[]' + '}]'.repeat(5000) + '}'), expected)
  })

  test('the depth limit is exact and configurable', async ({ assert }) => {
    const max = DEFAULT_FILTER_LIMITS.maxDepth
    assert.isTrue((await parse(nested(max))).ok)
    assert.isFalse((await parse(nested(max + 1))).ok)
    assert.isTrue((await parse(nested(3), { maxDepth: 3 })).ok)
    assert.equal(
      await details(nested(4), { maxDepth: 3 }),
      'Conditions groups are nested deeper than 3 levels'
    )
  })

  test('too many conditions or OR branches: 400 before any is resolved', async ({ assert }) => {
    const expected = 'Entities filter has more than 100 conditions and groups'
    const many = (n: number) => Array.from({ length: n }, () => c('number', '=', 'x'))
    assert.isTrue((await parse({ conditions: many(100) })).ok)
    assert.equal(await details({ conditions: many(101) }), expected)
    assert.equal(await details({ conditions: [{ group: 'OR', conditions: many(1000) }] }), expected)
    // Counted before resolution: unknown properties beyond the limit are never looked at.
    const unknown = Array.from({ length: 5000 }, (_, k) => c(`p${k}`, '=', 'x'))
    assert.equal(await details({ conditions: unknown }), expected)
    assert.equal(
      await details({ conditions: many(11) }, { maxConditions: 10 }),
      'Entities filter has more than 10 conditions and groups'
    )
  })

  test('an in list of 100,000 values: 400, not a 100,000-parameter statement', async ({
    assert,
  }) => {
    const values = Array.from({ length: 100_000 }, (_, k) => `n${k}`)
    const started = performance.now()
    assert.equal(
      await details({ conditions: [c('number', 'in', values)] }),
      'Too many values for condition with operator in: at most 1000 are allowed'
    )
    assert.isBelow(performance.now() - started, 200)
    const ok = await parse({ conditions: [c('number', 'notIn', values.slice(0, 1000))] })
    assert.lengthOf((valueOf(ok).root.conditions[0] as any).values, 1000)
  })

  test('a property path 20 hops deep: 400', async ({ assert }) => {
    const path = Array.from({ length: 10 }, () => 'customer.orders').join('.') + '.number'
    assert.equal(
      await details({ conditions: [c(path, '=', 'x')] }),
      `Property path is longer than 8 segments: ${path}`
    )
    assert.isTrue(
      (await parse({ conditions: [c('customer.orders.customer.orders.number', '=', 'x')] })).ok
    )
  })

  test('oversized values and texts', async ({ assert }) => {
    const long = 'x'.repeat(DEFAULT_FILTER_LIMITS.maxValueLength + 1)
    const expected = 'Value is longer than 4000 characters'
    assert.equal(await details({ conditions: [c('number', '=', long)] }), expected)
    assert.equal(await details({ conditions: [c('number', 'contains', long)] }), expected)
    assert.equal(await details({ conditions: [c('number', 'in', ['a', long])] }), expected)
    assert.equal(await details({ conditions: [c('amount', '=', '1'.repeat(5000))] }), expected)
    assert.equal(
      await details(' '.repeat(DEFAULT_FILTER_LIMITS.maxTextLength + 1)),
      'Entities filter is longer than 262144 characters'
    )
  })

  test('echoed client text is cut short in error details', async ({ assert }) => {
    const name = 'a'.repeat(10_000)
    const text = await details({ conditions: [c(name, '=', 'x')] })
    assert.equal(text, `Property for ${ORDER} not found: ${'a'.repeat(200)}…`)
  })
})

test.group('filter hostile: injection and type confusion (FQ1, FQ2, FQ4, FQ9)', () => {
  test('SQL-looking property names are unknown properties', async ({ assert }) => {
    for (const property of [
      'name) OR (1=1',
      'number" --',
      'number; DELETE FROM x',
      'number--',
      '*',
      'number OR 1=1',
      'customer.name`',
      ' number',
      'NUMBER',
      'customer..name',
      "metadata->>'a'",
    ])
      assert.equal(
        await details({ conditions: [c(property, '=', 'x')] }),
        `Property for ${ORDER} not found: ${property}`
      )
  })

  test('SQL-looking values are plain values (bound, never spliced)', async ({ assert }) => {
    for (const value of ["' OR 1=1 --", '"; DROP TABLE customer; --', '\\', '%']) {
      const parsed = valueOf(await parse({ conditions: [c('number', '=', value)] }))
      assert.equal((parsed.root.conditions[0] as FilterCondition & { value: string }).value, value)
    }
  })

  test('operator injection is an unsupported operator', async ({ assert }) => {
    for (const operator of ['= 1 OR 1=1 --', 'IN', 'regex', '==', 'like', ' =', 'LIKE'])
      assert.equal(
        await details({ conditions: [c('number', operator, 'x')] }),
        `Operator is not supported: ${operator}`
      )
  })

  test('operator objects as values ({"$gt": 1}) never pass for a datatype', async ({ assert }) => {
    const confused: unknown[] = [{ $gt: 1 }, { $in: [1, 2] }, [1], { id: 1 }, { toString: 'x' }]
    const properties = ['number', 'amount', 'date', 'placedAt', 'status', 'customer.externalRef']
    for (const property of properties)
      for (const value of confused) {
        const text = await details({ conditions: [c(property, '=', value)] })
        assert.match(
          text,
          /^Cannot parse (property|enum) value: /,
          `${property} ${JSON.stringify(value)}`
        )
      }
    assert.equal(
      await details({ conditions: [c('amount', 'in', [[1]])] }),
      'Cannot parse property value: [1]'
    )
    assert.equal(
      await details({ conditions: [c('customer', 'in', [{ id: { $ne: null } }])] }),
      'Cannot parse property value: {"id":{"$ne":null}}'
    )
  })

  test('JSON attributes accept no operators with values and no paths', async ({ assert }) => {
    const B = 'bookstore_Book'
    const model = await demoModel()
    const error = (filter: unknown) => errorOf(parseFilter(model, B, filter)).details
    assert.equal(
      error({ conditions: [c('metadata', '=', 'x')] }),
      'Operator = is not available for java type json'
    )
    assert.equal(
      error({ conditions: [c('metadata.a', '=', 'x')] }),
      `Property for ${B} not found: metadata.a`
    )
    assert.equal(
      error({ conditions: [c("metadata->>'a'); --", '=', 'x')] }),
      `Property for ${B} not found: metadata->>'a'); --`
    )
  })
})

test.group('filter hostile: odd inputs', () => {
  test('non-JSON objects are not filters, nor conditions', async ({ assert }) => {
    for (const filter of [new Date(), new Map(), Buffer.from('{}'), new (class {})()])
      assert.equal(await details(filter), 'Entities filter must be a JSON object')
    assert.equal(
      await details({ conditions: [new Date(0)] }),
      'JSON array element "1970-01-01T00:00:00.000Z" is not a valid JSON object literal'
    )
  })

  test('session placeholders from a client are plain literals (FQ19)', async ({ assert }) => {
    for (const value of [':current_user_id', ':session$userId', '${user.id}']) {
      const parsed = valueOf(await parse({ conditions: [c('createdBy', '=', value)] }))
      assert.deepInclude(parsed.root.conditions[0], { value })
    }
  })

  test('long numeric-looking values are refused quickly (no regex backtracking)', async ({
    assert,
  }) => {
    const started = performance.now()
    for (const property of ['amount', 'pageCount'])
      for (const value of ['1'.repeat(3999) + 'x', '1.' + '1'.repeat(3997) + 'x'])
        await parseFilter(await demoModel(), 'bookstore_Book', {
          conditions: [c(property === 'amount' ? 'price' : property, '=', value)],
        })
    const weight = '1'.repeat(3999) + 'x'
    assert.equal(
      errorOf(
        parseFilter(await demoModel(), 'bookstore_Book', {
          conditions: [c('weightKg', '=', weight)],
        })
      ).details,
      `Cannot parse property value: ${'1'.repeat(200)}…`
    )
    assert.isBelow(performance.now() - started, 100)
  })
})

test.group('filter hostile: prototype pollution (MA1-MA3, MA7)', () => {
  test('__proto__ and constructor keys are ignored and pollute nothing', async ({ assert }) => {
    const text = `{
      "__proto__": {"conditions": [{"property": "number", "operator": "=", "value": "p"}], "polluted": 1},
      "constructor": {"prototype": {"polluted": 1}},
      "conditions": [
        {"property": "number", "operator": "=", "value": "a", "__proto__": {"operator": "<>"}},
        {"group": "OR", "__proto__": {"group": "AND"}, "conditions": [
          {"property": "amount", "operator": ">", "value": 1, "constructor": {"prototype": {"x": 1}}}
        ]}
      ]
    }`
    for (const filter of [text, JSON.parse(text)]) {
      const parsed = valueOf(await parse(filter))
      assert.lengthOf(parsed.root.conditions, 2)
      assert.deepInclude(parsed.root.conditions[0], { comparator: '=', value: 'a' })
      assert.equal((parsed.root.conditions[1] as FilterGroup).type, 'OR')
    }
    assert.isUndefined(({} as any).polluted)
    assert.isUndefined(({} as any).x)
    assert.isUndefined((Object.prototype as any).polluted)
  })

  test('a filter whose only conditions sit in __proto__ is empty', async ({ assert }) => {
    const parsed = valueOf(
      await parse('{"__proto__": {"conditions": [{"property": "number", "operator": "isNull"}]}}')
    )
    assert.lengthOf(parsed.root.conditions, 0)
  })

  test('inherited names are never registry hits', async ({ assert }) => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      assert.equal(
        await details({ conditions: [c(name, 'isNull')] }),
        `Property for ${ORDER} not found: ${name}`
      )
      assert.equal(
        await details({ conditions: [c(`customer.${name}`, 'isNull')] }),
        `Property for ${ORDER} not found: customer.${name}`
      )
      assert.equal(
        await details({ conditions: [c('number', name, 'x')] }),
        `Operator is not supported: ${name}`
      )
      assert.equal(
        await details({ conditions: [c('status', '=', name)] }),
        `Cannot parse enum value: ${name}`
      )
      assert.equal(
        await details({ conditions: [{ group: name, conditions: [] }] }),
        `Invalid conditions group type: ${name}`
      )
    }
    const ref = JSON.parse('{"__proto__": {"id": "5b9f3c1e-8d2a-4b7e-9c1f-0a2b3c4d5e6f"}}')
    assert.match(
      await details({ conditions: [c('customer', '=', ref)] }),
      /^Cannot parse property value/
    )
  })

  test('a polluted Object.prototype does not leak into the filter', async ({ assert }) => {
    const proto = Object.prototype as any
    try {
      // (`value` itself cannot be polluted here: it would break every property descriptor.)
      proto.conditions = [c('number', '=', 'polluted')]
      proto.group = 'OR'
      proto.property = 'number'
      proto.operator = '='
      proto._entityName = 'bookstore_Customer'
      const parsed = valueOf(await parse({ conditions: [c('number', 'isNull')] }))
      assert.lengthOf(parsed.root.conditions, 1)
      assert.deepInclude(parsed.root.conditions[0], { kind: 'condition', isSet: false })
      assert.equal(
        await details({ conditions: [{ operator: '=', value: 'x' }] }),
        "Field 'property' is not defined for filter condition"
      )
      assert.equal(
        await details({ conditions: [{ property: 'number', value: 'x' }] }),
        "Field 'operator' is not defined for filter condition"
      )
      assert.lengthOf(valueOf(await parse({})).root.conditions, 0)
    } finally {
      for (const key of ['conditions', 'group', 'property', 'operator', '_entityName'])
        delete proto[key]
    }
  })
})

test.group('filter hostile: LIKE escaping (FQ5)', () => {
  test('escapeLike escapes %, _ and the escape character', ({ assert }) => {
    assert.equal(LIKE_ESCAPE, '\\')
    assert.equal(escapeLike('50%'), '50\\%')
    assert.equal(escapeLike('a_b'), 'a\\_b')
    assert.equal(escapeLike('C:\\dir'), 'C:\\\\dir')
    assert.equal(escapeLike('%_\\'), '\\%\\_\\\\')
    assert.equal(escapeLike('plain [x] ^$ *'), 'plain [x] ^$ *')
    assert.equal(escapeLike(''), '')
    assert.equal(escapeLike('ü%😀_'), 'ü\\%😀\\_')
  })

  test('another escape character', ({ assert }) => {
    assert.equal(escapeLike('a!b%c_\\', '!'), 'a!!b!%c!_\\')
    assert.throws(() => escapeLike('x', '%'))
    assert.throws(() => escapeLike('x', '_'))
    assert.throws(() => escapeLike('x', '!!'))
  })

  test('likePattern adds the wildcards around the escaped value', async ({ assert }) => {
    const cases = {
      contains: '%100\\%\\_\\\\%',
      doesNotContain: '%100\\%\\_\\\\%',
      startsWith: '100\\%\\_\\\\%',
      endsWith: '%100\\%\\_\\\\',
    }
    for (const [operator, pattern] of Object.entries(cases)) {
      const parsed = valueOf(await parse({ conditions: [c('number', operator, '100%_\\')] }))
      const condition = parsed.root.conditions[0] as FilterCondition
      if (condition.family !== 'like') throw new Error('like expected')
      assert.equal(condition.value, '100%_\\')
      assert.isTrue(condition.escape)
      assert.equal(likePattern(condition), pattern)
    }
    assert.equal(likePattern({ match: 'contains', value: '' }), '%%')
  })
})
