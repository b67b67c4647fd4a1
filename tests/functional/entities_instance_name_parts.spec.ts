/**
 * `_instanceName` of a pattern with an empty part (issue 19 item 8): a null value or a null
 * reference is left out with its brackets and its separator (`Second Book`, not
 * `Second Book ()`), on reads, in nested references and in the minimal answer of a create.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, makeClient, sendJson } from '#tests/helpers/resource_server'

const ids = {
  publisher: '00000000-0000-4000-8000-000000000001',
  first: '00000000-0000-4000-8000-000000000002',
  second: '00000000-0000-4000-8000-000000000003',
  author: '00000000-0000-4000-8000-000000000004',
  copy: '00000000-0000-4000-8000-000000000005',
}
let token = ''

const get = async (path: string) => {
  const response = await sendJson(token, 'GET', `/rest/entities/${path}`)
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${response.text}`)
  return response.body
}

test.group('Entities: _instanceName with empty parts', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await applyDoc({
      entities: [
        {
          name: 'ip_Publisher',
          instanceName: 'name',
          attributes: [{ name: 'name', type: 'string', length: 40 }],
        },
        {
          name: 'ip_Book',
          instanceName: '{title} ({publisher.name})',
          attributes: [
            { name: 'title', type: 'string', length: 40 },
            {
              name: 'publisher',
              type: 'association',
              cardinality: 'MANY_TO_ONE',
              target: 'ip_Publisher',
            },
          ],
        },
        {
          name: 'ip_Author',
          instanceName: '{firstName} {lastName}',
          attributes: [
            { name: 'firstName', type: 'string', length: 40 },
            { name: 'lastName', type: 'string', length: 40 },
          ],
        },
        {
          name: 'ip_Copy',
          instanceName: '{book} #{number}',
          attributes: [
            { name: 'number', type: 'int' },
            { name: 'book', type: 'association', cardinality: 'MANY_TO_ONE', target: 'ip_Book' },
          ],
        },
      ],
    })
    await db.table('ip_publisher').insert({ id: ids.publisher, name: 'Pub' })
    await db.table('ip_book').multiInsert([
      { id: ids.first, title: 'First Book', publisher_id: ids.publisher },
      { id: ids.second, title: 'Second Book', publisher_id: null },
    ])
    await db.table('ip_author').insert({ id: ids.author, first_name: null, last_name: 'Brontë' })
    await db.table('ip_copy').insert({ id: ids.copy, book_id: ids.second, number: null })
    token = (await accessToken(await makeClient())).token
  })

  test('a null reference: no empty brackets; a present one: unchanged', async ({ assert }) => {
    assert.equal((await get(`ip_Book/${ids.second}`))._instanceName, 'Second Book')
    assert.equal((await get(`ip_Book/${ids.first}`))._instanceName, 'First Book (Pub)')
  })

  test('a null value: no separator left over', async ({ assert }) => {
    assert.equal((await get(`ip_Author/${ids.author}`))._instanceName, 'Brontë')
  })

  test('nested: the reference and its own pattern both drop their empty parts', async ({
    assert,
  }) => {
    const copy = await get(`ip_Copy/${ids.copy}?fetchPlan=_base`)
    assert.equal(copy._instanceName, 'Second Book')
    assert.equal(copy.book._instanceName, 'Second Book')
  })

  test('the minimal answer of a create', async ({ assert }) => {
    const created = await sendJson(token, 'POST', '/rest/entities/ip_Book', { title: 'Third' })
    assert.equal(created.status, 201, created.text)
    assert.equal(created.body._instanceName, 'Third')
  })
})
