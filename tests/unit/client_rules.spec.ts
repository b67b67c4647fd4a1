/**
 * The clients section's structure (document.ts) and the pure registration rules.
 */
import { test } from '@japa/runner'
import { validateDocument } from '#definition/document'
import { checkRegistration, documentPaths, redirectUriProblem } from '#oauth/client_rules'
import { hasProblem } from '#tests/unit/_fixtures'

test.group('clients section: structure and rules', () => {
  test('a clients section is read; none leaves `clients` undefined', async ({ assert }) => {
    const withClients = await validateDocument({
      formatVersion: 1,
      clients: [{ clientId: 'a', grantTypes: ['client_credentials'] }],
    })
    assert.deepEqual(withClients.problems, [])
    assert.equal(withClients.document!.clients![0].clientId, 'a')
    const without = await validateDocument({ formatVersion: 1 })
    assert.isUndefined(without.document!.clients)
  })

  test('unknown keys and wrong types in a client carry their path', async ({ assert }) => {
    const { problems } = await validateDocument({
      formatVersion: 1,
      clients: [{ clientId: 'a', secret: 'x', redirectUris: 'https://a.example/cb' }],
    })
    hasProblem(assert, problems, '$.clients[0].secret', /unknown property 'secret'/)
    hasProblem(assert, problems, '$.clients[0].redirectUris')
  })

  test('defaults of a registration', ({ assert }) => {
    const { settings, problems } = checkRegistration({ clientId: 'c' }, documentPaths('$'))
    assert.deepEqual(problems, [])
    assert.deepEqual(settings, {
      clientId: 'c',
      authenticationMethods: ['client_secret_basic'],
      grantTypes: ['client_credentials'],
      redirectUris: [],
      requireProofKey: true,
      accessTokenFormat: 'reference',
      accessTokenTtl: 300,
      refreshTokenTtl: 86400,
      resourceRoles: [],
      rowLevelRoles: [],
    })
  })

  test('redirect URIs: absolute, no fragment, no script scheme', ({ assert }) => {
    assert.isNull(redirectUriProblem('https://app.example.com/cb?x=1'))
    assert.isNull(redirectUriProblem('http://127.0.0.1:8080/cb'))
    assert.isNull(redirectUriProblem('com.example.app:/oauth2redirect'))
    assert.match(redirectUriProblem('/cb')!, /absolute/)
    assert.match(redirectUriProblem('https://a.example/cb#x')!, /fragment/)
    assert.match(redirectUriProblem('javascript:alert(1)')!, /scheme/)
    assert.match(redirectUriProblem('data:text/html,x')!, /scheme/)
  })

  test('durations longer than 366 days are refused', ({ assert }) => {
    const { problems } = checkRegistration(
      { clientId: 'c', refreshTokenTimeToLive: '367d' },
      documentPaths('$.clients[0]')
    )
    assert.deepEqual(
      problems.map((p) => p.path),
      ['$.clients[0].refreshTokenTimeToLive']
    )
  })
})
