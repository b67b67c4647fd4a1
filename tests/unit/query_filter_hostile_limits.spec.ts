import { test } from '@japa/runner'
import { parseFilter } from '#engine/query/filter_parser'
import type { FilterCondition } from '#engine/query/filter_ast'
import { DEFAULT_FILTER_LIMITS } from '#engine/query/limits'
import { demoModel, errorOf, valueOf } from '#tests/unit/_query_fixtures'
import { ORDER, c, details, nested, parse } from '#tests/unit/_filter_hostile_fixtures'

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
    // Refused on its length before any value is converted (`n0` is no number: converting it
    // first would be another error), after at most one pass over the list (the parser's check
    // of the document's structure): no work per value that grows faster than the list. Counted,
    // not timed (a loaded CI machine once took 203 ms against a 200 ms bound).
    let read = 0
    const watched = new Proxy(values, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read++
        return Reflect.get(target, key, receiver)
      },
    })
    assert.equal(
      await details({ conditions: [c('number', 'in', watched)] }),
      'Too many values for condition with operator in: at most 1000 are allowed'
    )
    assert.isAtMost(read, values.length)
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
