/**
 * The published (old) npm client `@haulmont/jmix-rest` 1.2.0, unchanged, against our server:
 * password-grant login at the `/oauth/token` alias, entity metadata, enums and fetch plans
 * through its `views` methods (which send a trailing slash).
 */
import { test } from '@japa/runner'
import { JmixRestConnection } from '@haulmont/jmix-rest'
import { baseUrl, createClient, createUser } from '#tests/helpers/oauth'
import { CUSTOMER_BASE, ORDER, loadDemo } from '#tests/helpers/metadata'

test.group('Metadata API: the published npm client @haulmont/jmix-rest 1.2.0', (group) => {
  group.setup(() => loadDemo())

  test('logs in (password grant, /oauth/token) and loads metadata, enums and views', async ({
    assert,
  }) => {
    const { client, secret } = await createClient({ grantTypes: ['password'] })
    const { user, password } = await createUser()
    const jmix = new JmixRestConnection(
      'metadata-test',
      `${baseUrl()}/rest/`,
      client.clientId,
      secret
    )
    // Node has no page origin: the token endpoint option takes the absolute URL of our alias.
    const login = await jmix.login(user.username, password, {
      tokenEndpoint: `${baseUrl()}/oauth/token`,
    })
    assert.isString(login.access_token)

    const entities: any[] = await jmix.fetchJson('GET', 'metadata/entities')
    assert.includeMembers(
      entities.map((e) => e.entityName),
      ['bookstore_Order', 'ref$Country']
    )
    const order = await jmix.fetchJson('GET', 'metadata/entities/bookstore_Order')
    assert.deepEqual(order, ORDER)

    const enums: any[] = await jmix.fetchJson('GET', 'metadata/enums')
    assert.lengthOf(enums, 3)
    assert.deepEqual(enums[0].values[0], { name: 'NEW', id: 'N', caption: 'New' })

    const views = await jmix.loadEntityViews('bookstore_Order')
    assert.deepEqual(
      views.map((v) => v.name),
      ['order-full', 'order-with-lines']
    )
    // loadEntityView sends `views/{name}/` (trailing slash).
    const view = await jmix.loadEntityView('bookstore_Order', 'order-with-lines')
    assert.equal(view.name, 'order-with-lines')
    assert.equal(view.entity, 'bookstore_Order')
    const base = await jmix.loadEntityView('bookstore_Customer', '_base')
    assert.deepEqual(base.properties, CUSTOMER_BASE)

    await assert.rejects(() => jmix.loadEntityView('bookstore_Order', 'nope'))
  })
})
