import { test } from '@japa/runner'
import { classifyTypeChange } from '#engine/schema/type_change'
import type { ColumnType } from '#engine/schema/physical'

const t = (kind: ColumnType['kind'], extra: Partial<ColumnType> = {}): ColumnType => ({
  kind,
  ...extra,
})

test.group('classifyTypeChange', () => {
  test('{name}')
    .with([
      {
        name: 'same string',
        from: t('string', { length: 20 }),
        to: t('string', { length: 20 }),
        expected: 'same',
      },
      {
        name: 'longer string widens',
        from: t('string', { length: 20 }),
        to: t('string', { length: 40 }),
        expected: 'widen',
      },
      {
        name: 'shorter string truncates',
        from: t('string', { length: 40 }),
        to: t('string', { length: 20 }),
        expected: 'truncate',
      },
      {
        name: 'string to text widens',
        from: t('string', { length: 40 }),
        to: t('text'),
        expected: 'widen',
      },
      {
        name: 'text to string is not a widening',
        from: t('text'),
        to: t('string', { length: 40 }),
        expected: 'convert',
      },
      { name: 'string to int converts', from: t('string'), to: t('int'), expected: 'convert' },
      { name: 'int to long widens', from: t('int'), to: t('long'), expected: 'widen' },
      { name: 'long to int converts', from: t('long'), to: t('int'), expected: 'convert' },
      {
        name: 'long to double converts (precision)',
        from: t('long'),
        to: t('double'),
        expected: 'convert',
      },
      {
        name: 'int to string(11) widens',
        from: t('int'),
        to: t('string', { length: 11 }),
        expected: 'widen',
      },
      {
        name: 'int to string(5) truncates',
        from: t('int'),
        to: t('string', { length: 5 }),
        expected: 'truncate',
      },
      {
        name: 'uuid to string(36) widens',
        from: t('uuid'),
        to: t('string', { length: 36 }),
        expected: 'widen',
      },
      {
        name: 'json to string converts',
        from: t('json'),
        to: t('string', { length: 255 }),
        expected: 'convert',
      },
      { name: 'text to json converts', from: t('text'), to: t('json'), expected: 'convert' },
      { name: 'date to dateTime widens', from: t('date'), to: t('dateTime'), expected: 'widen' },
      {
        name: 'dateTime to date converts',
        from: t('dateTime'),
        to: t('date'),
        expected: 'convert',
      },
      {
        name: 'decimal wider widens',
        from: t('decimal', { precision: 10, scale: 2 }),
        to: t('decimal', { precision: 12, scale: 3 }),
        expected: 'widen',
      },
      {
        name: 'decimal narrower converts',
        from: t('decimal', { precision: 10, scale: 2 }),
        to: t('decimal', { precision: 8, scale: 2 }),
        expected: 'convert',
      },
      {
        name: 'decimal less scale converts',
        from: t('decimal', { precision: 10, scale: 2 }),
        to: t('decimal', { precision: 12, scale: 1 }),
        expected: 'convert',
      },
      {
        name: 'int to decimal(19,2) widens',
        from: t('int'),
        to: t('decimal', { precision: 19, scale: 2 }),
        expected: 'widen',
      },
      {
        name: 'int to decimal(5,2) converts',
        from: t('int'),
        to: t('decimal', { precision: 5, scale: 2 }),
        expected: 'convert',
      },
      {
        name: 'long to decimal(19,2) converts',
        from: t('long'),
        to: t('decimal', { precision: 19, scale: 2 }),
        expected: 'convert',
      },
      { name: 'boolean to int converts', from: t('boolean'), to: t('int'), expected: 'convert' },
      { name: 'same kind without parameters', from: t('date'), to: t('date'), expected: 'same' },
    ])
    .run(({ assert }, { from, to, expected }) => {
      assert.equal(classifyTypeChange(from, to), expected)
    })
})
