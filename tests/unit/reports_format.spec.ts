/**
 * Value formats (app/reports/format.ts): Java DecimalFormat and SimpleDateFormat patterns,
 * `Yes|No` booleans, the `Band.field` format winning over `field`, and the typed `native` value.
 */
import { test } from '@japa/runner'
import { datePattern, decimalFormat, valueFormatter } from '../../app/reports/format.js'

const types = {
  Orders: {
    total: 'decimal',
    qty: 'int',
    paid: 'boolean',
    placed: 'date',
    at: 'dateTime',
    sent: 'offsetDateTime',
    slot: 'time',
    number: 'string',
    note: 'text',
  },
  Root: { since: 'date' },
}

test.group('reports format: numbers (DecimalFormat)', () => {
  test('grouping, fixed and optional fractions, percent, negatives', ({ assert }) => {
    assert.equal(decimalFormat('#,##0.00')(1234567.891), '1,234,567.89')
    assert.equal(decimalFormat('#,##0.00')(-5), '-5.00')
    assert.equal(decimalFormat('0.###')(3.14159), '3.142')
    assert.equal(decimalFormat('0.###')(2), '2')
    assert.equal(decimalFormat('#%')(0.256), '26%')
    assert.equal(decimalFormat('000')(7), '007')
    assert.equal(decimalFormat('#.##')(0.5), '.5')
    assert.equal(decimalFormat("'$'#,##0.00;('$'#,##0.00)")(-1234.5), '($1,234.50)')
    assert.equal(decimalFormat('#,##0.00 EUR')(9.9), '9.90 EUR')
    assert.equal(decimalFormat('0.00E0')(12345), '1.23E4')
    assert.equal(decimalFormat("#,##0 'o''clock'")(1234), "1,234 o'clock")
  })

  test('HALF_EVEN rounding as Java, exact decimal text, locale separators', ({ assert }) => {
    assert.equal(decimalFormat('0')(2.5), '2')
    assert.equal(decimalFormat('0')(3.5), '4')
    assert.equal(decimalFormat('0.00')('12345678901234567.125'), '12345678901234567.12')
    assert.equal(decimalFormat('#,##0.00', 'de')(1234.5), '1.234,50')
  })
})

test.group('reports format: dates (SimpleDateFormat via Luxon)', () => {
  test('pattern translation keeps literals', ({ assert }) => {
    assert.deepEqual(datePattern('dd.MM.yyyy'), [
      { token: 'dd' },
      '.',
      { token: 'MM' },
      '.',
      { token: 'yyyy' },
    ])
    const value = valueFormatter(
      [
        { name: 'at', format: "yyyy-MM-dd'T'HH:mm" },
        { name: 'slot', format: "h 'o''clock' a, 'at' mm''" },
      ],
      types
    )
    assert.equal(value('Orders', 'at', '2024-03-05 17:04:00').text, '2024-03-05T17:04')
    assert.equal(value('Orders', 'slot', '17:04:00').text, "5 o'clock PM, at 04'")
  })

  test('date, dateTime, offsetDateTime and time values', ({ assert }) => {
    const value = valueFormatter(
      [
        { name: 'placed', format: 'dd.MM.yyyy' },
        { name: 'at', format: 'yyyy-MM-dd HH:mm' },
        { name: 'sent', format: 'dd MMM yyyy HH:mm Z' },
        { name: 'slot', format: 'HH:mm' },
        { name: 'Root.since', format: 'EEEE, d MMMM yy' },
      ],
      types
    )
    assert.equal(value('Orders', 'placed', '2024-03-05').text, '05.03.2024')
    assert.equal(value('Orders', 'at', '2024-03-05 17:04:09.5').text, '2024-03-05 17:04')
    assert.equal(value('Orders', 'at', '2024-03-05T17:04:09').text, '2024-03-05 17:04')
    assert.equal(
      value('Orders', 'sent', '2024-03-05T17:04:09.000Z').text,
      '05 Mar 2024 17:04 +0000'
    )
    assert.equal(value('Orders', 'slot', '08:30:00').text, '08:30')
    assert.equal(value('Root', 'since', '2024-03-05').text, 'Tuesday, 5 March 24')
    assert.equal(
      valueFormatter([{ name: 'placed', format: 'd MMMM yyyy' }], types, 'de')(
        'Orders',
        'placed',
        '2024-03-05'
      ).text,
      '5 März 2024'
    )
  })

  test('a date is a local Date without a shift; dateTime local; offsetDateTime the instant', ({
    assert,
  }) => {
    const value = valueFormatter([], types)
    const placed = value('Orders', 'placed', '2024-03-05').native as Date
    assert.instanceOf(placed, Date)
    assert.deepEqual(
      [placed.getFullYear(), placed.getMonth(), placed.getDate(), placed.getHours()],
      [2024, 2, 5, 0]
    )
    const at = value('Orders', 'at', '2024-03-05 17:04:09').native as Date
    assert.deepEqual([at.getDate(), at.getHours(), at.getMinutes()], [5, 17, 4])
    const sent = value('Orders', 'sent', '2024-03-05T17:04:09.000Z').native as Date
    assert.equal(sent.toISOString(), '2024-03-05T17:04:09.000Z')
    // Without a format the text is the value as the API wrote it.
    assert.equal(value('Orders', 'placed', '2024-03-05').text, '2024-03-05')
    assert.equal(value('Orders', 'slot', '08:30:00').native, '08:30:00')
  })
})

