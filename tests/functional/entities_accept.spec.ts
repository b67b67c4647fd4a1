/**
 * Content negotiation of the JSON endpoints (reference 1: `produces=application/json`): an
 * incompatible `Accept` is a 406 after authentication and routing, before the body is read;
 * wildcards, parameters, q-values and browser lists pass; the endpoints that produce something
 * else (files, version) and OPTIONS are untouched.
 */
import { test } from '@japa/runner'
import { E, IDS, currentToken, loadDemo, seedBasics } from '#tests/helpers/entities_read'
import { bearer, raw } from '#tests/helpers/resource_server'
import { clearStorage, download as downloadFile, uploadRaw } from '#tests/helpers/files'

const NOT_ACCEPTABLE = {
  error: 'Not acceptable',
  details: 'This resource produces application/json, which the Accept header does not allow',
}
const call = (path: string, accept: string | undefined, method = 'GET', body?: string) =>
  raw(path, {
    method,
    headers: {
      ...bearer(currentToken()),
      ...(accept === undefined ? {} : { Accept: accept }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body,
  })

test.group('REST API: Accept', (group) => {
  group.setup(async () => {
    await loadDemo()
    await seedBasics()
    await clearStorage()
  })

  test('406 for an Accept application/json does not satisfy', async ({ assert }) => {
    const cases: [string, string, string?][] = [
      [`${E}/bookstore_Customer/${IDS.alice}`, 'text/html'],
      [`${E}/bookstore_Customer`, 'text/plain'],
      [`${E}/bookstore_Customer`, 'application/xml, text/html;q=0.9'],
      [`${E}/bookstore_Customer/search/count?filter={}`, 'text/plain'],
      // Before the body is read: even a malformed one.
      [`${E}/bookstore_Customer/search`, 'text/html', '{not json'],
      ['/rest/metadata/entities', 'text/html'],
      ['/rest/messages/entities', 'text/html'],
      ['/rest/userInfo', 'application/xml'],
      ['/rest/permissions', 'text/html'],
      ['/rest/capabilities', 'text/html'],
    ]
    for (const [path, accept, body] of cases) {
      const response = await call(path, accept, body === undefined ? 'GET' : 'POST', body)
      assert.equal(response.status, 406, `${path} ${accept}`)
      assert.match(response.headers['content-type']!, /^application\/json/)
      assert.deepEqual(response.body, NOT_ACCEPTABLE, path)
    }
    const head = await call(`${E}/bookstore_Customer/${IDS.alice}`, 'text/html', 'HEAD')
    assert.equal(head.status, 406)
    assert.equal(head.text, '')
  })

  test('absent, empty, wildcards, parameters, q-values and browser lists pass', async ({
    assert,
  }) => {
    for (const accept of [
      undefined,
      '',
      '*/*',
      'application/*',
      'application/json',
      'APPLICATION/JSON',
      'application/json;charset=UTF-8',
      'application/json; q=0.9, text/plain; q=0.5',
      'text/plain, application/*+json',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    ]) {
      const response = await call(`${E}/bookstore_Customer/${IDS.alice}`, accept)
      assert.equal(response.status, 200, String(accept))
      assert.equal(response.headers['content-type'], 'application/json;charset=UTF-8')
      assert.equal(response.body.name, 'Alice')
    }
  })

  test('401, 404, 405 and OPTIONS come first; other endpoints are untouched', async ({
    assert,
  }) => {
    const anonymous = await raw(`${E}/bookstore_Customer`, { headers: { Accept: 'text/html' } })
    assert.equal(anonymous.status, 401)
    assert.match(anonymous.headers['www-authenticate']!, /^Bearer/)

    const missing = await call('/rest/nothing/here', 'text/html')
    assert.equal(missing.status, 404)
    assert.deepEqual(missing.body, {
      error: 'Not found',
      details: 'No resource at /rest/nothing/here',
    })
    const patch = await call(`${E}/bookstore_Customer/${IDS.alice}`, 'text/html', 'PATCH')
    assert.equal(patch.status, 405)
    assert.equal(patch.body.error, 'Method not allowed')
    const options = await call(`${E}/bookstore_Customer`, 'text/html', 'OPTIONS')
    assert.equal(options.status, 200)
    assert.include(options.headers.allow!, 'GET')

    const version = await call('/rest/version', 'text/html')
    assert.equal(version.status, 200)
    assert.match(version.headers['content-type']!, /^text\/plain/)

    // Files: a download answers with the file's own type.
    const bytes = Buffer.from('png bytes')
    const upload = await uploadRaw(currentToken(), bytes, { name: 'cover.png' })
    assert.equal(upload.status, 201, upload.text)
    const download = await downloadFile(currentToken(), upload.body.fileRef, {
      headers: { Accept: 'image/png' },
    })
    assert.equal(download.status, 200, download.text)
    assert.equal(download.headers['content-type'], 'image/png')
    assert.deepEqual(download.bytes, bytes)
  })
})
