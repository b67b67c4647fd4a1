import { test } from '@japa/runner'
import { Model } from '#engine/metadata/model'
import { normalizeModel } from '#engine/metadata/normalize'
import { parseSort } from '#engine/query/sort'
import type { SortOptions } from '#engine/query/sort'
import { demoModel, errorOf, valueOf } from '#tests/unit/_query_fixtures'
import { entity, m2o, model, str } from '#tests/unit/_fixtures'

const ORDER = 'bookstore_Order'

async function keys(sort: unknown, entityName = ORDER, options: SortOptions = {}) {
  const parsed = valueOf(parseSort(await demoModel(), entityName, sort, options))
  return parsed.keys.map((k) => `${k.direction === 'desc' ? '-' : '+'}${k.path.text}`)
}

async function skipped(sort: unknown, entityName = ORDER, options: SortOptions = {}) {
  return valueOf(parseSort(await demoModel(), entityName, sort, options)).skipped
}

async function details(sort: unknown, entityName = ORDER, options: SortOptions = {}) {
  return errorOf(parseSort(await demoModel(), entityName, sort, options))
}

test.group('sort: syntax', () => {
  test('no sort', async ({ assert }) => {
    for (const sort of [undefined, null, '', ' ', ' , ,']) assert.deepEqual(await keys(sort), [])
  })

  test('items, signs and spaces', async ({ assert }) => {
    assert.deepEqual(await keys('number,-date,+customer.name'), [
      '+number',
      '-date',
      '+customer.name',
    ])
    assert.deepEqual(await keys('title, -isbn ,  +pageCount', 'bookstore_Book'), [
      '+title',
      '-isbn',
      '+pageCount',
    ])
  })

  test('keys carry resolved attributes; the first of duplicates wins', async ({ assert }) => {
    const parsed = valueOf(parseSort(await demoModel(), ORDER, 'customer.name,-number,number'))
    assert.deepEqual(
      parsed.keys[0].path.attributes.map((a) => `${a.entity}.${a.name}`),
      ['bookstore_Order.customer', 'bookstore_Customer.name']
    )
    assert.deepEqual(
      parsed.keys.map((k) => [k.path.text, k.direction]),
      [
        ['customer.name', 'asc'],
        ['number', 'desc'],
      ]
    )
    for (const key of parsed.keys) assert.isFalse(key.path.toMany)
  })

  test('system attributes and paths through compositions', async ({ assert }) => {
    assert.deepEqual(await keys('-createdDate,id,version,shippingAddress.city'), [
      '-createdDate',
      '+id',
      '+version',
      '+shippingAddress.city',
    ])
  })
})

test.group('sort: references (upstream addOrderBy)', () => {
  test('a to-one reference sorts by the target instance-name properties', async ({ assert }) => {
    assert.deepEqual(await keys('-customer'), ['-customer.name'])
    assert.deepEqual(await keys('book', 'bookstore_Review'), [
      '+book.title',
      '+book.publisher.name',
    ])
    assert.deepEqual(await keys('orderLine', 'bookstore_OrderLineDiscount'), [
      '+orderLine.book.title',
      '+orderLine.quantity',
    ])
    assert.deepEqual(await keys('country', 'bookstore_Address'), ['+country.name'])
    assert.deepEqual(await keys('shippingAddress', ORDER), [
      '+shippingAddress.street',
      '+shippingAddress.postalCode',
      '+shippingAddress.city',
      '+shippingAddress.country.name',
    ])
  })

  test('a target without an instance name sorts by its id', async ({ assert }) => {
    const m = new Model(
      1,
      normalizeModel(
        model([entity('t_A', [str('name'), m2o('b', 't_B')]), entity('t_B', [str('code')])])
      )
    )
    const parsed = valueOf(parseSort(m, 't_A', '-b'))
    assert.deepEqual(
      parsed.keys.map((k) => [k.path.text, k.direction]),
      [['b.id', 'desc']]
    )
    assert.equal(parsed.keys[0].path.attributes[1].kind, 'datatype')
  })

  test('instance names referring to each other terminate (sort by id at the cycle)', async ({
    assert,
  }) => {
    const m = new Model(
      1,
      normalizeModel(
        model([
          entity('t_A', [m2o('b', 't_B')], { instanceName: '{b}' }),
          entity('t_B', [m2o('a', 't_A'), str('code')], { instanceName: '{a} {code}' }),
        ])
      )
    )
    assert.deepEqual(
      valueOf(parseSort(m, 't_A', 'b')).keys.map((k) => k.path.text),
      ['b.a.id', 'b.code']
    )
    assert.deepEqual(
      valueOf(parseSort(m, 't_B', 'a')).keys.map((k) => k.path.text),
      ['a.b.id']
    )
  })

  test('expansion stays within the path limit', async ({ assert }) => {
    assert.deepEqual(await keys('book', 'bookstore_Review', { maxPathLength: 2 }), ['+book.title'])
  })
})

