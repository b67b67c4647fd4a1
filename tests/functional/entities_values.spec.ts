/**
 * Temporal values (reference 4.3, 3.1): the write pipeline and the filters share one parser and
 * one stored form per datatype, so every comparison operator, with and without fractions, finds
 * the rows it names on both databases; calendar-invalid values are refused (400, nothing
 * written); values stored by earlier versions are normalized; a date -> dateTime change keeps
 * the form. Decimals and strings: entities_values_numbers.spec.ts.
 */
import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { dialect } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { normalizeSqliteDateTimes, storedDateTimeColumns } from '#engine/schema/temporal_text'
import {
  S,
  TABLE,
  cannotDeserialize,
  loadValuesModel,
  rowCount,
  sampleEntity,
  seed,
  send,
  stored,
  titles,
} from '#tests/functional/entities_values_fixtures'

type Cases = [operator: string, value: unknown, expected: string[]][]

async function expectFilters(assert: any, tag: string, property: string, cases: Cases) {
  for (const [operator, value, expected] of cases) {
    const found = await titles(tag, property, operator, value)
    assert.deepEqual(found, expected, `${property} ${operator} ${JSON.stringify(value)}`)
  }
}

const sortedBy = async (tag: string, property: string) => {
  const conditions = [{ property: 'tag', operator: '=', value: tag }]
  const response = await send('POST', `${S}/search`, { filter: { conditions }, sort: property })
  return response.body.map((r: any) => r.title)
}

