/**
 * The published (old) npm client `@haulmont/jmix-rest` 1.2.0, used unchanged, against the
 * entities API of the demo application (reference 14.3): it logs in with the password grant at
 * the `/oauth/token` alias, then lists, counts, searches (GET with a URL-encoded filter), loads
 * (`view` alias), creates, updates (the loaded object sent back whole, meta keys included) and
 * deletes entities; the database state is asserted after every write.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { JmixRestConnection, type EntityFilter, type FetchOptions } from '@haulmont/jmix-rest'
import { baseUrl, createClient, createUser } from '#tests/helpers/oauth'
import {
  count,
  ids,
  loadWriteDemo,
  orderBody,
  row,
} from '#tests/functional/entities_write_fixtures'

let jmix: JmixRestConnection

async function connect() {
  const { client, secret } = await createClient({ grantTypes: ['password'] })
  const { user, password } = await createUser()
  const connection = new JmixRestConnection(
    `entities-${client.clientId}`,
    `${baseUrl()}/rest/`,
    client.clientId,
    secret
  )
  // Node has no page origin: the token endpoint option takes the absolute URL of our alias.
  await connection.login(user.username, password, { tokenEndpoint: `${baseUrl()}/oauth/token` })
  return connection
}

/** commitEntity as an app calls it with an untyped entity object. */
const commit = (entity: string, body: Record<string, unknown>, options?: FetchOptions) =>
  jmix.commitEntity<any>(entity, body, options)

const tagFilter = (operator: any, value: any): EntityFilter => ({
  conditions: [{ property: 'name', operator, value }],
})

