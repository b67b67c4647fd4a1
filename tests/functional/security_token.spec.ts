/**
 * `__securityToken` (issue 5 item 5, reference 4.8, catalogue AZ17-AZ19) with
 * `svc.core.entitySerializationTokenRequired` on.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { decodeSecurityToken } from '#security/security_token'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'
import {
  CUSTOMER,
  E,
  ORDER,
  ROWS,
  call,
  dataState,
  seed,
  setupSecurityFixture,
} from '#tests/helpers/security'

const C = `${E}/${CUSTOMER}`
const O = `${E}/${ORDER}`
const PLAN = encodeURIComponent(
  JSON.stringify({
    properties: [
      'number',
      'version',
      { name: 'lines', fetchPlan: { properties: ['product', 'qty'] } },
    ],
  })
)
const setTokens = (on: boolean | null) =>
  importDoc({ settings: { 'svc.core.entitySerializationTokenRequired': on } })

test.group('security: __securityToken', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
  })
  group.each.setup(async () => {
    await seed()
    await setTokens(true)
    return async () => void (await setTokens(null))
  })

  test('off by default: no token in any object', async ({ assert }) => {
    await setTokens(null)
    const response = await call('alice', 'GET', `${O}/${ROWS.orderEu}?fetchPlan=${PLAN}`)
    assert.notInclude(JSON.stringify(response.body), '__securityToken')
  })

  test('every object carries an encrypted token naming the hidden members', async ({ assert }) => {
    const response = await call('alice', 'GET', `${O}/${ROWS.orderEu}?fetchPlan=${PLAN}`)
    assert.equal(response.status, 200)
    const token = response.body.__securityToken
    assert.isString(token)
    assert.notInclude(token, ROWS.lineBig, 'encrypted, not just encoded')
    assert.notInclude(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString(), 'lineBig')
    assert.deepEqual(decodeSecurityToken(token), {
      entity: ORDER,
      id: ROWS.orderEu,
      hidden: { lines: [ROWS.lineBig] },
    })
    for (const line of response.body.lines) assert.isString(line.__securityToken)
    const list = await call('alice', 'GET', C)
    for (const c of list.body) assert.deepEqual(decodeSecurityToken(c.__securityToken)?.hidden, {})
  })

  test('AZ17 a token with one byte flipped: 400, nothing changed', async ({ assert }) => {
    const shown = await call('alice', 'GET', `${O}/${ROWS.orderEu}?fetchPlan=${PLAN}`)
    const token: string = shown.body.__securityToken
    const i = Math.floor(token.length / 2)
    const flipped = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1)
    const before = await dataState()
    const response = await call('alice', 'PUT', `${O}/${ROWS.orderEu}`, {
      number: 'X',
      __securityToken: flipped,
    })
    assert.equal(response.status, 400)
    assert.equal(response.body.error, 'Cannot deserialize an entity from JSON')
    assert.equal(await dataState(), before)
  })

  test('AZ18 a token of another row: 400, nothing changed', async ({ assert }) => {
    const other = await call('alice', 'GET', `${C}/${ROWS.eu2}`)
    const before = await dataState()
    const response = await call('alice', 'PUT', `${C}/${ROWS.eu1}`, {
      name: 'X',
      __securityToken: other.body.__securityToken,
    })
    assert.equal(response.status, 400)
    assert.equal(await dataState(), before)
    const order = await call('alice', 'GET', `${O}/${ROWS.orderEu}`)
    const wrongEntity = await call('alice', 'PUT', `${C}/${ROWS.eu1}`, {
      name: 'X',
      __securityToken: order.body.__securityToken,
    })
    assert.equal(wrongEntity.status, 400)
    assert.equal(await dataState(), before)
  })

  test('AZ19 hidden members survive; without the token the update is refused', async ({
    assert,
  }) => {
    const before = await dataState()
    const lines = [{ id: ROWS.lineSmall, product: 'pencil', qty: 3 }]
    const missing = await call('alice', 'PUT', `${O}/${ROWS.orderEu}`, { version: 1, lines })
    assert.equal(missing.status, 403)
    assert.equal(missing.body.error, 'Forbidden')
    assert.match(missing.body.details, /^Could not read export\/import token from entity/)
    assert.equal(await dataState(), before)
    const shown = await call('alice', 'GET', `${O}/${ROWS.orderEu}?fetchPlan=${PLAN}`)
    const response = await call('alice', 'PUT', `${O}/${ROWS.orderEu}`, {
      version: 1,
      lines,
      __securityToken: shown.body.__securityToken,
    })
    assert.equal(response.status, 200)
    const stored = await db.from('sec_order_line').where('order_id', ROWS.orderEu).orderBy('id')
    assert.deepEqual(
      stored.map((l) => [l.id, l.product]),
      [
        [ROWS.lineSmall, 'pencil'],
        [ROWS.lineBig, 'paper'],
      ]
    )
    // Attributes that are not relations need no token.
    const plain = await call('alice', 'PUT', `${O}/${ROWS.orderEu}`, { number: 'O-EU-2' })
    assert.equal(plain.status, 200)
  })
})
