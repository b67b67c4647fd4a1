/**
 * Spec 5.6: a request that runs as `anonymous` through an anonymous URL pattern needs only the
 * entity rights of the anonymous user's roles, not `rest.enabled` (`rest-minimal`); every other
 * subject still needs it (issue 19, item 0).
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { resetDatabase } from '#tests/helpers/database'
import { importDoc } from '#tests/helpers/engine'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { baseUrl } from '#tests/helpers/oauth'

const READER = {
  code: 'board-reader',
  entityPolicies: [{ entity: 'anon_Notice', actions: ['read'] }],
  attributePolicies: [{ entity: 'anon_Notice', attributes: ['*'], action: 'VIEW' }],
}

async function get(path: string, token?: string) {
  const response = await fetch(`${baseUrl()}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

test.group('anonymous access without rest.enabled', (group) => {
  group.setup(async () => {
    await resetDatabase()
    await User.create({ username: 'anonymous', active: true })
    const result = await importDoc({
      entities: [
        { name: 'anon_Notice', attributes: [{ name: 'text', type: 'string' }] },
        { name: 'anon_Secret', attributes: [{ name: 'text', type: 'string' }] },
      ],
      resourceRoles: [READER],
      users: [
        { username: 'anonymous', resourceRoles: ['board-reader'] },
        { username: 'walker', password: 'S3cret-passw0rd', resourceRoles: ['board-reader'] },
      ],
      settings: { 'svc.rest.anonymous-url-patterns': '/rest/entities/**' },
    })
    if (result.status !== 'applied') throw new Error(JSON.stringify(result.problems))
    await db.table('anon_notice').insert({ id: '00000000-0000-4000-8000-00000000a0a1', text: 'hi' })
  })

  test('an opened URL answers with the entity rights alone', async ({ assert }) => {
    const list = await get('/rest/entities/anon_Notice')
    assert.equal(list.status, 200)
    assert.deepEqual(
      list.body.map((n: any) => n.text),
      ['hi']
    )
    const other = await get('/rest/entities/anon_Secret')
    assert.equal(other.status, 403)
    assert.equal(other.body.error, 'Reading forbidden')
  })

  test('a signed-in user with the same role still needs rest.enabled', async ({ assert }) => {
    const client = await makeClient({ resourceRoles: [] })
    const walker = await User.findByOrFail('username', 'walker')
    const { token } = await accessToken(client, walker)
    const list = await get('/rest/entities/anon_Notice', token)
    assert.equal(list.status, 403)
    assert.deepEqual(list.body, {
      error: 'Forbidden',
      details: 'User is not allowed to use the REST API',
    })
  })
})
