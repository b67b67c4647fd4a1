import { test } from '@japa/runner'
import { parseFilter } from '#engine/query/filter_parser'
import type { FilterCondition } from '#engine/query/filter_ast'
import { LIKE_ESCAPE, escapeLike, likePattern } from '#engine/query/operators/like'
import { demoModel, errorOf, valueOf } from '#tests/unit/_query_fixtures'
import { ORDER, c, details, parse } from '#tests/unit/_filter_hostile_fixtures'

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
    // Backtracking over 4,000 digits would take minutes, not milliseconds: the bound leaves a
    // loaded CI machine room (these parses take about 40 ms there) and still catches it.
    assert.isBelow(performance.now() - started, 1000)
  })
})

test.group('filter hostile: prototype pollution (MA1-MA3, MA7)', () => {
  test('__proto__ and constructor keys are refused as unknown keys and pollute nothing', async ({
    assert,
  }) => {
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
      const error = errorOf(await parse(filter))
      assert.equal(error.status, 400)
      assert.match(error.details, /^Unknown key '(__proto__|constructor)' in the filter/)
    }
    assert.isUndefined(({} as any).polluted)
    assert.isUndefined(({} as any).x)
    assert.isUndefined((Object.prototype as any).polluted)
  })

  test('a filter whose only conditions sit in __proto__ is a 400, never every row', async ({
    assert,
  }) => {
    const error = errorOf(
      await parse('{"__proto__": {"conditions": [{"property": "number", "operator": "isNull"}]}}')
    )
    assert.equal(error.details, "Unknown key '__proto__' in the filter (allowed: 'conditions')")
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