test.group('Entities API: the published npm client @haulmont/jmix-rest 1.2.0', (group) => {
  group.setup(async () => {
    await loadWriteDemo()
    jmix = await connect()
  })

  test('tags: create, list, count, search, load, update, delete', async ({ assert }) => {
    const created: any = await commit('bookstore_Tag', {
      name: 'npm-a',
      color: '#00FF00',
    })
    assert.deepEqual(Object.keys(created), ['_entityName', '_instanceName', 'id'])
    assert.equal(created._instanceName, 'npm-a')
    assert.equal((await row('bookstore_tag', created.id)).color, '#00FF00')
    await commit('bookstore_Tag', { name: 'npm-b' })

    const all: any[] = await jmix.loadEntities('bookstore_Tag', { sort: '-name' })
    assert.deepEqual(
      all.map((t) => t.name),
      ['npm-b', 'npm-a', 'classic']
    )
    assert.deepEqual(all[1], {
      _entityName: 'bookstore_Tag',
      _instanceName: 'npm-a',
      id: created.id,
      name: 'npm-a',
      color: '#00FF00',
    })
    const page = await jmix.loadEntitiesWithCount<any>('bookstore_Tag', {
      sort: 'name',
      limit: 1,
      offset: 1,
      view: '_instance_name',
    })
    assert.equal(page.count, 3)
    assert.deepEqual(
      page.result.map((t) => t.name),
      ['npm-a']
    )

    const found: any[] = await jmix.searchEntities(
      'bookstore_Tag',
      tagFilter('startsWith', 'NPM'),
      { sort: 'name' }
    )
    assert.deepEqual(
      found.map((t) => t.name),
      ['npm-a', 'npm-b']
    )
    const counted = await jmix.searchEntitiesWithCount<any>(
      'bookstore_Tag',
      {
        conditions: [
          {
            group: 'OR',
            conditions: [
              { property: 'name', operator: '=', value: 'classic' },
              { property: 'color', operator: 'notEmpty', value: null },
            ],
          },
        ],
      },
      { limit: 1, sort: 'name' }
    )
    assert.equal(counted.count, 2)
    assert.deepEqual(
      counted.result.map((t) => t.name),
      ['classic']
    )

    const loaded: any = await jmix.loadEntity('bookstore_Tag', created.id, { view: '_local' })
    assert.equal(loaded.color, '#00FF00')
    // The client sends the loaded object back whole: meta keys and all.
    const updated: any = await commit('bookstore_Tag', { ...loaded, color: '#0000FF' })
    assert.equal(updated.id, created.id)
    assert.equal((await row('bookstore_tag', created.id)).color, '#0000FF')

    await jmix.deleteEntity('bookstore_Tag', created.id)
    assert.equal(await count('bookstore_tag', { id: created.id }), 0)
    await assert.rejects(() => jmix.loadEntity('bookstore_Tag', created.id))
  })

  test('customer and order with a composition: create, search, load, update, delete', async ({
    assert,
  }) => {
    const customer: any = await commit('bookstore_Customer', {
      name: 'Npm Customer',
      email: 'npm@example.com',
      loyaltyPoints: 5,
    })
    const stored = await row('bookstore_customer', customer.id)
    assert.equal(stored.name, 'Npm Customer')
    assert.equal(stored.version, 1)

    const order: any = await commit(
      'bookstore_Order',
      orderBody({ customer: { id: customer.id }, status: 'PAID' })
    )
    assert.equal(order._entityName, 'bookstore_Order')
    assert.equal(await count('bookstore_order_line', { order_id: order.id }), 2)
    assert.equal(await count('bookstore_order_line_discount'), 2)

    // Enum by name, a path through a to-one reference and a reference by id.
    const orders: any[] = await jmix.searchEntities(
      'bookstore_Order',
      {
        conditions: [
          { property: 'status', operator: '=', value: 'PAID' },
          { property: 'customer.email', operator: 'contains', value: 'NPM@' },
          { property: 'customer', operator: 'in', value: [customer.id] },
        ],
      },
      { view: 'order-with-lines' }
    )
    assert.deepEqual(
      orders.map((o) => o.id),
      [order.id]
    )
    assert.lengthOf(orders[0].lines, 2)
    assert.equal(orders[0].customer._instanceName, 'Npm Customer')

    const loaded: any = await jmix.loadEntity('bookstore_Order', order.id, {
      view: 'order-with-lines',
    })
    assert.equal(loaded.status, 'PAID')
    assert.equal(loaded.version, 1)
    const [first, second] = [...loaded.lines].sort((a: any, b: any) => a.position - b.position)
    // Round trip: the loaded graph, one line changed, the other line dropped (a composition:
    // deleted), a new line without id (created).
    const edited = {
      ...loaded,
      status: 'SHIPPED',
      lines: [
        { ...first, quantity: 7 },
        { position: 3, quantity: 1, unitPrice: 4.5, book: { id: ids.book2 } },
      ],
    }
    const updated: any = await commit('bookstore_Order', edited)
    assert.equal(updated.id, order.id)
    const after = await row('bookstore_order', order.id)
    assert.equal(after.status, 'S')
    assert.equal(after.version, 2)
    const lines = await db
      .from('bookstore_order_line')
      .where('order_id', order.id)
      .orderBy('position')
    assert.deepEqual(
      lines.map((l) => [l.position, l.quantity]),
      [
        [1, 7],
        [3, 1],
      ]
    )
    assert.equal(lines[0].id, first.id)
    assert.equal(await count('bookstore_order_line', { id: second.id }), 0)

    // A stale version (the first load) is refused and changes nothing.
    await assert.rejects(() => commit('bookstore_Order', { ...loaded, note: 'stale' }))
    assert.isNull((await row('bookstore_order', order.id)).note)

    const withCount = await jmix.loadEntitiesWithCount<any>('bookstore_Order', {
      view: '_instance_name',
    })
    assert.equal(withCount.count, 1)
    assert.equal(withCount.result[0]._instanceName, `${after.number} (Npm Customer)`)

    await jmix.deleteEntity('bookstore_Order', order.id)
    assert.equal(await count('bookstore_order', { id: order.id }), 0)
    assert.equal(await count('bookstore_order_line', { order_id: order.id }), 0)
    // Customer is soft-deleted: the row stays, marked, and the client no longer sees it.
    await jmix.deleteEntity('bookstore_Customer', customer.id)
    assert.isNotNull((await row('bookstore_customer', customer.id)).deleted_date)
    const left: any[] = await jmix.loadEntities('bookstore_Customer')
    assert.deepEqual(
      left.map((c) => c.name),
      ['Ann']
    )
  })
  test('string and long ids: commitMode create, one-to-one composition, $ in names', async ({
    assert,
  }) => {
    // With an id the client PUTs; a client-chosen string id is created with commitMode 'create'.
    const country: any = await commit(
      'ref$Country',
      { id: 'FR', name: 'France', alpha3: 'FRA', euMember: true },
      { commitMode: 'create' }
    )
    assert.deepEqual(country, { _entityName: 'ref$Country', _instanceName: 'France', id: 'FR' })
    await commit('ref$Country', { id: 'FR', euMember: false })
    assert.include(await row('ref_country', 'FR'), { name: 'France', alpha3: 'FRA' })
    const france: any = await jmix.loadEntity('ref$Country', 'FR')
    assert.isFalse(france.euMember)

    const warehouse: any = await commit('bookstore_Warehouse', {
      code: 'WH1',
      name: 'Main',
      opensAt: '08:00:00',
      address: { street: 'Rue 1', city: 'Paris', postalCode: '75001', country: { id: 'FR' } },
    })
    assert.match(warehouse.id, /^\d+$/, 'a long id travels as a string')
    const loaded: any = await jmix.loadEntity('bookstore_Warehouse', warehouse.id, {
      view: '_local',
    })
    assert.equal(loaded.opensAt, '08:00:00')
    await commit('bookstore_Warehouse', { ...loaded, name: 'Central' })
    const stored = await row('bookstore_warehouse', Number(warehouse.id))
    assert.equal(stored.name, 'Central')
    assert.equal(stored.version, 2)
    assert.equal(await count('bookstore_address', { id: stored.address_id }), 1)
    const found: any[] = await jmix.searchEntities('bookstore_Warehouse', {
      conditions: [{ property: 'address.country', operator: '=', value: 'FR' }],
    })
    assert.deepEqual(
      found.map((w) => w.name),
      ['Central']
    )
    await jmix.deleteEntity('bookstore_Warehouse', warehouse.id)
    assert.equal(await count('bookstore_warehouse'), 0)
    assert.equal(await count('bookstore_address', { id: stored.address_id }), 0)
  })
})
