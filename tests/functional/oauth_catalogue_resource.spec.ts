/**
 * Security test catalogue OA30-OA35 end to end: tokens from the real token endpoint used on the
 * data API (GET /rest/userInfo). The resource server's own suite (resource_server.spec.ts) covers
 * the same rows in depth with tokens written to the database; these prove the two halves fit.
 */
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import { resetDatabase } from '#tests/helpers/database'
import { baseUrl, createClient, oauthState } from '#tests/helpers/oauth'
import { basic, fixture, post, tokenRequest, type Fixture } from '#tests/helpers/oauth_catalogue'

let fx: Fixture
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const challenge = (description: string) =>
  `Bearer realm="modelgate", error="invalid_token", error_description="${description}"`

async function token(clientId = 'svc', secret = fx.svc.secret!) {
  const response = await tokenRequest({ grant_type: 'client_credentials' }, basic(clientId, secret))
  if (response.status !== 200) throw new Error(response.text)
  return response.body.access_token as string
}

function userInfo(headers: Record<string, string> = {}, query = '') {
  return fetch(`${baseUrl()}/rest/userInfo${query}`, { headers })
}

/** 401 with the exact challenge, the token not echoed, nothing changed. */
async function expect401(
  assert: Assert,
  send: () => Promise<Response>,
  wwwAuthenticate: string,
  secret?: string
) {
  const before = await oauthState()
  const response = await send()
  const text = await response.text()
  assert.equal(response.status, 401, text)
  assert.equal(response.headers.get('www-authenticate'), wwwAuthenticate)
  assert.equal(JSON.parse(text).error, 'unauthorized')
  if (secret) assert.notInclude(`${text} ${[...response.headers].join(' ')}`, secret)
  assert.deepEqual(await oauthState(), before)
}

test.group('catalogue OA30-OA35: bearer tokens on the data API', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    fx = await fixture()
  })

  test('OA30 ?access_token=<valid> is not accepted', async ({ assert }) => {
    const valid = await token()
    const inUrl =
      'Access tokens are accepted only in the Authorization header, not in the query string or form body'
    await expect401(assert, () => userInfo({}, `?access_token=${valid}`), challenge(inUrl), valid)
  })

  // Catalogue: 400 invalid_request. The resource server refuses any token in the URL with its
  // 401 (app/oauth/README.md, rule 4), also next to a valid header.
  test('OA31 token in the header and in the query at once: 400 invalid_request', async ({
    assert,
  }) => {
    const valid = await token()
    const before = await oauthState()
    const response = await userInfo({ authorization: `Bearer ${valid}` }, `?access_token=${valid}`)
    assert.equal(response.status, 400)
    const description =
      'The access token was sent in more than one way; use only the Authorization header'
    assert.equal(
      response.headers.get('www-authenticate'),
      `Bearer realm="modelgate", error="invalid_request", error_description="${description}"`
    )
    assert.deepEqual(await response.json(), {
      error: 'invalid_request',
      error_description: description,
    })
    assert.deepEqual(await oauthState(), before)
  })

  test('OA32 expired token (2 s lifetime): 401 invalid_token', async ({ assert }) => {
    const short = await createClient({ clientId: 'short', accessTokenTtl: 2 })
    const expiring = await token('short', short.secret)
    assert.equal((await userInfo({ authorization: `Bearer ${expiring}` })).status, 200)
    await sleep(2100)
    await expect401(
      assert,
      () => userInfo({ authorization: `Bearer ${expiring}` }),
      challenge('The access token has expired')
    )
  })

  test('OA33 bearer in lower case and two spaces accepted; no token or Basic refused', async ({
    assert,
  }) => {
    const valid = await token()
    for (const header of [`bearer ${valid}`, `Bearer  ${valid}`, `BEARER ${valid}`])
      assert.equal((await userInfo({ authorization: header })).status, 200, header)
    await expect401(
      assert,
      () => userInfo({ authorization: 'Bearer' }),
      challenge('Bearer token is malformed')
    )
    await expect401(
      assert,
      () => userInfo({ authorization: basic('svc', fx.svc.secret!) }),
      challenge('Only the Bearer authorization scheme is accepted')
    )
  })

  test('OA34 no credentials: 401 with a realm and no error attribute', async ({ assert }) => {
    await expect401(assert, () => userInfo(), 'Bearer realm="modelgate"')
  })

  test('OA35 revoked through /oauth2/revoke: 401 on the very next request', async ({ assert }) => {
    const valid = await token()
    assert.equal((await userInfo({ authorization: `Bearer ${valid}` })).status, 200)
    const revoked = await post(
      '/oauth2/revoke',
      { token: valid },
      { authorization: basic('svc', fx.svc.secret!) }
    )
    assert.equal(revoked.status, 200)
    await expect401(
      assert,
      () => userInfo({ authorization: `Bearer ${valid}` }),
      challenge('The access token has been revoked')
    )
  })
})
