/**
 * Entity lifecycle hooks (app/engine/data/write/hooks.ts; README "Developer guide") through the
 * REST entities API: the demo's bookstore_Book hook normalises values, hooks see the caller,
 * refuse with a 400 and nothing written, and anything thrown inside the transaction (also
 * after the row was written, also from a nested composition row) rolls the write back.
 */
import { test } from '@japa/runner'
import { registerEntityHooks, type EntityHooks } from '#engine/data/write/hooks'
import {
  E,
  count,
  createOrder,
  ids,
  loadWriteDemo,
  orderBody,
  orderCounts,
  row,
  send,
} from './entities_write_fixtures.js'

const TAGS = `${E}/bookstore_Tag`
let off: (() => void)[] = []
const hook = (entity: string, hooks: EntityHooks) => off.push(registerEntityHooks(entity, hooks))

test.group('Entity lifecycle hooks', (group) => {
  group.setup(() => loadWriteDemo())
  group.each.teardown(() => {
    for (const remove of off) remove()
    off = []
  })

  test('the demo hook normalises a book ISBN and title before the write', async ({ assert }) => {
    const created = await send('POST', `${E}/bookstore_Book`, {
      title: '  Hooked  ',
      isbn: '978-0-00-000000-9',
      price: 12,
      currency: { id: 'EUR' },
    })
    assert.equal(created.status, 201, created.text)
    const stored = await row('bookstore_book', created.body.id)
    assert.equal(stored.isbn, '9780000000009')
    assert.equal(stored.title, 'Hooked')

    const blank = await send('PUT', `${E}/bookstore_Book/${created.body.id}`, { title: '   ' })
    assert.equal(blank.status, 400)
    assert.deepEqual(blank.body, [
      {
        message: 'must not be blank',
        messageTemplate: '{modelgate.validation.Hook.message}',
        path: 'title',
        invalidValue: '',
      },
    ])
    assert.equal((await row('bookstore_book', created.body.id)).title, 'Hooked')
  })

  test('beforeSave sees the caller and may stamp values; afterSave reads the row', async ({
    assert,
  }) => {
    const seen: unknown[] = []
    hook('bookstore_Order', {
      beforeSave({ values, subject, isNew }) {
        if (isNew) values.note = `by ${subject.kind === 'client' ? subject.clientId : subject.kind}`
      },
      async afterSave({ load, isNew, id }) {
        const loaded = await load()
        seen.push([isNew, id === loaded.id, loaded.note])
      },
    })
    const order = await createOrder({ note: 'from the client' })
    assert.equal((await row('bookstore_order', order)).note, `by ${ids.client}`)
    const updated = await send('PUT', `${E}/bookstore_Order/${order}`, { note: 'changed' })
    assert.equal(updated.status, 200, updated.text)
    assert.equal((await row('bookstore_order', order)).note, 'changed')
    // afterSave reads the row as this transaction wrote it.
    assert.deepEqual(seen, [
      [true, true, `by ${ids.client}`],
      [false, true, 'changed'],
    ])
  })

  test('a refusing beforeSave on a nested row: 400, nothing of the order written', async ({
    assert,
  }) => {
    hook('bookstore_OrderLine', {
      beforeSave({ values, refuse }) {
        if (Number(values.quantity) > 100) refuse('at most 100 copies per line', 'quantity')
      },
    })
    const before = await orderCounts()
    const body = orderBody()
    ;(body.lines as any[])[1].quantity = 500
    const refused = await send('POST', `${E}/bookstore_Order`, body)
    assert.equal(refused.status, 400, refused.text)
    assert.lengthOf(refused.body, 1)
    assert.containsSubset(refused.body[0], {
      message: 'at most 100 copies per line',
      invalidValue: 500,
    })
    assert.match(refused.body[0].path, /^lines\[1\]\.quantity$/)
    assert.deepEqual(await orderCounts(), before)
  })

  test('a throwing afterSave rolls the write back', async ({ assert }) => {
    hook('bookstore_Tag', {
      afterSave({ values }) {
        if (values.name === 'boom') throw new Error('the audit service is down')
      },
    })
    const before = await count('bookstore_tag')
    const failed = await send('POST', TAGS, { name: 'boom' })
    assert.equal(failed.status, 500)
    assert.notInclude(failed.text, 'audit service')
    assert.equal(await count('bookstore_tag'), before)
    assert.equal(await count('bookstore_tag', { name: 'boom' }), 0)
    const fine = await send('POST', TAGS, { name: 'fine' })
    assert.equal(fine.status, 201)
    assert.equal(await count('bookstore_tag'), before + 1)
  })

  test('beforeDelete may refuse; a throwing afterDelete keeps the row', async ({ assert }) => {
    const deleted: string[] = []
    hook('bookstore_Tag', {
      beforeDelete({ id, refuse }) {
        if (id === ids.tag) refuse('the classic tag stays')
      },
      afterDelete({ id, entityName }) {
        deleted.push(`${entityName}:${id}`)
      },
    })
    const refused = await send('DELETE', `${TAGS}/${ids.tag}`)
    assert.equal(refused.status, 400)
    assert.include(JSON.stringify(refused.body), 'the classic tag stays')
    assert.isNotNull(await row('bookstore_tag', ids.tag))

    const other = await send('POST', TAGS, { name: 'temporary' })
    assert.equal((await send('DELETE', `${TAGS}/${other.body.id}`)).status, 204)
    assert.deepEqual(deleted, [`bookstore_Tag:${other.body.id}`])
    assert.isNull(await row('bookstore_tag', other.body.id))

    hook('bookstore_Order', {
      afterDelete() {
        throw new Error('no')
      },
    })
    const order = await createOrder()
    const lines = await count('bookstore_order_line', { order_id: order })
    const failed = await send('DELETE', `${E}/bookstore_Order/${order}`)
    assert.equal(failed.status, 500)
    assert.isNotNull(await row('bookstore_order', order))
    assert.equal(await count('bookstore_order_line', { order_id: order }), lines)
  })
})
