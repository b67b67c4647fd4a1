/**
 * GET /rest/userInfo (reference 8.7) as a user, a client-credentials client and anonymous.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'
import User from '#models/user'
import {
  accessToken,
  bearer,
  makeClient,
  makeUser,
  raw,
  grantAnonymous,
} from '#tests/helpers/resource_server'

test.group('GET /rest/userInfo', (group) => {
  group.setup(async () => void (await resetDatabase()))
  // The anonymous user's roles (it needs no rest.enabled on an anonymous URL, spec 5.6).
  group.setup(async () => grantAnonymous())

  test('as a user: the user attributes, never the password', async ({ assert }) => {
    const client = await makeClient({ grantTypes: ['authorization_code', 'refresh_token'] })
    const user = await makeUser({ timeZone: 'Europe/Berlin' })
    const { token } = await accessToken(client, user)
    const response = await raw('/rest/userInfo', { headers: bearer(token) })
    assert.equal(response.status, 200)
    assert.include(response.headers['content-type'], 'application/json')
    assert.deepEqual(response.body, {
      username: user.username,
      locale: 'en',
      attributes: {
        id: user.id,
        username: user.username,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        active: true,
        timeZoneId: 'Europe/Berlin',
      },
    })
    assert.notInclude(response.text, 'password')
    assert.notInclude(response.text, 'scrypt')
  })

  test('nulls are kept for unset attributes', async ({ assert }) => {
    const client = await makeClient()
    const user = await makeUser({ firstName: null, lastName: null, email: null })
    const { token } = await accessToken(client, user)
    const { body } = await raw('/rest/userInfo', { headers: bearer(token) })
    assert.deepEqual(body.attributes, {
      id: user.id,
      username: user.username,
      firstName: null,
      lastName: null,
      email: null,
      active: true,
      timeZoneId: null,
    })
  })

  test('as a client-credentials client: username = client id, no attributes', async ({
    assert,
  }) => {
    const client = await makeClient()
    const { token } = await accessToken(client)
    const response = await raw('/rest/userInfo', { headers: bearer(token) })
    assert.equal(response.status, 200)
    assert.deepEqual(response.body, { username: client.clientId, locale: 'en', attributes: {} })
  })

  test('as anonymous (anonymous pattern, no Authorization header)', async ({ assert }) => {
    await importDoc({
      settings: { 'svc.resource-server.anonymous-url-patterns': '/rest/userInfo' },
    })
    try {
      // The built-in `anonymous` user (made on first start, holding the anonymous roles).
      const anonymous = (await User.findBy('username', 'anonymous'))!
      const response = await raw('/rest/userInfo')
      assert.equal(response.status, 200)
      assert.deepEqual(response.body, {
        username: 'anonymous',
        locale: 'en',
        attributes: {
          id: anonymous.id,
          username: 'anonymous',
          firstName: null,
          lastName: null,
          email: null,
          active: true,
          timeZoneId: null,
        },
      })
    } finally {
      await importDoc({ settings: { 'svc.resource-server.anonymous-url-patterns': null } })
    }
  })

  test('locale: Accept-Language against svc.core.available-locales', async ({ assert }) => {
    const client = await makeClient()
    const user = await makeUser({ locale: 'de' })
    const { token } = await accessToken(client, user)
    const locale = async (acceptLanguage?: string) => {
      const headers = {
        ...bearer(token),
        ...(acceptLanguage ? { 'Accept-Language': acceptLanguage } : {}),
      }
      return (await raw('/rest/userInfo', { headers })).body.locale
    }
    assert.equal(await locale(), 'en', 'the user locale must be available')
    await importDoc({ settings: { 'svc.core.available-locales': 'en,de,pt_BR' } })
    try {
      assert.equal(await locale(), 'de', "the user's stored locale")
      assert.equal(await locale('fr, pt-br;q=0.8, en;q=0.5'), 'pt_BR')
      assert.equal(await locale('en-GB'), 'en')
      assert.equal(await locale('fr'), 'de')
    } finally {
      await importDoc({ settings: { 'svc.core.available-locales': null } })
    }
  })
})
