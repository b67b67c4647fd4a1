/**
 * Admin API, the URL tester (`GET/POST /admin/api/url-test`): which pattern of which list decides
 * a request target, whether a token is needed and as whom an anonymous request runs, computed by
 * the resource server's own code. The oracle is the server itself: what the tester says must be
 * what a real request without a token gets. Candidate lists are evaluated without being stored,
 * each entry checked with the property's rules; every call is read-only.
 */
import { test } from '@japa/runner'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors } from '#tests/helpers/admin'
import { raw } from '#tests/helpers/resource_server'

const ANONYMOUS = 'svc.resource-server.anonymous-url-patterns'
const LEGACY = 'svc.rest.anonymous-url-patterns'
const AUTHENTICATED = 'svc.resource-server.authenticated-url-patterns'
const urlTest = (path: string, method = 'GET') =>
  admin('admin', 'GET', `url-test?method=${method}&path=${encodeURIComponent(path)}`)

test.group('admin API: URL tester', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    const setup = await admin('admin', 'POST', 'definition/apply', {
      formatVersion: 1,
      entities: [{ name: 'adm_Note', attributes: [{ name: 'title', type: 'string' }] }],
      resourceRoles: [
        {
          code: 'note-reader',
          entityPolicies: [{ entity: 'adm_Note', actions: ['read'] }],
          attributePolicies: [{ entity: 'adm_Note', attributes: ['*'], action: 'VIEW' }],
        },
      ],
      users: [{ username: 'anonymous', resourceRoles: ['note-reader'] }],
    })
    if (setup.status !== 200) throw new Error(setup.text)
  })

  test('who may call it: 401 anonymous, 403 plain user and full-access client', async ({
    assert,
  }) => {
    for (const [actor, status] of [
      ['anonymous', 401],
      ['plain', 403],
      ['fullAccess', 403],
      ['adminClient', 200],
    ] as const) {
      const get = await admin(actor, 'GET', 'url-test?path=/rest/entities/adm_Note')
      assert.equal(get.status, status, `${actor} GET`)
      const post = await admin(actor, 'POST', 'url-test', { path: '/rest/entities/adm_Note' })
      assert.equal(post.status, status, `${actor} POST`)
    }
  })

  test('the lists in force: the deciding pattern, the token, the route', async ({ assert }) => {
    const rest = await urlTest('/rest/entities/adm_Note?limit=1')
    assert.equal(rest.status, 200, rest.text)
    assert.deepInclude(rest.body, {
      method: 'GET',
      path: '/rest/entities/adm_Note?limit=1',
      normalizedPath: '/rest/entities/adm_Note',
      kind: 'authenticated',
      anonymous: null,
      authenticated: { pattern: '/rest/**', property: AUTHENTICATED },
      tokenRequired: true,
      runsAs: null,
      rejected: null,
      candidate: false,
      route: '/rest/entities/:entity',
    })
    assert.deepEqual(rest.body.patterns, {
      [ANONYMOUS]: [],
      [LEGACY]: [],
      [AUTHENTICATED]: ['/rest/**'],
    })

    const consolePage = await urlTest('/console/settings')
    assert.include(consolePage.body, { kind: 'open', tokenRequired: false, authenticated: null })
    // The decision does not depend on the method; the route does.
    const post = await urlTest('/rest/entities/adm_Note', 'post')
    assert.include(post.body, {
      method: 'POST',
      kind: 'authenticated',
      route: '/rest/entities/:entity',
    })
    const none = await urlTest('/rest/entities/adm_Note', 'PATCH')
    assert.isNull(none.body.route)
  })

  test('a stored anonymous pattern: anonymous wins, runs as anonymous with its roles, and a real request agrees', async ({
    assert,
  }) => {
    const before = await urlTest('/rest/entities/adm_Note')
    assert.isTrue(before.body.tokenRequired)
    assert.equal((await raw('/rest/entities/adm_Note')).status, 401)

    const stored = await admin('admin', 'PUT', `settings/${ANONYMOUS}`, {
      value: ['/rest/entities/adm_Note', '/rest/entities/adm_Note/**'],
    })
    assert.equal(stored.status, 200, stored.text)
    const after = await urlTest('/rest/entities/adm_Note')
    assert.deepInclude(after.body, {
      kind: 'anonymous',
      anonymous: { pattern: '/rest/entities/adm_Note', property: ANONYMOUS },
      authenticated: { pattern: '/rest/**', property: AUTHENTICATED },
      tokenRequired: false,
      runsAs: { user: 'anonymous', resourceRoles: ['note-reader'], rowLevelRoles: [] },
    })
    assert.equal((await raw('/rest/entities/adm_Note')).status, 200)

    const legacy = await admin('admin', 'PUT', `settings/${LEGACY}`, { value: '/rest/userInfo' })
    assert.equal(legacy.status, 200, legacy.text)
    const info = await urlTest('/rest/userInfo')
    assert.deepEqual(info.body.anonymous, { pattern: '/rest/userInfo', property: LEGACY })
  })

  test('the tester and the resource server agree on every kind of target', async ({ assert }) => {
    await admin('admin', 'PUT', `settings/${ANONYMOUS}`, { value: ['/rest/entities/adm_Note/**'] })
    await admin('admin', 'PUT', `settings/${AUTHENTICATED}`, { value: ['/rest/**', '/files/*'] })
    const targets = [
      '/rest/entities/adm_Note',
      '/rest/entities/adm_Note/',
      '/rest/entities/adm_note',
      '/REST/entities/other',
      '/r%65st/entities/other',
      '/rest/entities/%61dm_Note',
      '/rest/entities/adm_Note?access=1',
      '/rest/metadata/entities',
      '/files/a',
      '/health',
      '/console/',
      '//rest/x',
      '/rest/./x',
      '/rest/x;jsessionid=1',
      '/rest/%2e%2e/x',
      `/rest/${'a'.repeat(4100)}`,
    ]
    for (const target of targets) {
      const told = await admin('admin', 'POST', 'url-test', { path: target })
      assert.equal(told.status, 200, `${target}: ${told.text}`)
      const real = await raw(target)
      if (told.body.kind === 'rejected') {
        assert.equal(real.status, told.body.rejected.status, target)
        assert.isNull(told.body.normalizedPath)
      } else if (told.body.tokenRequired) assert.equal(real.status, 401, target)
      else assert.notEqual(real.status, 401, target)
      if (told.body.kind === 'anonymous') assert.equal(real.status, 200, target)
    }
    const upper = await admin('admin', 'POST', 'url-test', { path: '/REST/entities/other' })
    assert.deepEqual(upper.body.authenticated, { pattern: '/rest/**', property: AUTHENTICATED })
    const escaped = await admin('admin', 'POST', 'url-test', { path: '/rest/entities/%61dm_Note' })
    assert.include(escaped.body, { canonical: false, kind: 'authenticated', anonymous: null })
  })

  test('candidate lists are tested without being stored', async ({ assert }) => {
    const before = await adminState()
    const reply = await admin('admin', 'POST', 'url-test', {
      method: 'GET',
      path: '/rest/entities/adm_Note/1',
      patterns: {
        [ANONYMOUS]: ['/rest/entities/adm_Note/**'],
        [AUTHENTICATED]: '/rest/**, /files/*',
      },
    })
    assert.equal(reply.status, 200, reply.text)
    assert.include(reply.body, { candidate: true, kind: 'anonymous', tokenRequired: false })
    assert.deepEqual(reply.body.anonymous, {
      pattern: '/rest/entities/adm_Note/**',
      property: ANONYMOUS,
    })
    assert.deepEqual(reply.body.patterns[LEGACY], [])
    assert.deepEqual(reply.body.patterns[AUTHENTICATED], ['/rest/**', '/files/*'])
    assert.equal(await adminState(), before)
    assert.equal((await raw('/rest/entities/adm_Note/1')).status, 401)
  })

  test('bad requests: a path per problem, one per refused candidate entry', async ({ assert }) => {
    const before = await adminState()
    const cases: [unknown, string[]][] = [
      [{}, ['$.path']],
      [{ path: '/x', method: 'TRACE' }, ['$.method']],
      [{ path: '/x', extra: 1 }, ['$.extra']],
      [
        {
          path: '/x',
          patterns: { [ANONYMOUS]: ['/ok/**', '/**', 'no-slash'], [AUTHENTICATED]: ['/a b'] },
        },
        [
          `$.patterns['${ANONYMOUS}'][1]`,
          `$.patterns['${ANONYMOUS}'][2]`,
          `$.patterns['${AUTHENTICATED}'][0]`,
        ],
      ],
      [
        { path: '/x', patterns: { 'svc.cors.allowed-origins': ['*'] } },
        ["$.patterns['svc.cors.allowed-origins']"],
      ],
      [{ path: '/x', patterns: { [LEGACY]: '**' } }, [`$.patterns['${LEGACY}']`]],
      [{ path: '/x', patterns: [] }, ['$.patterns']],
      [[], ['$']],
    ]
    for (const [body, paths] of cases) {
      const reply = await admin('admin', 'POST', 'url-test', body)
      assert.equal(reply.status, 400, JSON.stringify(body))
      assert.equal(reply.body.error, 'Bad request')
      assert.deepEqual(
        reply.body.problems.map((p: any) => p.path),
        paths,
        JSON.stringify(body)
      )
    }
    const anonymousAll = await admin('admin', 'POST', 'url-test', {
      path: '/x',
      patterns: { [ANONYMOUS]: ['/**'] },
    })
    assert.match(anonymousAll.body.problems[0].message, /open every URL/)
    const query = await admin('admin', 'GET', 'url-test?path=/x&nope=1')
    assert.equal(query.status, 400)
    assert.deepEqual(query.body.problems, [{ path: 'nope', message: "unknown parameter 'nope'" }])
    assert.equal((await admin('admin', 'GET', 'url-test')).status, 400)
    assert.equal(await adminState(), before)
  })
})
