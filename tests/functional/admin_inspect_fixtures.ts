/**
 * Fixture of tests/functional/admin_inspect.spec.ts: an entity with rows, a resource role with a
 * child role (and one above it), row-level roles on `:current_user_username` and
 * `:current_client_id`, users, the anonymous user and a client, all set up through the admin
 * API; and each subject's own token for comparing with what the admin API says of it.
 */
import db from '@adonisjs/lucid/services/db'
import OAuthClient from '#models/oauth_client'
import User from '#models/user'
import { resetDatabase } from '#tests/helpers/database'
import { admin, setupAdminActors } from '#tests/helpers/admin'
import { accessToken, makeClient, raw, sendJson } from '#tests/helpers/resource_server'

export const DOC = 'insp_Doc'
export const OWN = {
  conditions: [{ property: 'owner', operator: '=', value: ':current_user_username' }],
}
const BY_CLIENT = {
  conditions: [{ property: 'owner', operator: '=', value: ':current_client_id' }],
}
export const FIXTURE = {
  formatVersion: 1,
  settings: {
    'svc.resource-server.anonymous-url-patterns': `/rest/permissions,/rest/entities/${DOC},/rest/entities/${DOC}/**`,
  },
  entities: [
    {
      name: DOC,
      attributes: [
        { name: 'title', type: 'string', length: 40 },
        { name: 'owner', type: 'string', length: 40 },
        { name: 'amount', type: 'decimal', precision: 10, scale: 2 },
        { name: 'secret', type: 'string', length: 40 },
      ],
    },
  ],
  resourceRoles: [
    {
      code: 'insp-reader',
      childRoles: ['rest-minimal'],
      entityPolicies: [{ entity: DOC, actions: ['read'] }],
      attributePolicies: [
        { entity: DOC, attributes: ['title', 'owner', 'amount'], action: 'VIEW' },
      ],
    },
    {
      code: 'insp-editor',
      childRoles: ['insp-reader'],
      entityPolicies: [{ entity: DOC, actions: ['read', 'update'] }],
      attributePolicies: [{ entity: DOC, attributes: ['*'], action: 'MODIFY' }],
    },
  ],
  rowLevelRoles: [
    {
      code: 'insp-own',
      policies: [{ entity: DOC, type: 'filter', actions: ['read'], filter: OWN }],
    },
    {
      code: 'insp-by-client',
      policies: [{ entity: DOC, type: 'filter', actions: ['read'], filter: BY_CLIENT }],
    },
  ],
  users: [
    ...[
      ['alice', ['insp-reader'], ['insp-own']],
      ['bob', ['insp-editor'], []],
      ['carol', [], []],
      ['dave', ['insp-reader'], ['insp-by-client']],
    ].map(([username, resourceRoles, rowLevelRoles]) => ({
      username,
      password: 'S3cret-passw0rd',
      resourceRoles,
      rowLevelRoles,
    })),
    { username: 'anonymous', resourceRoles: ['insp-reader'], rowLevelRoles: ['insp-own'] },
  ],
  clients: [
    {
      clientId: 'insp-svc',
      clientSecret: 'insp-svc-secret-0123456789',
      grantTypes: ['client_credentials'],
      resourceRoles: ['insp-reader'],
      rowLevelRoles: ['insp-own'],
    },
  ],
}
/** [owner, title, amount] of the seeded rows: two for alice, one each for the others. */
export const ROWS = [
  ['alice', 'alpha', '9.90'],
  ['alice', 'apple', '12.50'],
  ['bob', 'banana', '3.00'],
  ['anonymous', 'anon', '1.10'],
  ['insp-svc', 'service', '2.20'],
  ['zed', 'zeta', '7.70'],
  ['zed', 'zulu', '8.80'],
]

export const NO_FILTER = encodeURIComponent(JSON.stringify({ conditions: [] }))
const tokens = new Map<string, string>()
const token = (who: string) => tokens.get(who)!

/** A /rest request as `who` (its own token; `anonymous`: none, on an anonymous URL). */
export function rest(who: string, method: string, path: string, body?: unknown) {
  if (who === 'anonymous') return raw(path, { method })
  return sendJson(token(who), method, path, body)
}

/** A fresh database with the fixture, the admin actors and every subject's own token. */
export async function setupInspectFixture() {
  await resetDatabase()
  await setupAdminActors()
  const applied = await admin('admin', 'POST', 'definition/apply', FIXTURE)
  if (applied.status !== 200) throw new Error(applied.text)
  await db.table('insp_doc').multiInsert(
    ROWS.map(([owner, title, amount], i) => ({
      id: `00000000-0000-4000-8000-00000000000${i + 1}`,
      owner,
      title,
      amount,
      secret: `s${i}`,
    }))
  )
  const web = await makeClient({ resourceRoles: [] })
  for (const name of ['alice', 'bob', 'carol']) {
    const user = await User.findByOrFail('username', name)
    tokens.set(name, (await accessToken(web, user)).token)
  }
  const svc = await OAuthClient.findByOrFail('clientId', 'insp-svc')
  tokens.set('insp-svc', (await accessToken(svc)).token)
  const dave = await User.findByOrFail('username', 'dave')
  tokens.set('dave', (await accessToken(svc, dave)).token)
}
