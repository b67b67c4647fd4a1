/**
 * The write half of DataManager called directly (app/engine/data/write): JSON -> stored values
 * per datatype, the audit user of a user subject, the unique constraint as the fallback of the
 * pre-write check under concurrency, and driver errors translated (never passed on).
 */
import { FULL_ACCESS } from '#security/policy_index'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { DataContext } from '#engine/data/data_manager'
import { DataError } from '#engine/data/errors'
import * as writes from '#engine/data/write/main'
import { translateDriverError } from '#engine/data/write/driver_errors'
import { toDbValue } from '#engine/data/write/values'
import type { UserSubject } from '#security/subject'
import { engine } from '#tests/helpers/engine'
import { count, loadWriteDemo, row } from '#tests/functional/entities_write_fixtures'

const subject: UserSubject = {
  kind: 'user',
  userId: '1',
  username: 'alice',
  locale: null,
  timeZone: null,
  clientId: 'console',
  tokenId: 't',
}

async function context(): Promise<DataContext> {
  return {
    db,
    model: (await engine()).model,
    subject,
    maxFetchSize: 10000,
    maxBulkSize: 10000,
    permissions: FULL_ACCESS,
  }
}

test.group('Entity writes: DataManager', (group) => {
  group.setup(() => loadWriteDemo())

  test('values per datatype (reference 4.3 inverse)', async ({ assert }) => {
    const model = (await engine()).model
    const attr = (e: string, a: string) => model.entity(e)!.attributes.get(a)!
    const placedAt = attr('bookstore_Order', 'placedAt')
    assert.equal(
      toDbValue(model, placedAt, '2024-02-24T15:15:15.053+04:00', 'pg'),
      '2024-02-24T11:15:15.053Z'
    )
    const counted = attr('bookstore_StockItem', 'lastCountedAt')
    assert.equal(toDbValue(model, counted, '2021-02-06T12:03:38', 'sqlite'), '2021-02-06 12:03:38')
    assert.equal(toDbValue(model, attr('bookstore_Order', 'status'), 'PAID', 'pg'), 'P')
    assert.equal(toDbValue(model, attr('bookstore_Book', 'price'), 130.5, 'pg'), '130.50')
    assert.equal(toDbValue(model, attr('bookstore_Book', 'title'), 12, 'pg'), '12')
    assert.equal(toDbValue(model, attr('bookstore_Book', 'inPrint'), 'true', 'sqlite'), 1)
    assert.equal(
      toDbValue(model, attr('bookstore_Warehouse', 'opensAt'), '08:30', 'pg'),
      '08:30:00'
    )
    for (const [e, a, bad] of [
      ['bookstore_Book', 'pageCount', 1.5],
      ['bookstore_Book', 'publicationDate', '01/02/2024'],
      ['bookstore_Order', 'placedAt', '2024-02-24T15:15:15'],
      ['bookstore_Customer', 'externalRef', 'not-a-uuid'],
      ['bookstore_Book', 'title', { a: 1 }],
      ['bookstore_Book', 'publicationDate', '2024-02-30'],
      ['bookstore_Book', 'price', 'abc'],
    ] as const) {
      assert.throws(() => toDbValue(model, attr(e, a), bad, 'pg'), /JSON/)
    }
  })

  test('a user subject is the audit user', async ({ assert }) => {
    const ctx = await context()
    const created = await writes.create(ctx, 'bookstore_Author', { lastName: 'Woolf' })
    assert.equal((await row('bookstore_author', created.id)).created_by, 'alice')
    const updated = await writes.update(ctx, 'bookstore_Author', String(created.id), {
      firstName: 'Virginia',
    })
    assert.equal(updated.version, 2)
    assert.equal((await row('bookstore_author', created.id)).last_modified_by, 'alice')
  })

  test('to-one composition: with id updated in place, without id replaced, null deletes', async ({
    assert,
  }) => {
    const ctx = await context()
    const address = { street: 'A 1', postalCode: '10115', city: 'Berlin', country: { id: 'DE' } }
    const w = await writes.create(ctx, 'bookstore_Warehouse', { code: 'WH9', name: 'N', address })
    const id = String(w.id)
    const first = (await row('bookstore_warehouse', Number(id))).address_id
    await writes.update(ctx, 'bookstore_Warehouse', id, { address: { id: first, city: 'Bonn' } })
    assert.equal((await row('bookstore_warehouse', Number(id))).address_id, first)
    assert.equal((await row('bookstore_address', first)).city, 'Bonn')
    await writes.update(ctx, 'bookstore_Warehouse', id, { address: { ...address, city: 'Köln' } })
    const second = (await row('bookstore_warehouse', Number(id))).address_id
    assert.notEqual(second, first)
    assert.equal(
      await count('bookstore_address', { id: first }),
      0,
      'the replaced child is deleted'
    )
    const cleared = await writes.update(ctx, 'bookstore_Warehouse', id, { address: null })
    assert.equal(cleared.version, 4)
    assert.equal(await count('bookstore_address', { id: second }), 0)
  })

  test('concurrent creates of one unique value: exactly one row, the others 400', async ({
    assert,
  }) => {
    const ctx = await context()
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => writes.create(ctx, 'bookstore_Tag', { name: 'race' }))
    )
    assert.lengthOf(
      results.filter((r) => r.status === 'fulfilled'),
      1
    )
    for (const r of results) {
      if (r.status === 'rejected') {
        assert.instanceOf(r.reason, DataError)
        assert.equal(r.reason.status, 400)
        assert.isArray(r.reason.toJSON())
      }
    }
    assert.equal(await count('bookstore_tag', { name: 'race' }), 1)
  })

  test('driver errors are translated; others pass through unchanged', async ({ assert }) => {
    const unique = translateDriverError(Object.assign(new Error('dup'), { code: '23505' }))
    assert.equal((unique as DataError).status, 400)
    const fk = translateDriverError(new Error('FOREIGN KEY constraint failed'))
    assert.equal((fk as DataError).status, 409)
    assert.notInclude(JSON.stringify((fk as DataError).toJSON()), 'FOREIGN KEY')
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', '40P01', '40001']) {
      const busy = translateDriverError(Object.assign(new Error('database is locked'), { code }))
      assert.equal((busy as DataError).status, 503, code)
      assert.notInclude(JSON.stringify((busy as DataError).toJSON()), 'locked')
    }
    for (const code of ['SQLITE_FULL', '53100']) {
      const full = translateDriverError(Object.assign(new Error('disk full'), { code }))
      assert.equal((full as DataError).status, 507, code)
    }
    const other = new Error('boom')
    assert.strictEqual(translateDriverError(other), other)
  })
})
