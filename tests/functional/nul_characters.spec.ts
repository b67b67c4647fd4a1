/**
 * NUL characters (U+0000) are a 400 in each endpoint's own shape, with nothing written, on both
 * databases (issue 19, item 2; PostgreSQL answered 500): filter values, string attributes on
 * create and update, client ids at the OAuth endpoints (form and Basic), definition documents.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { applyDoc } from '#tests/helpers/engine'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { baseUrl, oauthState } from '#tests/helpers/oauth'
import { admin, adminState, setupAdminActors } from '#tests/helpers/admin'

const NUL = '\u0000'
const E = '/rest/entities/nul_Memo'
let token = ''

async function send(method: string, path: string, body?: unknown, headers = {}) {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let json: any = text
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: response.status, body: json, text }
}

const form = (path: string, fields: Record<string, string>, headers = {}) =>
  fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  })

const rows = async () => JSON.stringify(await db.from('nul_memo').orderBy('id'))

test.group('NUL characters', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await applyDoc({
      entities: [{ name: 'nul_Memo', attributes: [{ name: 'text', type: 'string' }] }],
    })
    await db.table('nul_memo').insert({ id: '00000000-0000-4000-8000-0000000000a1', text: 'x' })
    token = (await accessToken(await makeClient())).token
    await setupAdminActors()
  })

  test('filter values: 400 {error, details}', async ({ assert }) => {
    for (const operator of ['=', 'contains', 'startsWith']) {
      const filter = { conditions: [{ property: 'text', operator, value: `a${NUL}b` }] }
      const get = await send(
        'GET',
        `${E}/search?filter=${encodeURIComponent(JSON.stringify(filter))}`
      )
      assert.equal(get.status, 400, operator)
      assert.properties(get.body, ['error', 'details'])
      const post = await send('POST', `${E}/search`, { filter })
      assert.equal(post.status, 400, operator)
    }
  })

  test('string attributes on create and update: 400, nothing written', async ({ assert }) => {
    const before = await rows()
    const create = await send('POST', E, { text: `a${NUL}b` })
    assert.equal(create.status, 400)
    assert.properties(create.body, ['error', 'details'])
    const update = await send('PUT', `${E}/00000000-0000-4000-8000-0000000000a1`, {
      text: `a${NUL}`,
    })
    assert.equal(update.status, 400)
    assert.equal(await rows(), before)
  })

  test('OAuth endpoints: invalid_request for a client id with NUL (form and Basic)', async ({
    assert,
  }) => {
    const before = await oauthState()
    const id = `svc${NUL}`
    const basic = 'Basic ' + Buffer.from(`${encodeURIComponent(id)}:secret`).toString('base64')
    for (const path of ['/oauth2/token', '/oauth2/revoke', '/oauth2/introspect']) {
      for (const response of [
        await form(path, { grant_type: 'client_credentials', client_id: id, token: 't' }),
        await form(
          path,
          { grant_type: 'client_credentials', token: 't' },
          { authorization: basic }
        ),
      ]) {
        assert.equal(response.status, 400, path)
        assert.equal(((await response.json()) as any).error, 'invalid_request', path)
      }
    }
    const authorize = await fetch(
      `${baseUrl()}/oauth2/authorize?response_type=code&client_id=${encodeURIComponent(id)}`,
      { redirect: 'manual' }
    )
    assert.equal(authorize.status, 400)
    assert.include(await authorize.text(), 'invalid_request')
    assert.deepEqual(await oauthState(), before)
  })

  test('definition documents: a problem with its path (JSON and YAML)', async ({ assert }) => {
    const before = await adminState()
    const doc = {
      formatVersion: 1,
      entities: [{ name: 'nul_Memo', description: `a${NUL}`, attributes: [] }],
    }
    const json = await admin('admin', 'POST', 'definition/plan', doc)
    assert.equal(json.status, 400)
    const yaml = await admin(
      'admin',
      'POST',
      'definition/apply',
      'formatVersion: 1\nentities:\n  - name: nul_Memo\n    description: "a\\0b"\n    attributes: []\n',
      { 'Content-Type': 'application/yaml' }
    )
    assert.equal(yaml.status, 422)
    assert.deepEqual(yaml.body.problems, [
      { path: '$.entities[0].description', message: 'must not contain NUL characters' },
    ])
    assert.equal(await adminState(), before)
  })
})
