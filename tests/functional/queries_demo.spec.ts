/**
 * The demo application's named queries (database/demo/bookstore.json `queries`; README
 * "Queries API"): imported with the demo and run as the README's curl examples run them.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { admin, setupAdminActors } from '#tests/helpers/admin'
import { demoDocument } from '#tests/helpers/openapi'

const Q = '/rest/queries/bookstore_Book'
const EUR = '00000000-0000-4000-8000-00000000eeee'

const BOOKS = [
  ['Cheap Fiction', '9780000000001', '7.50', 'FICTION'],
  ['Dear Poems', '9780000000002', '19.90', 'POETRY'],
  ['Cheap Science', '9780000000003', '9.99', 'SCIENCE'],
] as const

test.group('Queries API: the demo application queries', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await applyDoc(await demoDocument())
    const currency = await admin('admin', 'POST', '/rest/entities/ref$Currency', {
      id: EUR,
      name: 'Euro',
      symbol: '€',
      numericCode: '978',
      minorUnits: 2,
    })
    if (currency.status !== 201) throw new Error(currency.text)
    for (const [title, isbn, price, genre] of BOOKS) {
      const book = await admin('admin', 'POST', '/rest/entities/bookstore_Book', {
        title,
        isbn,
        price,
        genre,
        currency: { id: EUR },
      })
      if (book.status !== 201) throw new Error(book.text)
    }
  })

  test('the demo ships its queries, listed with their parameters', async ({ assert }) => {
    const list = await admin('admin', 'GET', Q)
    assert.equal(list.status, 200)
    const byName = Object.fromEntries(list.body.map((q: any) => [q.name, q.params]))
    assert.deepEqual(byName.cheaperThan, [{ name: 'max', type: 'java.math.BigDecimal' }])
    assert.deepEqual(byName.inGenres, [{ name: 'genres', type: 'com.example.bookstore.Genre[]' }])
  })

  test('cheaperThan runs as the README shows (GET with returnCount, POST count)', async ({
    assert,
  }) => {
    const run = await admin('admin', 'GET', `${Q}/cheaperThan?max=10&returnCount=true`)
    assert.equal(run.status, 200, run.text)
    assert.deepEqual(
      run.body.map((b: any) => b.title),
      ['Cheap Fiction', 'Cheap Science']
    )
    assert.equal(run.headers.get('x-total-count'), '2')
    const count = await admin('admin', 'POST', `${Q}/cheaperThan/count`, { max: 10 })
    assert.equal(count.status, 200)
    assert.equal(count.body, 2)
    const bad = await admin('admin', 'GET', `${Q}/cheaperThan?max=ten`)
    assert.equal(bad.status, 400)
    assert.equal(bad.body.error, 'Invalid query parameter')
  })

  test('inGenres takes repeated values (GET) or a JSON array (POST)', async ({ assert }) => {
    const get = await admin('admin', 'GET', `${Q}/inGenres?genres=FICTION&genres=POETRY`)
    assert.equal(get.status, 200, get.text)
    assert.deepEqual(
      get.body.map((b: any) => b._instanceName),
      ['Cheap Fiction', 'Dear Poems']
    )
    const post = await admin('admin', 'POST', `${Q}/inGenres`, { genres: ['SCIENCE'] })
    assert.deepEqual(
      post.body.map((b: any) => b._instanceName),
      ['Cheap Science']
    )
    const bad = await admin('admin', 'POST', `${Q}/inGenres`, { genres: ['SCIENCE', 'COOKING'] })
    assert.equal(bad.status, 400)
    assert.deepEqual(bad.body, {
      error: 'Invalid query parameter',
      details: 'Cannot parse query parameter genres',
    })
  })
})
