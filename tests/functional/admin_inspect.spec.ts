/**
 * Admin API, effective permissions and the row-level preview: `GET /admin/api/permissions` must
 * answer what `/rest/permissions` answers the inspected user or client with its own token, name
 * the roles behind each grant, and list its row rules; `row-preview` must show the SQL of its
 * read rules and exactly the rows and count its own `/rest/entities` requests get. Read-only:
 * the state is identical after every call, accepted or refused.
 */
import { test } from '@japa/runner'
import { admin, adminState, versionOf } from '#tests/helpers/admin'
import { DOC, NO_FILTER, OWN, ROWS, rest, setupInspectFixture } from './admin_inspect_fixtures.js'

const grantKey = (g: { entity: string; operation?: string; attribute?: string }) =>
  `${g.entity}:${g.operation ?? g.attribute}`

test.group('admin API: effective permissions and row preview', (group) => {
  group.setup(setupInspectFixture)

  test('who may call them: 401 anonymous, 403 plain user and full-access client', async ({
    assert,
  }) => {
    const before = await adminState()
    const calls = [
      ['GET', 'permissions?user=alice'],
      ['GET', `row-preview?entity=${DOC}&user=alice`],
      ['POST', 'row-preview', { entity: DOC, user: 'alice' }],
    ] as const
    for (const [method, path, body] of calls) {
      for (const [actor, status] of [
        ['anonymous', 401],
        ['plain', 403],
        ['fullAccess', 403],
        ['admin', 200],
        ['adminClient', 200],
      ] as const) {
        const reply = await admin(actor, method, path, body)
        assert.equal(reply.status, status, `${actor} ${method} ${path}`)
        if (status !== 200) assert.properties(reply.body, ['error', 'details'])
      }
    }
    assert.equal(await adminState(), before)
  })

  test('permissions equal /rest/permissions with the subject own token, for each kind', async ({
    assert,
  }) => {
    const before = await adminState()
    const version = versionOf(await admin('admin', 'GET', 'definition'))
    for (const [query, who] of [
      ['user=alice', 'alice'],
      ['user=bob', 'bob'],
      ['client=insp-svc', 'insp-svc'],
      ['user=anonymous', 'anonymous'],
    ]) {
      const reply = await admin('admin', 'GET', `permissions?${query}`)
      assert.equal(reply.status, 200, reply.text)
      assert.equal(versionOf(reply), version)
      const own = await rest(who, 'GET', '/rest/permissions')
      assert.equal(own.status, 200, own.text)
      assert.deepEqual(reply.body.permissions, own.body, query)
      assert.equal(reply.body.subject.name, who)
      // Every granted entity operation and attribute is explained, and nothing else.
      assert.deepEqual(
        reply.body.grants.entities.map(grantKey),
        own.body.entities.map((e: any) => e.target)
      )
      assert.deepEqual(
        reply.body.grants.attributes.map(grantKey),
        own.body.entityAttributes.map((e: any) => e.target)
      )
      assert.deepEqual(
        reply.body.grants.specifics.map((s: any) => s.name),
        own.body.specifics.map((s: any) => s.target)
      )
    }
    const client = await admin('admin', 'GET', 'permissions?client=insp-svc')
    assert.deepInclude(client.body.subject, { kind: 'client', active: true })
    const anonymous = await admin('admin', 'GET', 'permissions?user=anonymous')
    assert.deepInclude(anonymous.body.subject, { kind: 'anonymous', rowLevelRoles: ['insp-own'] })
    assert.equal(await adminState(), before)
  })

  test('grants name the assigned role and the child role that holds the policy', async ({
    assert,
  }) => {
    const alice = (await admin('admin', 'GET', 'permissions?user=alice')).body
    assert.deepEqual(alice.subject, {
      kind: 'user',
      name: 'alice',
      active: true,
      tokenClient: 'modelgate-console',
      resourceRoles: ['insp-reader'],
      rowLevelRoles: ['insp-own'],
    })
    const find = (list: any[], key: string) => list.find((g) => grantKey(g) === key)
    assert.deepEqual(find(alice.grants.entities, `${DOC}:read`).roles, [
      { role: 'insp-reader', via: [] },
    ])
    assert.deepEqual(find(alice.grants.attributes, `${DOC}:title`), {
      entity: DOC,
      attribute: 'title',
      level: 'VIEW',
      roles: [{ role: 'insp-reader', via: [] }],
    })
    assert.isUndefined(find(alice.grants.attributes, `${DOC}:secret`))
    assert.deepEqual(alice.grants.specifics, [
      { name: 'rest.enabled', roles: [{ role: 'insp-reader', via: ['rest-minimal'] }] },
    ])
    assert.deepEqual(alice.rowLevel, [
      {
        entity: DOC,
        action: 'read',
        role: 'insp-own',
        type: 'filter',
        filter: OWN,
        invalid: false,
        missingValues: [],
      },
    ])

    const bob = (await admin('admin', 'GET', 'permissions?user=bob')).body
    assert.deepEqual(find(bob.grants.entities, `${DOC}:read`).roles, [
      { role: 'insp-editor', via: [] },
      { role: 'insp-editor', via: ['insp-reader'] },
    ])
    assert.deepEqual(find(bob.grants.entities, `${DOC}:update`).roles, [
      { role: 'insp-editor', via: [] },
    ])
    // MODIFY comes from the editor alone; the reader's VIEW is not the effective level.
    assert.deepEqual(find(bob.grants.attributes, `${DOC}:title`), {
      entity: DOC,
      attribute: 'title',
      level: 'MODIFY',
      roles: [{ role: 'insp-editor', via: [] }],
    })
    assert.equal(find(bob.grants.attributes, `${DOC}:secret`).level, 'MODIFY')
    assert.deepEqual(bob.grants.specifics, [
      {
        name: 'rest.enabled',
        roles: [{ role: 'insp-editor', via: ['insp-reader', 'rest-minimal'] }],
      },
    ])
    assert.deepEqual(bob.rowLevel, [])

    // A client-credentials token has no user: the username rule lets nothing through.
    const svc = (await admin('admin', 'GET', 'permissions?client=insp-svc')).body
    assert.deepEqual(
      svc.rowLevel.map((r: any) => [r.role, r.invalid, r.missingValues]),
      [['insp-own', false, [':current_user_username']]]
    )
    const root = (await admin('admin', 'GET', 'permissions?user=root')).body
    assert.deepEqual(root.grants.specifics.find((s: any) => s.name === 'admin.api').roles, [
      { role: 'system-admin', via: [] },
    ])
  })

  test('row preview: the SQL of the rules, and the count and rows of the subject own reads', async ({
    assert,
  }) => {
    const before = await adminState()
    for (const [query, who, limit] of [
      ['user=alice', 'alice', 20],
      ['user=bob', 'bob', 2],
      ['client=insp-svc', 'insp-svc', 20],
      ['user=anonymous', 'anonymous', 20],
      ['user=dave&tokenClient=insp-svc', 'dave', 20],
    ] as const) {
      const reply = await admin('admin', 'GET', `row-preview?entity=${DOC}&${query}&limit=${limit}`)
      assert.equal(reply.status, 200, reply.text)
      const own = await rest(who, 'GET', `/rest/entities/${DOC}?limit=${limit}`)
      assert.equal(own.status, 200, `${who}: ${own.text}`)
      const count = await rest(who, 'GET', `/rest/entities/${DOC}/search/count?filter=${NO_FILTER}`)
      assert.equal(reply.body.entity, DOC)
      assert.isTrue(reply.body.canRead, query)
      assert.deepEqual(reply.body.rows, own.body, query)
      assert.equal(reply.body.count, Number(count.text), query)
      // Same serializer: decimals keep their scale in the text.
      if (own.body.length) assert.include(reply.text, `"amount":${own.body[0].amount.toFixed(2)}`)
    }
    const alice = (await admin('admin', 'GET', `row-preview?entity=${DOC}&user=alice`)).body
    assert.equal(alice.count, 2)
    assert.sameMembers(
      alice.rows.map((r: any) => r.title),
      ['alpha', 'apple']
    )
    assert.notProperty(alice.rows[0], 'secret', 'an attribute without VIEW is absent')
    assert.match(alice.sql.text, /owner/)
    assert.include(alice.sql.bindings, 'alice')
    const bob = (await admin('admin', 'GET', `row-preview?entity=${DOC}&user=bob`)).body
    assert.isNull(bob.sql, 'no row-level rule: unrestricted')
    assert.equal(bob.count, ROWS.length)
    assert.property(bob.rows[0], 'secret')
    const svc = (await admin('admin', 'GET', `row-preview?entity=${DOC}&client=insp-svc`)).body
    assert.deepEqual([svc.count, svc.rows], [0, []])
    assert.isString(svc.sql.text)
    const dave = await admin(
      'admin',
      'GET',
      `row-preview?entity=${DOC}&user=dave&tokenClient=insp-svc`
    )
    assert.deepEqual(
      dave.body.rows.map((r: any) => r.owner),
      ['insp-svc']
    )
    assert.equal(await adminState(), before)
  })

  test('POST row preview ANDs a filter, as the subject own search does', async ({ assert }) => {
    const before = await adminState()
    const filter = { conditions: [{ property: 'title', operator: 'startsWith', value: 'al' }] }
    const reply = await admin('admin', 'POST', 'row-preview', {
      entity: DOC,
      user: 'alice',
      limit: 5,
      filter,
    })
    assert.equal(reply.status, 200, reply.text)
    const own = await rest('alice', 'POST', `/rest/entities/${DOC}/search`, { filter, limit: 5 })
    assert.deepEqual(reply.body.rows, own.body)
    assert.deepEqual(
      reply.body.rows.map((r: any) => r.title),
      ['alpha']
    )
    assert.equal(reply.body.count, 1)
    assert.match(reply.body.sql.text, /owner/)
    assert.equal(await adminState(), before)
  })

  test('a subject that may not read the entity: canRead false, no rows, not an error', async ({
    assert,
  }) => {
    for (const user of ['carol', 'plain']) {
      const reply = await admin('admin', 'GET', `row-preview?entity=${DOC}&user=${user}`)
      assert.equal(reply.status, 200, reply.text)
      assert.isFalse(reply.body.canRead)
      assert.deepEqual([reply.body.count, reply.body.rows], [0, []])
      assert.isString(reply.body.reason)
    }
    assert.equal((await rest('carol', 'GET', `/rest/entities/${DOC}`)).status, 403)
  })

  test('400 for bad parameters, with the path of each problem', async ({ assert }) => {
    const before = await adminState()
    const cases: [string, string, unknown, string][] = [
      ['GET', 'permissions', undefined, 'user'],
      ['GET', 'permissions?user=alice&client=insp-svc', undefined, 'user'],
      ['GET', 'permissions?user=alice&colour=red', undefined, 'colour'],
      ['GET', 'permissions?client=insp-svc&tokenClient=insp-svc', undefined, 'tokenClient'],
      ['GET', 'permissions?user=anonymous&tokenClient=insp-svc', undefined, 'tokenClient'],
      ['GET', 'permissions?user=', undefined, 'user'],
      ['GET', 'row-preview?user=alice', undefined, 'entity'],
      ['GET', `row-preview?entity=${DOC}`, undefined, 'user'],
      ['GET', `row-preview?entity=${DOC}&user=alice&limit=0`, undefined, 'limit'],
      ['GET', `row-preview?entity=${DOC}&user=alice&limit=abc`, undefined, 'limit'],
      ['GET', `row-preview?entity=${DOC}&user=alice&limit=10001`, undefined, 'limit'],
      ['POST', 'row-preview', [1], '$'],
      ['POST', 'row-preview', { entity: DOC, user: 'alice', limit: 1.5 }, '$.limit'],
      ['POST', 'row-preview', { entity: DOC, user: 'alice', extra: 1 }, '$.extra'],
      ['POST', 'row-preview', { entity: DOC, client: 'insp-svc', user: 'x' }, '$.user'],
      [
        'POST',
        'row-preview',
        {
          entity: DOC,
          user: 'bob',
          filter: { conditions: [{ property: 'nope', operator: '=', value: 1 }] },
        },
        '$.filter',
      ],
      [
        'POST',
        'row-preview',
        {
          entity: DOC,
          user: 'alice',
          filter: { conditions: [{ property: 'secret', operator: '=', value: 'x' }] },
        },
        '$.filter',
      ],
    ]
    for (const [method, path, body, problem] of cases) {
      const reply = await admin('admin', method, path, body)
      assert.equal(reply.status, 400, `${method} ${path} ${JSON.stringify(body)}: ${reply.text}`)
      assert.properties(reply.body, ['error', 'details'])
      assert.include(
        reply.body.problems.map((p: any) => p.path),
        problem,
        `${method} ${path} ${JSON.stringify(body)}`
      )
    }
    assert.equal(await adminState(), before)
  })

  test('404 for an unknown user, client, token client or entity', async ({ assert }) => {
    const before = await adminState()
    for (const [path, what] of [
      ['permissions?user=nobody', "user 'nobody'"],
      ['permissions?client=no-such-client', "client 'no-such-client'"],
      ['permissions?user=alice&tokenClient=no-such-client', "client 'no-such-client'"],
      [`row-preview?entity=${DOC}&user=nobody`, "user 'nobody'"],
      [`row-preview?entity=${DOC}&client=no-such-client`, "client 'no-such-client'"],
      ['row-preview?entity=insp_Nothing&user=alice', "entity 'insp_Nothing'"],
    ]) {
      const reply = await admin('admin', 'GET', path)
      assert.equal(reply.status, 404, path)
      assert.deepEqual(reply.body, { error: 'Not found', details: `${what} not found` })
    }
    const posted = await admin('admin', 'POST', 'row-preview', {
      entity: 'insp_Nothing',
      user: 'x',
    })
    assert.equal(posted.status, 404)
    assert.equal(await adminState(), before)
  })

  test('a role change shows at once in both answers', async ({ assert }) => {
    const unassign = await admin('admin', 'POST', 'definition/apply', {
      formatVersion: 1,
      users: [{ username: 'alice', rowLevelRoles: [] }],
    })
    assert.equal(unassign.status, 200, unassign.text)
    const permissions = (await admin('admin', 'GET', 'permissions?user=alice')).body
    assert.deepEqual(permissions.rowLevel, [])
    assert.deepEqual(permissions.permissions.authorities, ['ROLE_insp-reader'])
    const preview = (await admin('admin', 'GET', `row-preview?entity=${DOC}&user=alice`)).body
    assert.isNull(preview.sql)
    assert.equal(preview.count, ROWS.length)
    const own = await rest('alice', 'GET', `/rest/entities/${DOC}?limit=20`)
    assert.deepEqual(preview.rows, own.body)
  })
})
