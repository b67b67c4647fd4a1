/**
 * Every entities endpoint per actor (issue 5): anonymous, a user without roles, a reader, a row
 * owner, other users, a client-credentials client with roles, the administrator. Each refusal
 * asserts its status and body and that no row of the fixture changed.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import {
  CUSTOMER,
  E,
  ROWS,
  call,
  dataState,
  seed,
  setupSecurityFixture,
  type Actor,
} from '#tests/helpers/security'

const C = `${E}/${CUSTOMER}`
const names = (body: any[]) => body.map((c) => c.name).sort()

/** Visible customer names per actor (row-level roles, reference 9.4). */
const VISIBLE: Partial<Record<Actor, string[]>> = {
  admin: ['Carla', 'Emil', 'Erika', 'Uma'],
  alice: ['Emil', 'Erika'],
  bob: ['Carla', 'Uma'],
  carol: ['Carla'],
  erin: ['Emil', 'Erika'],
  svc: ['Emil', 'Erika'],
}

test.group('security: reads per actor', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
  })

  test('list, search, count and X-Total-Count show exactly the visible rows', async ({
    assert,
  }) => {
    for (const [actor, expected] of Object.entries(VISIBLE) as [Actor, string[]][]) {
      const list = await call(actor, 'GET', `${C}?returnCount=true`)
      assert.equal(list.status, 200, actor)
      assert.deepEqual(names(list.body), expected, actor)
      assert.equal(list.headers.get('x-total-count'), String(expected.length), actor)
      const filter = encodeURIComponent(
        JSON.stringify({ conditions: [{ property: 'name', operator: 'startsWith', value: 'E' }] })
      )
      const search = await call(actor, 'GET', `${C}/search?filter=${filter}`)
      assert.deepEqual(
        names(search.body),
        expected.filter((n) => n.startsWith('E')),
        actor
      )
      const body = { filter: { conditions: [] } }
      const posted = await call(actor, 'POST', `${C}/search`, body)
      assert.deepEqual(names(posted.body), expected, actor)
      const count = await call(actor, 'GET', `${C}/search/count?filter=${filter}`)
      assert.equal(count.body, expected.filter((n) => n.startsWith('E')).length, actor)
      const countPost = await call(actor, 'POST', `${C}/search/count`, body)
      assert.equal(countPost.body, expected.length, actor)
    }
  })

  test('load by id: visible 200, hidden 404 like a missing row (AZ1)', async ({ assert }) => {
    const ids: Record<string, string> = {
      Erika: ROWS.eu1,
      Emil: ROWS.eu2,
      Uma: ROWS.us1,
      Carla: ROWS.carol,
    }
    for (const [actor, visible] of Object.entries(VISIBLE) as [Actor, string[]][]) {
      for (const [name, id] of Object.entries(ids)) {
        const response = await call(actor, 'GET', `${C}/${id}`)
        if (visible.includes(name)) {
          assert.equal(response.status, 200, `${actor} ${name}`)
          assert.equal(response.body.name, name)
        } else {
          assert.equal(response.status, 404, `${actor} ${name}`)
          assert.deepEqual(response.body, {
            error: 'Entity not found',
            details: `Entity ${CUSTOMER} with id ${id} not found`,
          })
        }
      }
    }
  })

  test('a user without roles gets 403 on every entities endpoint (rest.enabled)', async ({
    assert,
  }) => {
    const before = await dataState()
    for (const [method, path, body] of [
      ['GET', C],
      ['GET', `${C}/${ROWS.eu1}`],
      ['GET', `${C}/search?filter={"conditions":[]}`],
      ['GET', `${C}/search/count?filter={"conditions":[]}`],
      ['POST', C, { name: 'X' }],
      ['PUT', `${C}/${ROWS.eu1}`, { name: 'X' }],
      ['PUT', C, [{ id: ROWS.eu1, name: 'X' }]],
      ['DELETE', `${C}/${ROWS.eu1}`],
      ['DELETE', C, [ROWS.eu1]],
      ['GET', '/rest/metadata/entities'],
      ['GET', '/rest/permissions'],
      ['GET', '/rest/userInfo'],
    ] as [string, string, unknown?][]) {
      const response = await call('dave', method, path, body)
      assert.equal(response.status, 403, `${method} ${path}`)
      assert.deepEqual(response.body, {
        error: 'Forbidden',
        details: 'User is not allowed to use the REST API',
      })
    }
    assert.equal(await dataState(), before)
  })

  test('anonymous: 401 outside the anonymous patterns, the anonymous role inside', async ({
    assert,
  }) => {
    const outside = await call('anonymous', 'GET', C)
    assert.equal(outside.status, 401)
    const news = await call('anonymous', 'GET', `${E}/sec_PublicNews`)
    assert.equal(news.status, 200)
    assert.deepEqual(
      news.body.map((n: any) => n.title),
      ['hi']
    )
    const before = await dataState()
    const create = await call('anonymous', 'POST', `${E}/sec_PublicNews`, { title: 'spam' })
    assert.equal(create.status, 403)
    assert.deepEqual(create.body, {
      error: 'Creation forbidden',
      details: 'Creation of the sec_PublicNews is forbidden',
    })
    assert.equal(await dataState(), before)
  })

  test('an entity no role grants: 403 Reading forbidden for everyone but admin', async ({
    assert,
  }) => {
    for (const actor of ['alice', 'bob', 'carol', 'erin', 'svc'] as Actor[]) {
      for (const path of [
        `${E}/sec_Secret`,
        `${E}/sec_Secret/00000000-0000-4000-8000-0000000000f1`,
      ]) {
        const response = await call(actor, 'GET', path)
        assert.equal(response.status, 403, `${actor} ${path}`)
        assert.deepEqual(response.body, {
          error: 'Reading forbidden',
          details: 'Reading of the sec_Secret is forbidden',
        })
      }
    }
    const admin = await call('admin', 'GET', `${E}/sec_Secret`)
    assert.equal(admin.status, 200)
    assert.lengthOf(admin.body, 1)
  })
})

