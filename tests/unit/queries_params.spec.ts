/**
 * Named-query parameters (app/engine/queries/params.ts): conversion of request values by the
 * declared type at its edges, ids of entities with uuid / long / string ids, and the
 * substitution of `:param` placeholders into a filter.
 */
import { test } from '@japa/runner'
import { convertValue, placeholdersOf, substitute } from '#engine/queries/params'
import type { ParamType } from '#engine/queries/store'
import { demoModel } from '#tests/unit/_query_fixtures'

const convert = async (type: ParamType, raw: unknown, extra: Record<string, string> = {}) =>
  convertValue(await demoModel(), { name: 'p', type, ...extra }, raw)

test.group('named queries: parameter values', () => {
  test('numbers: int is 32 bit, long 64 bit (text beyond safe integers)', async ({ assert }) => {
    assert.strictEqual(await convert('int', '2147483647'), 2147483647)
    assert.isUndefined(await convert('int', '2147483648'))
    assert.isUndefined(await convert('int', '1e3'))
    assert.strictEqual(await convert('int', 7), 7, 'a JSON number is read as its text')
    assert.strictEqual(await convert('long', '9223372036854775807'), '9223372036854775807')
    assert.isUndefined(await convert('long', '9223372036854775808'))
    assert.strictEqual(await convert('double', '-1.5e3'), -1500)
    assert.isUndefined(await convert('double', 'NaN'))
    assert.strictEqual(
      await convert('decimal', '12345678901234567890.12'),
      '12345678901234567890.12'
    )
    assert.isUndefined(await convert('decimal', '1,5'))
  })

  test('booleans, temporal values, uuids', async ({ assert }) => {
    assert.strictEqual(await convert('boolean', 'TRUE'), true)
    assert.strictEqual(await convert('boolean', false), false)
    assert.isUndefined(await convert('boolean', 'yes'))
    assert.strictEqual(await convert('date', '2024-02-29'), '2024-02-29')
    assert.isUndefined(await convert('date', '2023-02-29'))
    assert.strictEqual(await convert('time', '23:59:59.5'), '23:59:59.5')
    assert.isUndefined(await convert('time', '24:00'))
    assert.strictEqual(await convert('dateTime', '2024-01-31T08:00'), '2024-01-31T08:00')
    assert.isUndefined(await convert('dateTime', '2024-01-31 08:00'))
    const id = '5B0A3C1E-2F4D-4A8B-9C7E-1D2E3F405162'
    assert.strictEqual(await convert('uuid', id), id.toLowerCase())
    assert.isUndefined(await convert('uuid', 'x'))
  })

  test('enums by value name; entities by the id type of the entity', async ({ assert }) => {
    const status = { enum: 'com.example.bookstore.OrderStatus' }
    assert.strictEqual(await convert('enum', 'PAID', status), 'PAID')
    assert.isUndefined(await convert('enum', 'paid', status), 'names are case-sensitive')
    assert.strictEqual(await convert('entity', '12', { entity: 'bookstore_Warehouse' }), 12)
    assert.isUndefined(await convert('entity', 'x', { entity: 'bookstore_Warehouse' }))
    assert.strictEqual(await convert('entity', 'DE', { entity: 'ref$Country' }), 'DE')
    assert.isUndefined(await convert('entity', 'DE', { entity: 'bookstore_Book' }))
  })

  test('substitution: alone and in lists, at any depth; other values untouched', ({ assert }) => {
    const filter = {
      conditions: [
        { property: 'status', operator: '=', value: ':s' },
        {
          group: 'OR',
          conditions: [{ property: 'number', operator: 'in', value: [':a', 'A-1', ':s'] }],
        },
        { property: 'number', operator: '=', value: 'x :s' },
      ],
    }
    assert.deepEqual([...placeholdersOf(filter)].sort(), ['a', 's'])
    const values = new Map<string, unknown>([
      ['s', 'NEW'],
      ['a', ':s'],
    ])
    assert.deepEqual(substitute(filter, values), {
      conditions: [
        { property: 'status', operator: '=', value: 'NEW' },
        {
          group: 'OR',
          conditions: [{ property: 'number', operator: 'in', value: [':s', 'A-1', 'NEW'] }],
        },
        { property: 'number', operator: '=', value: 'x :s' },
      ],
    })
  })
})