test.group('Entities API values: temporal', (group) => {
  group.setup(() => loadValuesModel())

  test('dateTime: one stored form; every operator with and without fractions', async ({
    assert,
  }) => {
    const ids = await seed('dt', {
      a: { stamp: '2021-02-06T12:03:38' },
      b: { stamp: '2021-02-06T12:03:38.049' },
      c: { stamp: '2021-02-06T12:03:38.500' },
      d: { stamp: '2021-02-06T12:03:39+05:00' },
      e: { stamp: '2021-02-06T12:03:38.000001' },
    })
    const texts = await Promise.all(['a', 'b', 'c', 'd', 'e'].map(async (t) => stored(ids[t])))
    assert.deepEqual(
      texts.map((r) => r.stamp),
      [
        '2021-02-06 12:03:38',
        '2021-02-06 12:03:38.049',
        '2021-02-06 12:03:38.5',
        '2021-02-06 12:03:39',
        '2021-02-06 12:03:38.000001',
      ]
    )
    const t = (rest: string) => `2021-02-06T12:03:${rest}`
    await expectFilters(assert, 'dt', 'stamp', [
      ['=', t('38.000'), ['a']],
      ['=', t('38.049'), ['b']],
      ['=', t('38.5'), ['c']],
      ['=', t('38.05'), []],
      ['=', t('38.000001'), ['e']],
      ['<>', t('38'), ['b', 'c', 'd', 'e']],
      ['>', t('38'), ['b', 'c', 'd', 'e']],
      ['>=', t('38.049'), ['b', 'c', 'd']],
      ['<', t('38.5'), ['a', 'b', 'e']],
      ['<=', t('38.50'), ['a', 'b', 'c', 'e']],
      ['<=', t('38'), ['a']],
      ['>=', t('39Z'), ['d']],
      ['in', [t('38'), t('38.500')], ['a', 'c']],
      ['notIn', [t('38'), t('38.500')], ['b', 'd', 'e']],
    ])
    assert.deepEqual(await sortedBy('dt', 'stamp'), ['a', 'e', 'b', 'c', 'd'])
    const read = await send('GET', `${S}/${ids.c}`)
    assert.equal(read.body.stamp, '2021-02-06T12:03:38.5')
    assert.equal((await send('GET', `${S}/${ids.a}`)).body.stamp, '2021-02-06T12:03:38')
  })

  test('dateTime: values stored by earlier versions compare once normalized', async ({
    assert,
  }) => {
    const old: Record<string, string> = {
      o1: '2021-02-06 12:03:38.000',
      o2: '2021-02-06 12:03:38.500',
      o3: '2021-02-06 12:03:38.120000',
      o4: '2021-02-06T12:03:40',
      o5: '2021-02-06',
    }
    const ids: Record<string, string> = {}
    for (const [title, stamp] of Object.entries(old)) {
      ids[title] = randomUUID()
      await db.table(TABLE).insert({ id: ids[title], title, tag: 'old', stamp })
    }
    const client = db.connection()
    const changed = await normalizeSqliteDateTimes(client, await storedDateTimeColumns(client))
    assert.equal(changed, dialect() === 'pg' ? 0 : 5)
    const texts = await Promise.all(Object.values(ids).map((id) => stored(id)))
    assert.deepEqual(
      texts.map((r) => r.stamp),
      [
        '2021-02-06 12:03:38',
        '2021-02-06 12:03:38.5',
        '2021-02-06 12:03:38.12',
        '2021-02-06 12:03:40',
        '2021-02-06 00:00:00',
      ]
    )
    await expectFilters(assert, 'old', 'stamp', [
      ['=', '2021-02-06T12:03:38', ['o1']],
      ['=', '2021-02-06T12:03:38.5', ['o2']],
      ['=', '2021-02-06T12:03:38.12', ['o3']],
      ['=', '2021-02-06T12:03:40', ['o4']],
      ['=', '2021-02-06T00:00', ['o5']],
      ['<=', '2021-02-06T12:03:38', ['o1', 'o5']],
      ['>', '2021-02-06T12:03:38.12', ['o2', 'o4']],
    ])
  })

  test('time: HH:mm:ss with the fraction kept; every operator', async ({ assert }) => {
    const ids = await seed('tm', {
      a: { atTime: '08:00' },
      b: { atTime: '08:00:00.5' },
      c: { atTime: '08:00:00.250' },
      d: { atTime: '08:00:01' },
    })
    assert.equal((await stored(ids.a)).at_time, '08:00:00')
    assert.equal((await stored(ids.b)).at_time, '08:00:00.5')
    assert.equal((await stored(ids.c)).at_time, '08:00:00.25')
    await expectFilters(assert, 'tm', 'atTime', [
      ['=', '08:00:00.000', ['a']],
      ['=', '08:00:00.50', ['b']],
      ['<>', '08:00', ['b', 'c', 'd']],
      ['>', '08:00:00.25', ['b', 'd']],
      ['>=', '08:00:00.25', ['b', 'c', 'd']],
      ['<', '08:00:00.5', ['a', 'c']],
      ['<=', '08:00:00.5', ['a', 'b', 'c']],
    ])
    assert.deepEqual(await sortedBy('tm', 'atTime'), ['a', 'c', 'b', 'd'])
    assert.equal((await send('GET', `${S}/${ids.b}`)).body.atTime, '08:00:00.5')
    assert.equal((await send('GET', `${S}/${ids.a}`)).body.atTime, '08:00:00')
  })

  test('date: every operator', async ({ assert }) => {
    const ids = await seed('d', {
      a: { onDay: '2024-02-28' },
      b: { onDay: '2024-02-29' },
      c: { onDay: '2024-03-01' },
    })
    assert.equal((await stored(ids.b)).on_day, '2024-02-29')
    await expectFilters(assert, 'd', 'onDay', [
      ['=', '2024-02-29', ['b']],
      ['<>', '2024-02-29', ['a', 'c']],
      ['>', '2024-02-28', ['b', 'c']],
      ['>=', '2024-02-29', ['b', 'c']],
      ['<', '2024-03-01', ['a', 'b']],
      ['<=', '2024-02-29', ['a', 'b']],
      ['in', ['2024-02-28', '2024-03-01'], ['a', 'c']],
      ['notIn', ['2024-02-29'], ['a', 'c']],
    ])
    assert.equal((await send('GET', `${S}/${ids.b}`)).body.onDay, '2024-02-29')
  })

  test('offsetDateTime: the UTC instant; every operator, any offset', async ({ assert }) => {
    const ids = await seed('o', {
      a: { instant: '2024-01-01T10:00:00+01:00' },
      b: { instant: '2024-01-01T09:00:00.5Z' },
      c: { instant: '2024-01-01T04:00:01-05:00' },
    })
    const text = (await stored(ids.b)).instant!
    if (dialect() === 'sqlite') assert.equal(text, '2024-01-01T09:00:00.500Z')
    else assert.equal(new Date(text).toISOString(), '2024-01-01T09:00:00.500Z')
    await expectFilters(assert, 'o', 'instant', [
      ['=', '2024-01-01T09:00:00Z', ['a']],
      ['=', '2024-01-01T11:00:00.500+02:00', ['b']],
      ['<>', '2024-01-01T09:00:00.000Z', ['b', 'c']],
      ['>', '2024-01-01T09:00:00Z', ['b', 'c']],
      ['>=', '2024-01-01T09:00:00.500Z', ['b', 'c']],
      ['<', '2024-01-01T09:00:01Z', ['a', 'b']],
      ['<=', '2024-01-01T10:00:01+01:00', ['a', 'b', 'c']],
      ['in', ['2024-01-01T09:00:00Z', '2024-01-01T09:00:01Z'], ['a', 'c']],
      ['notIn', ['2024-01-01T09:00:00Z', '2024-01-01T09:00:01Z'], ['b']],
    ])
    assert.equal((await send('GET', `${S}/${ids.a}`)).body.instant, '2024-01-01T09:00:00.000Z')
  })

  test('calendar-invalid or malformed values: 400, nothing written', async ({ assert }) => {
    const refused = [
      { onDay: '2024-02-30' },
      { onDay: '2023-02-29' },
      { onDay: 20240101 },
      { stamp: '2024-02-31T10:00:00' },
      { stamp: '2024-01-01 10:00:00' },
      { stamp: '2024-01-01T24:00:00' },
      { instant: '2024-02-31T10:00:00+01:00' },
      { instant: '2024-01-01T10:00:00' },
      { atTime: '24:00:00' },
      { atTime: '10:60' },
    ]
    const before = await rowCount()
    for (const body of refused) {
      const response = await send('POST', S, { title: 'bad', ...body })
      assert.equal(response.status, 400, JSON.stringify(body))
      assert.equal(response.body.error, cannotDeserialize, JSON.stringify(body))
    }
    assert.equal(await rowCount(), before)
    const { ok } = await seed('bad', {
      ok: { onDay: '2024-02-29', stamp: '2024-02-29T23:59:59.999999+14:00' },
    })
    assert.equal((await stored(ok)).stamp, '2024-02-29 23:59:59.999999')
    const update = await send('PUT', `${S}/${ok}`, { stamp: '2024-02-31T10:00:00' })
    assert.equal(update.status, 400)
    assert.equal(update.body.error, cannotDeserialize)
    assert.equal((await stored(ok)).stamp, '2024-02-29 23:59:59.999999')
  })
})

test.group('Entities API values: a date becomes a dateTime', (group) => {
  group.setup(() => loadValuesModel())

  test('the converted values take the stored dateTime form', async ({ assert }) => {
    const ids = await seed('conv', { a: { onDay: '2024-02-29' }, b: { onDay: '2024-03-01' } })
    await applyDoc({ entities: [sampleEntity({ onDay: 'dateTime' })] })
    assert.equal((await stored(ids.a)).on_day, '2024-02-29 00:00:00')
    await expectFilters(assert, 'conv', 'onDay', [
      ['=', '2024-02-29T00:00:00', ['a']],
      ['<', '2024-03-01T00:00:00', ['a']],
      ['>=', '2024-02-29T00:00:00.001', ['b']],
    ])
    assert.equal((await send('GET', `${S}/${ids.a}`)).body.onDay, '2024-02-29T00:00:00')
  })
})
