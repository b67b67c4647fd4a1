import { test } from '@japa/runner'
import {
  MAX_SQL_IDENTIFIER,
  columnNameFor,
  constraintName,
  isReservedTableName,
  snakeCase,
  tableNameFor,
} from '#engine/metadata/naming'

test.group('naming', () => {
  test('tableNameFor maps entity names to snake_case tables', ({ assert }) => {
    assert.equal(tableNameFor('bookstore_OrderLine'), 'bookstore_order_line')
    assert.equal(tableNameFor('ref$Colour'), 'ref_colour')
    assert.equal(tableNameFor('Customer'), 'customer')
    assert.equal(tableNameFor('bookstore_OrderLineDiscount'), 'bookstore_order_line_discount')
  })

  test('snakeCase {input} -> {expected}')
    .with([
      { input: 'firstName', expected: 'first_name' },
      { input: 'ISBNCode', expected: 'isbn_code' },
      { input: 'line2', expected: 'line2' },
      { input: 'line2Code', expected: 'line2_code' },
      { input: 'parseHTMLString', expected: 'parse_html_string' },
      { input: 'already_snake', expected: 'already_snake' },
      { input: 'URL', expected: 'url' },
      { input: 'a', expected: 'a' },
    ])
    .run(({ assert }, { input, expected }) => {
      assert.equal(snakeCase(input), expected)
      assert.equal(columnNameFor(input), expected)
    })

  test('constraintName keeps short names and truncates long ones deterministically', ({
    assert,
  }) => {
    assert.equal(
      constraintName('fk', 'bookstore_order', ['customer_id']),
      'fk_bookstore_order_customer_id'
    )
    const table = 'bookstore_very_long_table_name_that_goes_on_and_on'
    const long = constraintName('uq', table, ['first_column_name', 'second_column_name'])
    assert.isAtMost(long.length, MAX_SQL_IDENTIFIER)
    assert.match(long, /^uq_bookstore_very_long/)
    assert.match(long, /_[0-9a-f]{10}$/)
    assert.equal(
      constraintName('uq', table, ['first_column_name', 'second_column_name']),
      long,
      'deterministic'
    )
    const other = constraintName('uq', table, ['first_column_name', 'second_column_namf'])
    assert.notEqual(other, long, 'names that share the head still differ')
    assert.equal(other.length, long.length)
  })

  test('reserved table prefixes', ({ assert }) => {
    assert.isTrue(isReservedTableName('mg_entities'))
    assert.isTrue(isReservedTableName('pg_foo'))
    assert.isFalse(isReservedTableName('bookstore_order'))
  })
})
