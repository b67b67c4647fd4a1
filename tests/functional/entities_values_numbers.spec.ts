/**
 * Decimal and string values (reference 4.3, 5.2): decimals written as JSON numbers with the
 * attribute's scale (`9.90`) in every response; rounded half away from zero to the scale on the
 * way in, so both databases store the same value; too many integer digits is a Digits
 * violation; numbers and booleans sent for strings are stored in their string form, other
 * types keep refusing them.
 */
import { test } from '@japa/runner'
import { dialect } from '#tests/helpers/database'
import {
  S,
  cannotDeserialize,
  loadValuesModel,
  rowCount,
  seed,
  send,
  stored,
  titles,
} from '#tests/functional/entities_values_fixtures'

/** `"name":value` exactly as the response text has it. */
const field = (text: string, name: string) => new RegExp(`"${name}":([^,}]*)`).exec(text)?.[1]

test.group('Entities API values: decimals', (group) => {
  group.setup(() => loadValuesModel())

  test('written with the attribute scale: load, list, search, create and update', async ({
    assert,
  }) => {
    const created = await send('POST', `${S}?responseFetchPlan=_local`, {
      title: 'a',
      tag: 'dec',
      price: 9.9,
      rate: '0.5',
      whole: 7,
    })
    assert.equal(created.status, 201, created.text)
    assert.deepEqual(
      ['price', 'rate', 'whole'].map((n) => field(created.text, n)),
      ['9.90', '0.5000', '7']
    )
    const id = created.body.id
    const load = await send('GET', `${S}/${id}`)
    assert.equal(field(load.text, 'price'), '9.90')
    assert.equal(field(load.text, 'rate'), '0.5000')
    const list = await send('GET', `${S}?fetchPlan=_local`)
    assert.equal(field(list.text, 'price'), '9.90')
    assert.equal(field(list.text, 'title'), '"a"')
    assert.deepEqual(await titles('dec', 'price', '=', 9.9), ['a'])
    const updated = await send('PUT', `${S}/${id}?responseFetchPlan=_local`, { price: 5 })
    assert.equal(updated.status, 200, updated.text)
    assert.equal(field(updated.text, 'price'), '5.00')
    assert.equal(updated.headers['content-type'], 'application/json; charset=utf-8')
    const bulk = await send('PUT', `${S}?responseFetchPlan=_local`, [{ id, price: '0.1' }])
    assert.equal(field(bulk.text, 'price'), '0.10')
    const row = await stored(id)
    assert.equal(Number(row.price), 0.1)
    if (dialect() === 'pg') assert.equal(row.price, '0.10')
  })

  test('rounded half away from zero to the scale, the same on both databases', async ({
    assert,
  }) => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['r1', { price: '9.905' }, 'price', '9.91'],
      ['r2', { price: -0.005 }, 'price', '-0.01'],
      ['r3', { price: 0.004 }, 'price', '0.00'],
      ['r4', { price: '1e2' }, 'price', '100.00'],
      ['r5', { price: 1234.567 }, 'price', '1234.57'],
      ['r6', { rate: '1.23455' }, 'rate', '1.2346'],
      ['r7', { rate: 12345678.12344 }, 'rate', '12345678.1234'],
      ['r8', { whole: 2.5 }, 'whole', '3'],
      ['r9', { whole: '-2.5' }, 'whole', '-3'],
      ['r10', { price: '9999.994' }, 'price', '9999.99'],
    ]
    for (const [title, body, name, expected] of cases) {
      const ids = await seed('round', { [title]: body })
      const load = await send('GET', `${S}/${ids[title]}`)
      assert.equal(field(load.text, name), expected, title)
      const row = await stored(ids[title])
      if (name !== 'whole') assert.equal(Number(row[name]), Number(expected), title)
      if (dialect() === 'pg' && name !== 'whole') assert.equal(row[name], expected, title)
    }
  })

  test('too many integer digits: 400 Digits violation, nothing written', async ({ assert }) => {
    const before = await rowCount()
    for (const [value, integer, fraction, name] of [
      [12345, 4, 2, 'price'],
      ['9999.995', 4, 2, 'price'],
      ['1e4', 4, 2, 'price'],
      [123456, 5, 0, 'whole'],
    ] as const) {
      const response = await send('POST', S, { title: 'big', [name]: value })
      assert.equal(response.status, 400, response.text)
      assert.deepEqual(response.body, [
        {
          message: `numeric value out of bounds (<${integer} digits>.<${fraction} digits> expected)`,
          messageTemplate: '{jakarta.validation.constraints.Digits.message}',
          path: name,
          invalidValue: value,
        },
      ])
    }
    const bulk = await send('POST', S, [{ title: 'ok' }, { title: 'big', price: -10000 }])
    assert.equal(bulk.status, 400)
    assert.equal(bulk.body[0].path, 'entities[1].price')
    assert.equal(await rowCount(), before)
  })

  test('not a number: 400 Cannot deserialize', async ({ assert }) => {
    const before = await rowCount()
    for (const price of ['abc', '1,5', ' 1.5', true, [1], { v: 1 }, '1e5000']) {
      const response = await send('POST', S, { title: 'nan', price })
      assert.equal(response.status, 400, JSON.stringify(price))
      assert.equal(response.body.error, cannotDeserialize, JSON.stringify(price))
    }
    assert.equal(await rowCount(), before)
  })
})