test.group('sort: skipped items (as upstream) and strict mode', () => {
  test('transient, to-many and through-datatype items are skipped', async ({ assert }) => {
    assert.deepEqual(await keys('number,total,lines,lines.quantity,number.x'), ['+number'])
    assert.deepEqual(await skipped('total,lines,lines.quantity,number.x'), [
      { item: 'total', reason: 'transient' },
      { item: 'lines', reason: 'toMany' },
      { item: 'lines.quantity', reason: 'toMany' },
      { item: 'number.x', reason: 'notRelation' },
    ])
  })

  test('an unknown property is a 400 naming it (stricter than upstream, TY7)', async ({
    assert,
  }) => {
    for (const item of ['foo', '-constructor', 'customer.nope'])
      assert.deepEqual(await details(`number,${item}`, ORDER), {
        status: 400,
        error: 'Invalid sort parameter',
        details: `Cannot sort ${ORDER} by ${item}: no such property`,
      })
  })

  test('strict mode turns every skip into a 400', async ({ assert }) => {
    for (const item of ['foo', 'total', 'lines', '-lines.quantity', 'number.x'])
      assert.deepEqual(await details(`number,${item}`, ORDER, { strict: true }), {
        status: 400,
        error: 'Invalid sort parameter',
        details: `Cannot sort ${ORDER} by ${item}: no such property`,
      })
  })

  test('an attribute the caller may not read answers as an unknown one (FQ16)', async ({
    assert,
  }) => {
    const readable = (a: { name: string }) => a.name !== 'amount' && a.name !== 'name'
    assert.deepEqual(await details('-amount', ORDER, { readable }), {
      status: 400,
      error: 'Invalid sort parameter',
      details: `Cannot sort ${ORDER} by -amount: no such property`,
    })
    assert.equal(
      (await details('-amount', ORDER, { readable })).details.replace('amount', 'x'),
      (await details('-x', ORDER, { readable })).details
    )
    // The hidden instance-name attribute (Customer.name) drops out: the customer's id remains.
    assert.deepEqual(await keys('customer', ORDER, { readable }), ['+customer.id'])
  })
})

test.group('sort: hostile input (FQ3)', () => {
  test('anything that is not a property path is a 400', async ({ assert }) => {
    for (const item of [
      'name; DROP TABLE x',
      'name ASC',
      '(SELECT 1)',
      '1',
      'random()',
      'name COLLATE x',
      '-',
      '+',
      '--number',
      '+-number',
      'number desc',
      'customer..name',
      '.number',
      'number.',
      '- number',
      '"number"',
      'number/*x*/',
      "metadata->>'a'",
    ])
      assert.deepEqual(await details(`date,${item}`), {
        status: 400,
        error: 'Invalid sort parameter',
        details: `Sort item is not a property path: ${item}`,
      })
  })

  test('size limits', async ({ assert }) => {
    const many = Array.from({ length: 21 }, () => 'number').join(',')
    assert.equal((await details(many)).details, 'The sort parameter has more than 20 items')
    assert.equal(
      (await details('a'.repeat(2001))).details,
      'The sort parameter is longer than 2000 characters'
    )
    assert.equal(
      (await details('customer.address.city', ORDER, { maxPathLength: 2 })).details,
      'Sort path is longer than 2 segments: customer.address.city'
    )
  })

  test('a sort that is not a string; an unknown entity', async ({ assert }) => {
    for (const sort of [5, ['number'], { number: 1 }])
      assert.equal((await details(sort)).details, 'The sort parameter must be a string')
    for (const name of ['nope', '__proto__', 'constructor'])
      assert.deepEqual(await details('number', name), {
        status: 404,
        error: 'Entity not found',
        details: `Entity ${name} not found`,
      })
  })
})
