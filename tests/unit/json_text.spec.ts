/**
 * JsonNumber and stringifyJson (app/engine/data/read/json_text.ts): decimals keep their text,
 * and no string value, key or nested JSON can turn into raw JSON, even one that knows the
 * process's marker.
 */
import { test } from '@japa/runner'
import { JsonNumber, jsonNumber, quote, stringifyJson } from '#engine/data/read/json_text'

/** The marker prefix of this process, as an attacker who somehow learnt it would use it. */
function leakedNonce(): string {
  let seen = ''
  stringifyJson({
    toJSON() {
      seen = String(new JsonNumber('1').toJSON())
      return null
    },
  })
  return seen.slice(0, -1)
}

test.group('json_text: decimals as raw JSON numbers', () => {
  test('JsonNumbers keep their text in objects, arrays and alone', ({ assert }) => {
    const value = { a: new JsonNumber('130.00'), b: [new JsonNumber('-0.50'), 1], c: 'x' }
    assert.equal(stringifyJson(value), '{"a":130.00,"b":[-0.50,1],"c":"x"}')
    assert.equal(stringifyJson(new JsonNumber('9.90')), '9.90')
    assert.equal(stringifyJson([new JsonNumber('1.0'), new JsonNumber('2.00')]), '[1.0,2.00]')
  })

  test('outside stringifyJson a JsonNumber is the plain number', ({ assert }) => {
    assert.equal(JSON.stringify({ a: new JsonNumber('130.00') }), '{"a":130}')
    assert.equal(Number(new JsonNumber('9.90')), 9.9)
    assert.deepEqual(jsonNumber('NaN'), Number.NaN)
    assert.instanceOf(jsonNumber('12.50'), JsonNumber)
  })

  test('without JsonNumbers the output is JSON.stringify', ({ assert }) => {
    const value = { s: 'a"b\\c', n: 1.5, o: { k: [true, null] } }
    assert.equal(stringifyJson(value), JSON.stringify(value))
    assert.equal(stringifyJson(undefined), 'null')
  })

  test('strings holding the marker never become raw JSON', ({ assert }) => {
    const nonce = leakedNonce()
    assert.match(nonce, /^\u007f[0-9a-f]{32}$/)
    const hostile = [
      `x"${nonce}1`,
      `"${nonce}1"`,
      `${nonce}1,"evil":true`,
      `${nonce}1}`,
      `\\"${nonce}2`,
      `${nonce}`,
      `${nonce}1e5`,
      `${nonce}--1`,
      `${nonce}1\\`,
      `\u007f${nonce}1`,
      `${nonce}01`,
    ]
    for (const s of hostile) {
      const value = { s, list: [s], nested: { [s]: s }, d: new JsonNumber('1.50') }
      const text = stringifyJson(value)
      const parsed = JSON.parse(text)
      assert.deepEqual(parsed, { s, list: [s], nested: { [s]: s }, d: 1.5 }, s)
      assert.include(text, '"d":1.50')
    }
    // A whole string value equal to the marker and a number is the one thing that reads as a
    // number, and only with the process's secret nonce: still valid JSON, never structure.
    assert.equal(stringifyJson({ s: `${nonce}7` }), '{"s":7}')
  })
})

test.group('quote', () => {
  test('writes every string exactly as JSON.stringify does', ({ assert }) => {
    const samples = [
      '',
      'Item 1 (Category 2)',
      '00000000-0001-4000-8000-000000000001',
      'say "hi"',
      'back\\slash',
      'tab\there',
      'nul\u0000 and \u001f',
      'del\u007f stays',
      'line\u2028separator',
      'emoji 😀',
      'lone \ud800 high',
      'lone \udfff low',
      'ünïcödé ß',
    ]
    for (const text of samples) assert.equal(quote(text), JSON.stringify(text), text)
    for (let code = 0; code < 0x10000; code++) {
      const text = `a${String.fromCharCode(code)}b`
      if (quote(text) !== JSON.stringify(text)) assert.fail(`U+${code.toString(16)}`)
    }
  })
})