test.group('reports format: lookup, booleans, natives, empties', () => {
  test('the Band.field format wins over the field one; the field one applies to any band', ({
    assert,
  }) => {
    const value = valueFormatter(
      [
        { name: 'total', format: '0.0' },
        { name: 'Orders.total', format: '#,##0.00' },
      ],
      types
    )
    assert.equal(value('Orders', 'total', 1234.5).text, '1,234.50')
    assert.equal(value('Items', 'total', 1234.5).text, '1234.5')
    assert.equal(value('Items', 'total', 1234.5).native, 1234.5)
  })

  test('booleans Yes|No; numbers typed; strings and text kept', ({ assert }) => {
    const value = valueFormatter([{ name: 'paid', format: 'Yes|No' }], types)
    assert.deepEqual(value('Orders', 'paid', true), { text: 'Yes', native: true })
    assert.deepEqual(value('Orders', 'paid', false), { text: 'No', native: false })
    assert.deepEqual(value('Orders', 'qty', 3), { text: '3', native: 3 })
    assert.deepEqual(value('Orders', 'total', '12.50'), { text: '12.50', native: 12.5 })
    assert.deepEqual(value('Orders', 'number', 'A-1'), { text: 'A-1', native: 'A-1' })
    assert.deepEqual(value('Orders', 'note', 'line 1\nline 2'), {
      text: 'line 1\nline 2',
      native: 'line 1\nline 2',
    })
    // An id column typed string stays a string even when it looks numeric.
    assert.deepEqual(value('Orders', 'number', '0042'), { text: '0042', native: '0042' })
  })

  test('null and undefined print empty', ({ assert }) => {
    const value = valueFormatter([{ name: 'total', format: '#,##0.00' }], types)
    assert.deepEqual(value('Orders', 'total', null), { text: '', native: null })
    assert.deepEqual(value('Orders', 'missing', undefined), { text: '', native: null })
  })

  test('untyped fields: numbers and ISO dates still take their format; %s for strings', ({
    assert,
  }) => {
    const value = valueFormatter(
      [
        { name: 'n', format: '#,##0' },
        { name: 'd', format: 'dd/MM/yyyy' },
        { name: 's', format: 'No. %s' },
      ],
      {}
    )
    assert.equal(value('X', 'n', 12345.6).text, '12,346')
    assert.equal(value('X', 'd', '2024-12-31').text, '31/12/2024')
    assert.equal(value('X', 's', 'A7').text, 'No. A7')
    // Prototype names are not types or formats.
    assert.deepEqual(value('constructor', 'toString', 'x'), { text: 'x', native: 'x' })
  })
})
