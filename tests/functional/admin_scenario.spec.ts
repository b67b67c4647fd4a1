/**
 * The admin API end to end, through HTTP only (issue 16, "Must show"): an administrator creates
 * an entity with attributes and a relation (plan, then apply), adds a role and a user with that
 * role, creates a client and obtains a token with client credentials, opens a URL pattern to
 * anonymous callers and edits a translation — and sees each change in the public /rest API at
 * once, with one audit entry per change.
 */
import { test } from '@japa/runner'
import * as oauth from 'oauth4webapi'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminTokens, setupAdminActors, versionOf, type Reply } from '#tests/helpers/admin'
import {
  authorizeThroughLogin,
  baseUrl,
  clientCredentialsTokens,
  discover,
  insecure,
} from '#tests/helpers/oauth'

const REDIRECT = 'http://127.0.0.1:9/callback'

async function rest(path: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl()}${path}`, {
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

test.group('admin API: a full scenario over HTTP', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('model, role, user, client, anonymous access and a translation, each live at once', async ({
    assert,
  }) => {
    const audits: Reply[] = []
    let version = versionOf(await admin('admin', 'GET', 'definition'))
    /** A change with If-Match of the last version seen: each one moves the version by one. */
    const change = async (method: string, path: string, body: unknown, expected = 200) => {
      const reply = await admin('admin', method, path, body, { 'If-Match': `"${version}"` })
      assert.equal(reply.status, expected, `${method} ${path}: ${reply.text}`)
      assert.equal(versionOf(reply), version + 1, `${method} ${path}`)
      version = versionOf(reply)
      audits.push(reply)
      return reply
    }

    // 1. An entity with attributes and a relation: plan first (nothing changes), then apply.
    await admin('admin', 'POST', 'definition/apply', {
      formatVersion: 1,
      entities: [{ name: 'sc_Author', attributes: [{ name: 'name', type: 'string' }] }],
    })
    version = versionOf(await admin('admin', 'GET', 'definition'))
    const book = {
      name: 'sc_Book',
      attributes: [
        { name: 'title', type: 'string', length: 100, mandatory: true },
        { name: 'pages', type: 'int', min: 1 },
        { name: 'author', type: 'association', cardinality: 'MANY_TO_ONE', target: 'sc_Author' },
      ],
    }
    const plan = await admin('admin', 'POST', 'entities?dryRun=true', book)
    assert.equal(plan.status, 200, plan.text)
    assert.equal(plan.body.status, 'dry-run')
    assert.match(plan.body.steps.flatMap((s: any) => s.sql).join('\n'), /sc_book/)
    assert.equal((await rest('/rest/entities/sc_Book', await adminToken())).status, 404)
    await change('POST', 'entities', book, 201)
    const created = await rest('/rest/metadata/entities/sc_Book', await adminToken())
    assert.equal(created.status, 200)
    assert.includeMembers(
      created.body.properties.map((p: any) => p.name),
      ['title', 'pages', 'author']
    )

    // 2. A role that reads books, and a user holding it.
    await change(
      'POST',
      'resource-roles',
      {
        code: 'sc-reader',
        childRoles: ['rest-minimal'],
        entityPolicies: [{ entity: 'sc_Book', actions: ['read'] }],
        attributePolicies: [{ entity: 'sc_Book', attributes: ['*'], action: 'VIEW' }],
      },
      201
    )
    await change(
      'POST',
      'users',
      { username: 'reader', password: 'S3cret-passw0rd', resourceRoles: ['sc-reader'] },
      201
    )

    // 3. A client; a token with client credentials; the user's token through the login form.
    const client = await change(
      'POST',
      'clients',
      {
        clientId: 'sc-sync',
        grantTypes: ['client_credentials'],
        resourceRoles: ['sc-reader'],
      },
      201
    )
    const as = await discover()
    const secret = client.body.secret ?? client.body.secrets?.[0]?.secret
    assert.isString(secret)
    const clientToken = (await clientCredentialsTokens(as, 'sc-sync', secret)).access_token
    assert.equal((await rest('/rest/entities/sc_Book', clientToken)).status, 200)
    assert.equal((await rest('/rest/entities/sc_Author', clientToken)).status, 403)

    await change(
      'POST',
      'clients',
      {
        clientId: 'sc-web',
        authenticationMethods: ['none'],
        grantTypes: ['authorization_code'],
        redirectUris: [REDIRECT],
      },
      201
    )
    const userToken = await signIn(as, 'sc-web', 'reader', 'S3cret-passw0rd')
    assert.equal((await rest('/rest/entities/sc_Book', userToken)).status, 200)
    assert.equal((await rest('/rest/userInfo', userToken)).body.username, 'reader')

    // 4. Anonymous callers may read books: the anonymous user's role, then the URL pattern.
    assert.equal((await rest('/rest/entities/sc_Book')).status, 401)
    await change('PUT', 'users/anonymous/roles', { resourceRoles: ['sc-reader'] })
    await change('PUT', 'settings/svc.rest.anonymous-url-patterns', {
      value: '/rest/entities/sc_Book/**',
    })
    assert.equal((await rest('/rest/entities/sc_Book')).status, 200)

    // 5. A translation, shown by the messages API in that locale.
    await change('PUT', 'settings/svc.core.available-locales', { value: 'en,de' })
    await change('PUT', 'messages/de', { 'sc_Book.title': 'Titel' })
    const messages = await rest('/rest/messages/entities/sc_Book', userToken, {
      'Accept-Language': 'de',
    })
    assert.equal(messages.body['sc_Book.title'], 'Titel')

    // One audit entry per change, newest first, each naming the admin.
    const trail = await admin('admin', 'GET', `audit?author=root&limit=${audits.length}`)
    assert.equal(trail.status, 200)
    assert.lengthOf(trail.body.entries, audits.length)
    assert.deepEqual(
      trail.body.entries.map((e: any) => e.definitionVersion),
      audits.map(versionOf).reverse()
    )
  }).timeout(60000)
})

/** The admin user's token (it also holds system-full-access: it may read /rest). */
const adminToken = async () => adminTokens.get('admin')!

/** A user token through /oauth2/authorize, the login form and the code exchange (PKCE). */
async function signIn(
  as: oauth.AuthorizationServer,
  clientId: string,
  username: string,
  password: string
) {
  const verifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const flow = await authorizeThroughLogin({
    clientId,
    redirectUri: REDIRECT,
    username,
    password,
    codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
    state,
  })
  const client = { client_id: clientId }
  const params = oauth.validateAuthResponse(as, client, flow.callback, state)
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    REDIRECT,
    verifier,
    insecure
  )
  return (await oauth.processAuthorizationCodeResponse(as, client, response)).access_token
}
