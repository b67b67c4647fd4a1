/**
 * Admin API and definition import, the last administrator: a change that would leave no active
 * user holding `admin.api` (system-admin, or a stored role granting it through its child roles)
 * is refused with 422, a problem at the field that takes it away, a `details` that says why,
 * and nothing changed. With another admin in place the same change goes through.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors } from '#tests/helpers/admin'
import { ALICE, create, roleCodes, userRow } from './admin_users_fixtures.js'

test.group('admin API: the last administrator', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
  })

  test('taking the role away, PATCH active:false, deactivate, import: 422, nothing changed', async ({
    assert,
  }) => {
    await create()
    const before = await adminState()
    const refused: [string, string, unknown, string][] = [
      ['PUT', 'users/root/roles', { resourceRoles: ['system-full-access'] }, '$.resourceRoles'],
      ['PATCH', 'users/root', { resourceRoles: [] }, '$.resourceRoles'],
      ['PATCH', 'users/root', { active: false }, '$.active'],
      ['POST', 'users/root/deactivate', undefined, '$.active'],
      ['PUT', 'users/root/roles?dryRun=true', { resourceRoles: [] }, '$.resourceRoles'],
      [
        'POST',
        'definition/apply',
        { formatVersion: 1, users: [{ username: 'root', active: false }] },
        '$.users[0].active',
      ],
    ]
    for (const [method, path, body, problem] of refused) {
      const reply = await admin('admin', method, path, body)
      assert.equal(reply.status, 422, `${method} ${path} ${reply.text}`)
      assert.deepEqual(
        reply.body.problems.map((p: any) => p.path),
        [problem]
      )
      assert.match(
        reply.body.problems[0].message,
        /'root' is the last active user with the admin role/
      )
    }
    const put = await admin('admin', 'PUT', 'users/root/roles', { resourceRoles: [] })
    assert.match(put.body.details, /last active user.*system-admin.*nothing was changed/)
    assert.equal(await adminState(), before)
    assert.isTrue(Boolean((await userRow('root')).active))
    assert.deepEqual(await roleCodes('mg_user_resource_roles', 'root'), [
      'system-admin',
      'system-full-access',
    ])
  })

  test('another admin (directly or through a child role) lets it through, then is the last', async ({
    assert,
  }) => {
    await create({ ...ALICE, resourceRoles: ['rest-minimal', 'system-admin'] })
    const off = await admin('admin', 'PUT', 'users/root/roles', { resourceRoles: ['rest-minimal'] })
    assert.equal(off.status, 200, off.text)
    // alice is the last one now (root's token has no admin policy any more: the client acts).
    const last = await admin('adminClient', 'POST', 'users/alice/deactivate')
    assert.equal(last.status, 422, last.text)
    assert.equal(last.body.problems[0].path, '$.active')
    assert.isTrue(Boolean((await userRow('alice')).active))

    await admin('adminClient', 'POST', 'resource-roles', {
      code: 'ops',
      childRoles: ['system-admin'],
    })
    const viaChild = await admin('adminClient', 'PUT', 'users/root/roles', {
      resourceRoles: ['ops'],
    })
    assert.equal(viaChild.status, 200, viaChild.text)
    const now = await admin('adminClient', 'POST', 'users/alice/deactivate')
    assert.equal(now.status, 200, now.text)
    const lastOps = await admin('adminClient', 'PUT', 'users/root/roles', { resourceRoles: [] })
    assert.equal(lastOps.status, 422, lastOps.text)
    assert.deepEqual(await roleCodes('mg_user_resource_roles', 'root'), ['ops'])

    // A new admin in the same document makes room for the change.
    const swap = await admin('adminClient', 'POST', 'definition/apply', {
      formatVersion: 1,
      users: [
        { username: 'root', active: false },
        { username: 'bob', password: 'Bob-passw0rd!', resourceRoles: ['system-admin'] },
      ],
    })
    assert.equal(swap.status, 200, swap.text)
    assert.isFalse(Boolean((await userRow('root')).active))
  })
})