test.group('security: writes per actor', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
  })
  group.each.setup(() => seed())

  test('a reader may not create, update or delete (403, nothing changed)', async ({ assert }) => {
    const before = await dataState()
    const cases: [string, string, unknown, string, string][] = [
      ['POST', C, { name: 'X', region: 'US' }, 'Creation forbidden', 'Creation'],
      ['PUT', `${C}/${ROWS.us1}`, { name: 'X' }, 'Updating forbidden', 'Updating'],
      ['PUT', C, [{ id: ROWS.us1, name: 'X' }], 'Updating forbidden', 'Updating'],
      ['DELETE', `${C}/${ROWS.us1}`, undefined, 'Deletion forbidden', 'Deletion'],
      ['DELETE', C, [ROWS.us1], 'Deletion forbidden', 'Deletion'],
    ]
    for (const actor of ['bob', 'svc'] as Actor[]) {
      for (const [method, path, body, error, noun] of cases) {
        const response = await call(actor, method, path, body)
        assert.equal(response.status, 403, `${actor} ${method} ${path}`)
        assert.deepEqual(response.body, {
          error,
          details: `${noun} of the ${CUSTOMER} is forbidden`,
        })
      }
    }
    assert.equal(await dataState(), before)
  })

  test('the editor writes inside her region', async ({ assert }) => {
    const created = await call('alice', 'POST', C, { name: 'Eva', region: 'EU' })
    assert.equal(created.status, 201)
    const updated = await call('alice', 'PUT', `${C}/${ROWS.eu1}`, { name: 'Erika B.' })
    assert.equal(updated.status, 200)
    assert.equal(updated.body.version, 2)
    const deleted = await call('alice', 'DELETE', `${C}/${ROWS.eu2}`)
    assert.equal(deleted.status, 204)
    const list = await call('admin', 'GET', C)
    assert.deepEqual(names(list.body), ['Carla', 'Erika B.', 'Eva', 'Uma'])
  })

  test('the row owner: own rows only, and the predicate guards updates', async ({ assert }) => {
    const own = await call('carol', 'PUT', `${C}/${ROWS.carol}`, { email: 'c@example.com' })
    assert.equal(own.status, 200)
    const before = await dataState()
    const other = await call('carol', 'PUT', `${C}/${ROWS.us1}`, { email: 'x@example.com' })
    assert.equal(other.status, 404)
    const away = await call('carol', 'PUT', `${C}/${ROWS.carol}`, { ownerName: 'mallory' })
    assert.equal(away.status, 403, 'a row may not leave the caller rules')
    assert.equal(away.body.error, 'Forbidden')
    const foreign = await call('carol', 'POST', C, { name: 'Fake', ownerName: 'bob' })
    assert.equal(foreign.status, 403, 'a new row must satisfy the rules')
    assert.equal(await dataState(), before)
    // The update/delete predicate (notes <> 'locked') holds for the new state too: carol may
    // not lock her row; once the administrator has, she may neither change nor delete it.
    const selfLock = await call('carol', 'PUT', `${C}/${ROWS.carol}`, { notes: 'locked' })
    assert.equal(selfLock.status, 403)
    assert.equal(await dataState(), before)
    const lock = await call('admin', 'PUT', `${C}/${ROWS.carol}`, { notes: 'locked' })
    assert.equal(lock.status, 200)
    const locked = await dataState()
    const change = await call('carol', 'PUT', `${C}/${ROWS.carol}`, { email: 'y@example.com' })
    assert.equal(change.status, 403)
    assert.deepEqual(change.body, {
      error: 'Forbidden',
      details: `resource: ${CUSTOMER}-${ROWS.carol}, type: entity, action: update`,
    })
    const remove = await call('carol', 'DELETE', `${C}/${ROWS.carol}`)
    assert.equal(remove.status, 403)
    assert.equal(await dataState(), locked)
    const mine = await call('carol', 'POST', C, { name: 'Cleo', ownerName: 'carol' })
    assert.equal(mine.status, 201)
  })

  test('the administrator may do everything', async ({ assert }) => {
    const update = await call('admin', 'PUT', `${C}/${ROWS.us1}`, { creditLimit: 5, notes: 'n' })
    assert.equal(update.status, 200)
    const created = await call('admin', 'POST', `${E}/sec_Secret`, { value: 'v' })
    assert.equal(created.status, 201)
    const removed = await call('admin', 'DELETE', `${C}/${ROWS.eu2}`)
    assert.equal(removed.status, 204)
  })
})