test.group('Entities API values: strings', (group) => {
  group.setup(() => loadValuesModel())

  test('numbers and booleans are stored in their string form', async ({ assert }) => {
    const ids: Record<string, string> = {}
    for (const title of [123, true]) {
      const response = await send('POST', S, { title, tag: 'str' })
      assert.equal(response.status, 201, response.text)
      ids[String(title)] = response.body.id
    }
    const created = await send('POST', S, { title: 45.5, tag: 'str', code: 2024, note: false })
    assert.equal(created.status, 201, created.text)
    const row = await stored(created.body.id)
    assert.deepEqual([row.title, row.code], ['45.5', '2024'])
    const load = await send('GET', `${S}/${created.body.id}`)
    assert.deepEqual([load.body.title, load.body.code, load.body.note], ['45.5', '2024', 'false'])
    assert.equal((await stored(ids['123'])).title, '123')
    assert.equal((await stored(ids.true)).title, 'true')
    assert.deepEqual(await titles('str', 'title', '=', 123), ['123'])
  })

  test('checked in their string form: size, pattern', async ({ assert }) => {
    const before = await rowCount()
    const long = await send('POST', S, { title: 12345678901 })
    assert.equal(long.status, 400)
    assert.deepInclude(long.body[0], { path: 'title', invalidValue: '12345678901' })
    assert.equal(long.body[0].messageTemplate, '{jakarta.validation.constraints.Size.message}')
    const pattern = await send('POST', S, { title: 'p', code: 12.5 })
    assert.equal(pattern.status, 400)
    assert.deepInclude(pattern.body[0], { path: 'code', invalidValue: '12.5' })
    assert.equal(await rowCount(), before)
  })

  test('objects and arrays for strings, and numbers for other types: 400', async ({ assert }) => {
    const before = await rowCount()
    for (const body of [
      { title: { a: 1 } },
      { title: ['x'] },
      { ref: 123 },
      { onDay: 20240101 },
      { flag: 1 },
      { qty: true },
    ]) {
      const response = await send('POST', S, body)
      assert.equal(response.status, 400, JSON.stringify(body))
      assert.equal(response.body.error, cannotDeserialize, JSON.stringify(body))
    }
    assert.equal(await rowCount(), before)
  })

  test('strings that look like numbers or markers stay strings', async ({ assert }) => {
    const tricky = ['9.90', '"1"', '\\"', '0"}', 'x\ty']
    for (const note of tricky) {
      const created = await send('POST', `${S}?responseFetchPlan=_local`, { title: 't', note })
      assert.equal(created.status, 201, created.text)
      assert.strictEqual(created.body.note, note)
      const load = await send('GET', `${S}/${created.body.id}`)
      assert.strictEqual(JSON.parse(load.text).note, note)
    }
  })
})
