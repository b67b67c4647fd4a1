/**
 * GET /rest/permissions (reference 8.6) and the metadata API as each actor sees it (issue 5
 * item 6): only granted permissions; entities and attributes a caller may not read are absent
 * from its metadata.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'
import { CUSTOMER, LINE, ORDER, call, setupSecurityFixture } from '#tests/helpers/security'

const targets = (list: { target: string; value: number }[], prefix = '') =>
  list.filter((p) => p.target.startsWith(prefix)).map((p) => `${p.target}=${p.value}`)

test.group('security: GET /rest/permissions', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupSecurityFixture()
  })

  test('a reader: read permissions, VIEW attributes, rest.enabled, its authorities', async ({
    assert,
  }) => {
    const response = await call(
      'bob',
      'GET',
      '/rest/permissions?entities=true&entityAttributes=true'
    )
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('cache-control'), 'no-store')
    assert.deepEqual(response.body.authorities, ['ROLE_crm-reader', 'ROW_LEVEL_ROLE_us-region'])
    assert.deepEqual(targets(response.body.entities, 'sec_'), [
      `${CUSTOMER}:read=1`,
      `${ORDER}:read=1`,
      `${LINE}:read=1`,
    ])
    assert.deepEqual(targets(response.body.entityAttributes, CUSTOMER), [
      `${CUSTOMER}:name=1`,
      `${CUSTOMER}:email=1`,
      `${CUSTOMER}:region=1`,
      `${CUSTOMER}:version=1`,
    ])
    assert.deepEqual(response.body.specifics, [{ target: 'rest.enabled', value: 1 }])
  })

  test('the editor: MODIFY is 2, VIEW is 1', async ({ assert }) => {
    const response = await call('alice', 'GET', '/rest/permissions')
    const attributes = targets(response.body.entityAttributes, CUSTOMER)
    assert.include(attributes, `${CUSTOMER}:name=2`)
    assert.include(attributes, `${CUSTOMER}:creditLimit=1`)
    assert.include(targets(response.body.entities, CUSTOMER), `${CUSTOMER}:delete=1`)
  })

  test('a client-credentials client and the administrator', async ({ assert }) => {
    const svc = await call('svc', 'GET', '/rest/permissions')
    assert.deepEqual(svc.body.authorities, ['ROLE_api-reader', 'ROW_LEVEL_ROLE_eu-region'])
    assert.deepEqual(targets(svc.body.entities, 'sec_'), [`${CUSTOMER}:read=1`])
    const admin = await call('admin', 'GET', '/rest/permissions')
    assert.deepEqual(admin.body.authorities, ['ROLE_system-full-access'])
    assert.include(targets(admin.body.entities), 'sec_Secret:delete=1')
    assert.deepEqual(
      admin.body.specifics.map((s: any) => s.target),
      [
        'rest.enabled',
        'rest.fileUpload.enabled',
        'rest.fileDownload.enabled',
        'reports.rest.enabled',
        'reports.sql.enabled',
      ]
    )
  })

  test('the anonymous user, on an anonymous URL', async ({ assert }) => {
    await importDoc({
      settings: {
        'svc.resource-server.anonymous-url-patterns':
          '/rest/permissions,/rest/entities/sec_PublicNews/**',
      },
    })
    try {
      const granted = await call('anonymous', 'GET', '/rest/permissions')
      assert.equal(granted.status, 200)
      assert.deepEqual(granted.body.authorities, ['ROLE_news-reader'])
      assert.deepEqual(targets(granted.body.entities), ['sec_PublicNews:read=1'])
    } finally {
      await importDoc({
        settings: {
          'svc.resource-server.anonymous-url-patterns': '/rest/entities/sec_PublicNews/**',
        },
      })
    }
  })

  test('metadata shows a caller only what it may read and view', async ({ assert }) => {
    const all = await call('bob', 'GET', '/rest/metadata/entities')
    const names = all.body.map((e: any) => e.entityName)
    assert.includeMembers(names, [CUSTOMER, ORDER, LINE])
    assert.notInclude(names, 'sec_Secret')
    const customer = await call('bob', 'GET', `/rest/metadata/entities/${CUSTOMER}`)
    const properties = customer.body.properties.map((p: any) => p.name)
    assert.includeMembers(properties, ['name', 'email', 'region'])
    assert.notInclude(properties, 'creditLimit')
    assert.notInclude(properties, 'notes')
    const alice = await call('alice', 'GET', `/rest/metadata/entities/${CUSTOMER}`)
    assert.include(
      alice.body.properties.map((p: any) => p.name),
      'creditLimit'
    )
  })
})
