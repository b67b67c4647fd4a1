import { test } from '@japa/runner'
import { B, cond, fails } from '#tests/unit/_filter_operator_fixtures'

test.group('filter operators: families', () => {
  test('comparisons keep their comparator', async ({ assert }) => {
    for (const token of ['=', '<>', '>', '>=', '<', '<=']) {
      const c = await cond(B, 'pageCount', token, 10)
      assert.deepInclude(c, { family: 'comparison', comparator: token, operator: token, value: 10 })
    }
  })

  test('in / notIn: distinct converted values; empty lists are allowed', async ({ assert }) => {
    assert.deepInclude(await cond(B, 'pageCount', 'in', [1, '2', 2, 1]), {
      family: 'list',
      negated: false,
      values: [1, 2],
    })
    assert.deepInclude(await cond(B, 'title', 'notIn', ['a', 'b']), {
      negated: true,
      values: ['a', 'b'],
    })
    assert.deepInclude(await cond(B, 'title', 'in', []), { values: [] })
    assert.equal(await fails(B, 'pageCount', 'in', [1, 'x']), 'Cannot parse property value: x')
    assert.equal(await fails(B, 'pageCount', 'in', [1, null]), 'Cannot parse property value: null')
  })

  test('like family: raw value, match kind, negation, case-insensitive, to be escaped', async ({
    assert,
  }) => {
    const expected = {
      contains: ['contains', false],
      doesNotContain: ['contains', true],
      startsWith: ['startsWith', false],
      endsWith: ['endsWith', false],
    } as const
    for (const [token, [match, negated]] of Object.entries(expected)) {
      assert.deepInclude(await cond(B, 'title', token, '50%_off'), {
        family: 'like',
        match,
        negated,
        value: '50%_off',
        caseInsensitive: true,
        escape: true,
      })
    }
    assert.deepInclude(await cond(B, 'title', 'contains', 42), { value: '42' })
    assert.equal(await fails(B, 'title', 'contains', ['a']), 'Cannot parse property value: ["a"]')
  })

  test('isNull / notEmpty: optional boolean value, false inverts [2.8.2+]', async ({ assert }) => {
    const cases: [string, unknown, boolean][] = [
      ['isNull', undefined, false],
      ['isNull', null, false],
      ['isNull', true, false],
      ['isNull', false, true],
      ['isNull', 'false', true],
      ['notEmpty', undefined, true],
      ['notEmpty', true, true],
      ['notEmpty', false, false],
      ['notEmpty', 'TRUE', true],
    ]
    for (const [token, value, isSet] of cases) {
      const c = await cond(B, 'title', token, value)
      assert.deepInclude(c, { family: 'null', operator: token, isSet }, `${token} ${value}`)
    }
    assert.equal(await fails(B, 'title', 'isNull', 'abc'), 'Cannot parse property value: abc')
    assert.equal(await fails(B, 'title', 'notEmpty', 1), 'Cannot parse property value: 1')
    assert.deepInclude(await cond(B, 'metadata', 'notEmpty'), { isSet: true })
    assert.deepInclude(await cond(B, 'reviews', 'isNull'), { isSet: false })
  })
})
