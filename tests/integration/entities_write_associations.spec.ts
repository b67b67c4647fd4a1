/**
 * A one-to-many association written from its "one" side changes the other rows' foreign key
 * (spec 4.2 rule 3): that is an update of those rows, so the caller needs the update
 * permission on their entity and on the key attribute; a refusal is 403 and nothing changes.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { DataContext } from '#engine/data/data_manager'
import { DataError } from '#engine/data/errors'
import * as writes from '#engine/data/write/main'
import { compilePermissions } from '#security/compiler'
import type { ResourceRole } from '#security/roles_store'
import type { UserSubject } from '#security/subject'
import { engine } from '#tests/helpers/engine'
import { ids, loadWriteDemo, row } from '#tests/functional/entities_write_fixtures'

const subject: UserSubject = {
  kind: 'user',
  userId: '1',
  username: 'editor',
  locale: null,
  timeZone: null,
  clientId: 'console',
  tokenId: 't',
}

/** Full rights on publishers; on books `bookActions` and `bookAttributes` (VIEW or MODIFY). */
async function context(bookActions: string[], bookAttributes: string): Promise<DataContext> {
  const model = (await engine()).model
  const role: ResourceRole = {
    code: 'pub-editor',
    name: 'pub-editor',
    description: '',
    scopes: ['API'],
    childRoles: [],
    specificPolicies: [],
    entityPolicies: [
      { entity: 'bookstore_Publisher', actions: ['create', 'read', 'update', 'delete'] },
      { entity: 'bookstore_Book', actions: bookActions },
    ],
    attributePolicies: [
      { entity: 'bookstore_Publisher', attributes: ['*'], action: 'MODIFY' },
      { entity: 'bookstore_Book', attributes: ['*'], action: bookAttributes },
    ],
  }
  const permissions = compilePermissions(
    model,
    { version: 1, resource: new Map([[role.code, role]]), rowLevel: new Map() },
    { resourceRoles: [role.code], rowLevelRoles: [] },
    { userId: '1', username: 'editor', clientId: null }
  )
  return { db, model, subject, permissions, maxFetchSize: 1000, maxBulkSize: 1000 }
}

async function refused(work: Promise<unknown>): Promise<DataError> {
  try {
    await work
  } catch (error) {
    if (error instanceof DataError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

test.group('Entity writes: one-to-many association permissions', (group) => {
  group.setup(() => loadWriteDemo())

  test('without the update permission on the other rows: 403, nothing changed', async ({
    assert,
  }) => {
    const books = [await row('bookstore_book', ids.book1), await row('bookstore_book', ids.book2)]
    const publisher = await row('bookstore_publisher', ids.publisher)
    const readOnly = await context(['read'], 'VIEW')
    const noUpdate = await refused(
      writes.update(readOnly, 'bookstore_Publisher', ids.publisher, {
        name: 'Renamed',
        books: [{ id: ids.book2 }],
      })
    )
    assert.equal(noUpdate.status, 403)
    assert.deepEqual(noUpdate.toJSON(), {
      error: 'Updating forbidden',
      details: 'Updating of the bookstore_Book is forbidden',
    })
    // Update allowed, but the key attribute only viewable.
    const viewKey = await context(['read', 'update'], 'VIEW')
    const noModify = await refused(
      writes.update(viewKey, 'bookstore_Publisher', ids.publisher, { books: [] })
    )
    assert.equal(noModify.status, 403)
    assert.deepEqual(noModify.toJSON(), {
      error: 'Forbidden',
      details: 'resource: bookstore_Book.publisher, type: entityAttribute, action: modify',
    })
    assert.deepEqual(
      [await row('bookstore_book', ids.book1), await row('bookstore_book', ids.book2)],
      books
    )
    assert.deepEqual(await row('bookstore_publisher', ids.publisher), publisher)
    // Listing the books it already has changes no book: no permission on books is needed.
    const same = await writes.update(readOnly, 'bookstore_Publisher', ids.publisher, {
      books: [{ id: ids.book1 }, { id: ids.book2 }],
    })
    assert.equal(same.id, ids.publisher)
    assert.deepEqual(
      [await row('bookstore_book', ids.book1), await row('bookstore_book', ids.book2)],
      books
    )
    // With both rights the change goes through.
    await writes.update(
      await context(['read', 'update'], 'MODIFY'),
      'bookstore_Publisher',
      ids.publisher,
      {
        books: [{ id: ids.book2 }],
      }
    )
    assert.isNull((await row('bookstore_book', ids.book1)).publisher_id)
  })
})
