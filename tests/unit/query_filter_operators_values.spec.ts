import { test } from '@japa/runner'
import { parseFilter } from '#engine/query/filter_parser'
import { demoModel, errorOf } from '#tests/unit/_query_fixtures'
import { B, UUID, UUID2, cond, fails } from '#tests/unit/_filter_operator_fixtures'

test.group('filter operators: values per datatype', () => {
  const accept = async (entity: string, property: string, pairs: [unknown, unknown][]) => {
    for (const [input, expected] of pairs) {
      const c = await cond(entity, property, '=', input)
      if (c.family !== 'comparison') throw new Error('comparison expected')
      if (c.value !== expected)
        throw new Error(
          `${property}: ${JSON.stringify(input)} gave ${JSON.stringify(c.value)}, expected ${JSON.stringify(expected)}`
        )
    }
  }
  const refuse = async (
    entity: string,
    property: string,
    inputs: unknown[],
    prefix = 'Cannot parse property value: '
  ) => {
    for (const input of inputs) {
      const details = await fails(entity, property, '=', input)
      if (!details.startsWith(prefix))
        throw new Error(`${property}: ${JSON.stringify(input)} gave "${details}"`)
    }
  }

  test('string and text: the string form of scalars', async () => {
    await accept(B, 'title', [
      ['Dune', 'Dune'],
      [5, '5'],
      [true, 'true'],
      ['', ''],
    ])
    await accept(B, 'blurb', [['long text', 'long text']])
    await refuse(B, 'title', [{ a: 1 }, ['a']])
  })

  test('int: integers in range, as numbers or text', async () => {
    await accept(B, 'pageCount', [
      [5, 5],
      ['5', 5],
      ['-7', -7],
      ['+3', 3],
      ['-0', 0],
      [2 ** 31 - 1, 2 ** 31 - 1],
    ])
    await refuse(B, 'pageCount', [5.5, '5.5', 'abc', '', 2 ** 31, '-2147483649', true, '1e3', ' 5'])
  })

  test('long: exact numbers, text beyond 2^53', async () => {
    const L = 'bookstore_Customer'
    await accept(L, 'loyaltyPoints', [
      [9007199254740991, 9007199254740991],
      ['9223372036854775807', '9223372036854775807'],
      ['-9223372036854775808', '-9223372036854775808'],
      ['42', 42],
    ])
    await refuse(L, 'loyaltyPoints', ['9223372036854775808', 2 ** 53, 1.5, 'x'])
  })

  test('double: finite numbers', async ({ assert }) => {
    await accept(B, 'weightKg', [
      [1.5, 1.5],
      ['2.5e3', 2500],
      ['-.5', -0.5],
      [3, 3],
    ])
    await refuse(B, 'weightKg', ['NaN', 'Infinity', 'abc', '1,5', true])
    const text = '{conditions: [{property: "weightKg", operator: "=", value: NaN}]}'
    assert.equal(
      errorOf(parseFilter(await demoModel(), B, text)).details,
      'Cannot parse property value: NaN'
    )
  })

  test('decimal: exact plain text', async () => {
    await accept(B, 'price', [
      [49.99, '49.99'],
      ['130.00', '130'],
      ['-0.50', '-0.5'],
      ['-0', '0'],
      ['007.10', '7.1'],
      [1e21, '1000000000000000000000'],
      [1e-7, '0.0000001'],
      ['1.5e2', '150'],
      ['12345678901234567890.123456789', '12345678901234567890.123456789'],
      ['.5', '0.5'],
      ['5.', '5'],
    ])
    await refuse(B, 'price', ['abc', '.', '', '1e5000', '1,5', true, { v: 1 }])
  })

  test('boolean: JSON booleans or "true"/"false"', async () => {
    await accept(B, 'inPrint', [
      [true, true],
      [false, false],
      ['TRUE', true],
      ['false', false],
    ])
    await refuse(B, 'inPrint', [1, 0, 'yes', '', 'on'])
  })

  test('date: yyyy-MM-dd, real calendar dates', async () => {
    await accept(B, 'publicationDate', [
      ['2012-01-13', '2012-01-13'],
      ['2024-02-29', '2024-02-29'],
      ['2000-02-29', '2000-02-29'],
    ])
    await refuse(B, 'publicationDate', [
      '2012-02-30',
      '2023-02-29',
      '1900-02-29',
      '2012-1-13',
      '2012-13-01',
      '2012-01-13T00:00:00',
      20120113,
      '',
    ])
  })

  test('time: HH:mm[:ss[.f]] -> HH:mm:ss[.f]', async () => {
    const W = 'bookstore_Warehouse'
    await accept(W, 'opensAt', [
      ['15:15:15', '15:15:15'],
      ['08:30', '08:30:00'],
      ['15:15:15.120', '15:15:15.12'],
      ['00:00:00.000', '00:00:00'],
      ['00:00:00.0000001', '00:00:00'],
    ])
    await refuse(W, 'opensAt', ['24:00:00', '15:60', '8:30', '15:15:15Z', 815, ''])
  })

  test('dateTime: local, T required, an offset is ignored; bound as stored (space)', async () => {
    const R = 'bookstore_Review'
    await accept(R, 'reviewedAt', [
      ['2012-01-13T10:00:00', '2012-01-13 10:00:00'],
      ['2012-01-13T10:00', '2012-01-13 10:00:00'],
      ['2021-02-06T12:03:38.049', '2021-02-06 12:03:38.049'],
      ['2021-02-06T12:03:38.500', '2021-02-06 12:03:38.5'],
      ['2021-02-06T12:03:38.000', '2021-02-06 12:03:38'],
      ['2021-02-06T12:03:38.123456789', '2021-02-06 12:03:38.123456'],
      ['2012-01-13T10:00:00+04:00', '2012-01-13 10:00:00'],
      ['2012-01-13T10:00:00Z', '2012-01-13 10:00:00'],
    ])
    await refuse(R, 'reviewedAt', [
      '2012-01-13 10:00:00',
      '2012-01-13',
      '2012-02-30T10:00:00',
      '2012-01-13T25:00:00',
    ])
  })

  test('offsetDateTime: offset required, the UTC instant', async () => {
    const O = 'bookstore_Order'
    await accept(O, 'placedAt', [
      ['2021-02-24T15:15:15.053+04:00', '2021-02-24T11:15:15.053Z'],
      ['2021-02-24T15:15:15Z', '2021-02-24T15:15:15.000Z'],
      ['2021-01-01T01:00:00+02:00', '2020-12-31T23:00:00.000Z'],
      ['2021-01-01T23:30:00-01:30', '2021-01-02T01:00:00.000Z'],
      ['0099-06-01T00:00:00Z', '0099-06-01T00:00:00.000Z'],
    ])
    await refuse(O, 'placedAt', [
      '2021-02-24T15:15:15',
      '2021-02-24T15:15:15+19:00',
      '2021-02-24T15:15:15+0400',
      '2021-02-24',
      '2021-02-31T10:00:00+01:00',
      '9999-12-31T23:00:00-05:00',
    ])
  })

  test('uuid: canonical form, lower case', async () => {
    await accept('bookstore_Customer', 'externalRef', [[UUID.toUpperCase(), UUID]])
    await refuse('bookstore_Customer', 'externalRef', [
      '1-1-1-1-1',
      `${UUID}0`,
      UUID.replaceAll('-', ''),
      5,
    ])
  })

  test('enum: by constant name, bound as the stored id', async ({ assert }) => {
    await accept(B, 'genre', [
      ['FICTION', 'fiction'],
      ['NON_FICTION', 'non-fiction'],
    ])
    await accept('bookstore_Order', 'status', [['PAID', 'P']])
    await refuse(
      B,
      'genre',
      ['fiction', 'Fiction', 5, '', ['FICTION']],
      'Cannot parse enum value: '
    )
    assert.equal(await fails(B, 'genre', '=', 'fiction'), 'Cannot parse enum value: fiction')
    const list = await cond('bookstore_Order', 'status', 'in', ['NEW', 'PAID'])
    assert.deepInclude(list, { values: ['N', 'P'] })
    assert.equal(list.valueType.enum, 'com.example.bookstore.OrderStatus')
  })

  test('file: the fileRef string', async () => {
    await accept(B, 'cover', [
      ['fs://2021/03/12/x.jpg?name=cat.jpg', 'fs://2021/03/12/x.jpg?name=cat.jpg'],
    ])
  })

  test('references: raw id or entity object, converted to the target id type', async ({
    assert,
  }) => {
    await accept(B, 'publisher', [
      [UUID, UUID],
      [{ id: UUID }, UUID],
      [{ _entityName: 'bookstore_Publisher', id: UUID, name: 'ignored' }, UUID],
    ])
    await refuse(B, 'publisher', [
      { _entityName: 'bookstore_Book', id: UUID },
      {},
      { id: null },
      { id: { $gt: 1 } },
      'not-a-uuid',
    ])
    await accept('bookstore_StockItem', 'warehouse', [
      [5, 5],
      ['5', 5],
      [{ id: '6' }, 6],
    ])
    await refuse('bookstore_StockItem', 'warehouse', [1.5, 'w1'])
    await accept('bookstore_Publisher', 'country', [
      ['DE', 'DE'],
      [{ id: 'FR' }, 'FR'],
    ])
    const mixed = await cond(B, 'publisher', 'in', [{ id: UUID }, UUID2, UUID])
    assert.deepInclude(mixed, { values: [UUID, UUID2] })
  })
})
