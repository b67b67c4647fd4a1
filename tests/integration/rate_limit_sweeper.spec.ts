/**
 * The sweep of expired rate-limit counters (app/operations/rate_limit_sweeper.ts): it deletes
 * only what expired over an hour ago, and a failure (here: the table gone for a moment) is
 * logged and answered with null instead of a rejection that would end the process.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { RATE_LIMITS_TABLE, sweepRateLimits } from '#operations/rate_limit_sweeper'

const HOUR = 3_600_000
const keys = async () =>
  (await db.from(RATE_LIMITS_TABLE).select('key').orderBy('key')).map((r) => r.key as string)

test.group('rate limits: sweep of expired counters', (group) => {
  group.each.setup(async () => void (await db.from(RATE_LIMITS_TABLE).delete()))
  group.each.teardown(async () => void (await db.from(RATE_LIMITS_TABLE).delete()))

  test('deletes counters expired over an hour ago, keeps the rest', async ({ assert }) => {
    const now = Date.now()
    await db.table(RATE_LIMITS_TABLE).multiInsert([
      { key: 'login:old', points: 3, expire: now - 2 * HOUR },
      { key: 'login:just-expired', points: 1, expire: now - 10_000 },
      { key: 'login:live', points: 2, expire: now + 60_000 },
      { key: 'login:forever', points: 1, expire: null },
    ])
    const warnings: string[] = []
    const deleted = await sweepRateLimits(db, { warn: (m: string) => warnings.push(m) } as any, now)
    assert.equal(deleted, 1)
    assert.deepEqual(await keys(), ['login:forever', 'login:just-expired', 'login:live'])
    assert.deepEqual(warnings, [])
  })

  test('a failing sweep is logged and resolves; the rows are untouched', async ({ assert }) => {
    await db.table(RATE_LIMITS_TABLE).insert({ key: 'login:old', points: 3, expire: 1 })
    await db.rawQuery(`alter table ${RATE_LIMITS_TABLE} rename to ${RATE_LIMITS_TABLE}_away`)
    const warnings: string[] = []
    try {
      const result = await sweepRateLimits(db, { warn: (m: string) => warnings.push(m) } as any)
      assert.isNull(result)
    } finally {
      await db.rawQuery(`alter table ${RATE_LIMITS_TABLE}_away rename to ${RATE_LIMITS_TABLE}`)
    }
    assert.lengthOf(warnings, 1)
    assert.match(warnings[0], /not swept/)
    assert.deepEqual(await keys(), ['login:old'])
  })
})
