/**
 * The published npm client `@haulmont/jmix-rest` 1.2.0, unchanged, against the Queries API:
 * `query`, `queryWithCount` and `queryCount` as alice (row-level role: EU customers only),
 * signed in with the password grant at the `/oauth/token` alias.
 */
import { test } from '@japa/runner'
import { JmixRestConnection } from '@haulmont/jmix-rest'
import { baseUrl, createClient } from '#tests/helpers/oauth'
import { resetDatabase } from '#tests/helpers/database'
import { CUSTOMER } from '#tests/helpers/security'
import { THING, setupQueriesFixture } from './queries_fixtures.js'

let jmix: JmixRestConnection

test.group('Queries API: the published npm client @haulmont/jmix-rest 1.2.0', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupQueriesFixture()
    const { client, secret } = await createClient({ grantTypes: ['password'] })
    jmix = new JmixRestConnection(
      `queries-${client.clientId}`,
      `${baseUrl()}/rest/`,
      client.clientId,
      secret
    )
    await jmix.login('alice', 'S3cret-passw0rd', { tokenEndpoint: `${baseUrl()}/oauth/token` })
  })

  test('query, queryWithCount and queryCount, limited by the row-level role', async ({
    assert,
  }) => {
    const rows: any[] = await jmix.query(CUSTOMER, 'byNameNot', { n: 'Emil' })
    assert.deepEqual(
      rows.map((r) => r.name),
      ['Erika']
    )
    assert.equal(rows[0]._entityName, CUSTOMER)
    const page = await jmix.queryWithCount<any>(CUSTOMER, 'byNameNot', {
      n: 'nobody',
      limit: 1,
    })
    assert.equal(page.count, 2)
    assert.deepEqual(
      page.result.map((r) => r.name),
      ['Emil']
    )
    // The client hands back the body text of the bare number.
    assert.strictEqual(await jmix.queryCount(CUSTOMER, 'byNameNot', { n: 'nobody' }), '2' as any)
    assert.strictEqual(await jmix.queryCount(CUSTOMER, 'all'), '2' as any)
  })

  test('typed parameters and the all query through the client', async ({ assert }) => {
    // alice may not read qry_Thing: the client sees the 403.
    await assert.rejects(() => jmix.query(THING, 'by_day', { day: '2024-03-01' }))
    const all: any[] = await jmix.query(CUSTOMER, 'all', { limit: 5 })
    assert.sameMembers(
      all.map((r) => r._instanceName),
      ['Erika 1000', 'Emil 1000']
    )
  })
})
