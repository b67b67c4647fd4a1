/**
 * Admin API, the row-level preview of an UNSAVED row-level role (`rowLevelRole` of
 * `POST /admin/api/row-preview`, used by the console's rule editor before saving) and the
 * `userCount` of the role lists. The preview must give exactly what saving the role and
 * assigning it would give the subject's own requests, refuse a rule that does not parse at its
 * path, and change nothing.
 */
import { test } from '@japa/runner'
import { admin, adminState } from '#tests/helpers/admin'
import { DOC, NO_FILTER, rest, setupInspectFixture } from './admin_inspect_fixtures.js'

const startsWith = (value: string) => ({
  conditions: [{ property: 'title', operator: 'startsWith', value }],
})
const draftOf = (code: string | undefined, filter: unknown) => ({
  ...(code === undefined ? {} : { code }),
  policies: [{ entity: DOC, type: 'filter', actions: ['read'], filter }],
})
const titles = (rows: any[]) => rows.map((r) => r.title).sort()

test.group('admin API: row preview of an unsaved row-level role', (group) => {
  group.setup(setupInspectFixture)

  test('an unsaved rule is previewed as saving and assigning it would give, nothing saved', async ({
    assert,
  }) => {
    const before = await adminState()
    const draft = draftOf('a-titles', startsWith('a'))
    const preview = await admin('admin', 'POST', 'row-preview', {
      entity: DOC,
      user: 'bob',
      rowLevelRole: draft,
    })
    assert.equal(preview.status, 200, preview.text)
    assert.isTrue(preview.body.canRead)
    assert.equal(preview.body.count, 3)
    assert.deepEqual(titles(preview.body.rows), ['alpha', 'anon', 'apple'])
    assert.match(preview.body.sql.text, /title/)
    assert.equal(await adminState(), before, 'the preview saves nothing')
    assert.equal(
      Number(
        (await rest('bob', 'GET', `/rest/entities/${DOC}/search/count?filter=${NO_FILTER}`)).text
      ),
      7
    )

    // Save it and assign it: bob's own requests now get what the preview showed.
    assert.equal((await admin('admin', 'POST', 'row-level-roles', draft)).status, 201)
    const assigned = await admin('admin', 'PUT', 'users/bob/roles', { rowLevelRoles: ['a-titles'] })
    assert.equal(assigned.status, 200, assigned.text)
    const own = await rest('bob', 'GET', `/rest/entities/${DOC}?limit=20`)
    assert.deepEqual(titles(own.body), titles(preview.body.rows))
    const count = await rest('bob', 'GET', `/rest/entities/${DOC}/search/count?filter=${NO_FILTER}`)
    assert.equal(Number(count.text), preview.body.count)
  })

  test('the draft replaces the stored role of its code, else it is added to the subject rules', async ({
    assert,
  }) => {
    // alice holds insp-own (owner = her username): two rows.
    const zed = { conditions: [{ property: 'owner', operator: '=', value: 'zed' }] }
    const replaced = await admin('admin', 'POST', 'row-preview', {
      entity: DOC,
      user: 'alice',
      rowLevelRole: draftOf('insp-own', zed),
    })
    assert.equal(replaced.status, 200, replaced.text)
    assert.deepEqual(titles(replaced.body.rows), ['zeta', 'zulu'])
    const added = await admin('admin', 'POST', 'row-preview', {
      entity: DOC,
      user: 'alice',
      rowLevelRole: draftOf(undefined, startsWith('al')),
    })
    assert.equal(added.status, 200, added.text)
    assert.deepEqual(titles(added.body.rows), ['alpha'])
    assert.equal(added.body.count, 1)
    // Placeholders take the previewed subject's values; a client has no username.
    const own = {
      conditions: [{ property: 'owner', operator: '=', value: ':current_user_username' }],
    }
    const daveMine = await admin('admin', 'POST', 'row-preview', {
      entity: DOC,
      user: 'dave',
      rowLevelRole: draftOf('mine', own),
    })
    // dave's token client is the console: insp-by-client (owner = client) AND owner = dave.
    assert.equal(daveMine.body.count, 0)
    const svc = await admin('admin', 'POST', 'row-preview', {
      entity: DOC,
      client: 'insp-svc',
      rowLevelRole: draftOf('mine', own),
    })
    assert.deepEqual([svc.body.count, svc.body.rows], [0, []])
  })

  test('a rule that does not parse is refused at its path; GET cannot carry a draft', async ({
    assert,
  }) => {
    const before = await adminState()
    const nope = { conditions: [{ property: 'nope', operator: '=', value: 1 }] }
    const cases: [unknown, string][] = [
      [draftOf('x', nope), '$.rowLevelRole.policies[0].filter'],
      [
        {
          code: 'x',
          policies: [{ entity: 'insp_Nothing', type: 'filter', actions: ['read'], filter: {} }],
        },
        '$.rowLevelRole.policies[0].entity',
      ],
      [
        { code: 'x', policies: [{ entity: DOC, type: 'filter', actions: ['update'], filter: {} }] },
        '$.rowLevelRole.policies[0].actions',
      ],
      ['not a role', '$.rowLevelRole'],
    ]
    for (const [rowLevelRole, path] of cases) {
      const reply = await admin('admin', 'POST', 'row-preview', {
        entity: DOC,
        user: 'alice',
        rowLevelRole,
      })
      assert.equal(reply.status, 400, reply.text)
      assert.include(
        reply.body.problems.map((p: any) => p.path),
        path,
        JSON.stringify(reply.body)
      )
    }
    const get = await admin('admin', 'GET', `row-preview?entity=${DOC}&user=alice&rowLevelRole=x`)
    assert.equal(get.status, 400)
    assert.include(
      get.body.problems.map((p: any) => p.path),
      'rowLevelRole'
    )
    assert.equal(await adminState(), before)
  })

  test('role lists count the users holding each role', async ({ assert }) => {
    const counts = async (path: string) =>
      Object.fromEntries(
        (await admin('admin', 'GET', path)).body.roles.map((r: any) => [r.code, r.userCount])
      )
    const resource = await counts('resource-roles')
    // insp-reader: alice, dave and anonymous; rest-minimal: the admin actors' `plain` user.
    assert.deepInclude(resource, { 'insp-reader': 3, 'insp-editor': 1, 'rest-minimal': 1 })
    assert.equal(resource['system-admin'], 1)
    const rowLevel = await counts('row-level-roles')
    assert.deepInclude(rowLevel, { 'insp-own': 2, 'insp-by-client': 1 })
    // A listed role may be sent back as it is (userCount is not part of the definition).
    const listed = (await admin('admin', 'GET', 'resource-roles')).body.roles.find(
      (r: any) => r.code === 'insp-editor'
    )
    const put = await admin('admin', 'PUT', 'resource-roles/insp-editor', listed)
    assert.equal(put.status, 200, put.text)
    assert.equal(put.body.status, 'unchanged')
  })
})
