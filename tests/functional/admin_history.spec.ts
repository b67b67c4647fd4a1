/**
 * Admin API, history: the schema changelog (paged, newest first, with SQL) and the audit trail
 * (filters by section, element and author, paging and total, one entry with its before/after
 * diff), who may read them, and that no password hash or client secret ever shows in it.
 */
import { test } from '@japa/runner'
import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { admin, adminState, setupAdminActors } from '#tests/helpers/admin'

const BULK = 'svc.rest.max-bulk-size'
const apply = async (
  document: Record<string, unknown>,
  actor: 'admin' | 'adminClient' = 'admin'
) => {
  const reply = await admin(actor, 'POST', 'definition/apply', { formatVersion: 1, ...document })
  if (reply.status !== 200) throw new Error(reply.text)
  return reply
}
const entity = (name: string) => ({ name, attributes: [{ name: 'title', type: 'string' }] })
const ids = (entries: any[]) => entries.map((e) => e.id)

test.group('admin API: changelog and audit trail', (group) => {
  /** Four audited changes: root, the admin client, root (translation), root. */
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    await apply({ entities: [entity('adm_Note')] })
    const setting = await admin('adminClient', 'PUT', `settings/${BULK}`, { value: 5 })
    if (setting.status !== 200) throw new Error(setting.text)
    await admin('admin', 'PUT', 'messages/en', { adm_Note: 'Memo' })
    await apply({ entities: [entity('adm_Tag')] })
  })

  test('who may call it: 401 anonymous, 403 plain user and full-access client', async ({
    assert,
  }) => {
    const before = await adminState()
    for (const [actor, status] of [
      ['anonymous', 401],
      ['plain', 403],
      ['fullAccess', 403],
    ] as const)
      for (const path of ['changelog', 'audit', 'audit/1']) {
        const reply = await admin(actor, 'GET', path)
        assert.equal(reply.status, status, `${actor} ${path}`)
        assert.properties(reply.body, ['error', 'details'])
      }
    assert.equal(await adminState(), before)
    assert.equal((await admin('adminClient', 'GET', 'audit')).status, 200)
  })

  test('GET /changelog: newest first with SQL, total, paging; default 50, at most 500', async ({
    assert,
  }) => {
    const rows = await db.from('mg_schema_changelog').orderBy('id', 'desc')
    const reply = await admin('admin', 'GET', 'changelog')
    assert.equal(reply.status, 200)
    assert.equal(reply.body.total, rows.length)
    assert.deepEqual(
      ids(reply.body.entries),
      rows.map((r) => Number(r.id))
    )
    const newest = reply.body.entries[0]
    assert.deepEqual(Object.keys(newest).sort(), [
      'appliedAt',
      'id',
      'modelVersion',
      'operation',
      'source',
      'sql',
      'target',
    ])
    assert.equal(newest.modelVersion, Number(rows[0].model_version))
    assert.match(reply.body.entries.map((e: any) => e.sql).join('\n'), /create table "?adm_tag/i)
    assert.match(newest.source, /^admin-api POST \/admin\/api\/definition\/apply/)
    assert.isFalse(Number.isNaN(Date.parse(newest.appliedAt)))

    const page = await admin('admin', 'GET', 'changelog?offset=1&limit=1')
    assert.equal(page.body.total, rows.length)
    assert.deepEqual(ids(page.body.entries), [Number(rows[1].id)])

    const now = new Date()
    const filler = Array.from({ length: 60 }, (_, i) => ({
      model_version: 1,
      operation: 'metadata',
      target: `filler ${i}`,
      sql: '',
      source: 'test',
      applied_at: now,
    }))
    await db.table('mg_schema_changelog').multiInsert(filler)
    const first = await admin('admin', 'GET', 'changelog')
    assert.equal(first.body.total, rows.length + 60)
    assert.lengthOf(first.body.entries, 50)
    assert.equal(first.body.entries[0].target, 'filler 59')
    const all = await admin('admin', 'GET', 'changelog?limit=500')
    assert.lengthOf(all.body.entries, rows.length + 60)
  })

  test('bad paging is 400 on the changelog and the audit trail', async ({ assert }) => {
    const before = await adminState()
    for (const path of ['changelog', 'audit'])
      for (const query of [
        'limit=0',
        'limit=501',
        'limit=abc',
        'offset=-1',
        'offset=1.5',
        'limit=',
      ]) {
        const reply = await admin('admin', 'GET', `${path}?${query}`)
        assert.equal(reply.status, 400, `${path}?${query}`)
        assert.equal(reply.body.error, 'Bad request')
      }
    assert.equal(await adminState(), before)
  })

  test('GET /audit: newest first, who and which elements; filters by section, element, author', async ({
    assert,
  }) => {
    const reply = await admin('admin', 'GET', 'audit')
    assert.equal(reply.status, 200)
    const stored = await db.from('mg_audit').orderBy('id', 'desc')
    assert.equal(reply.body.total, stored.length)
    assert.equal(reply.body.total, 4)
    assert.deepEqual(
      ids(reply.body.entries),
      stored.map((r) => Number(r.id))
    )
    const [tag, message, setting, note] = reply.body.entries
    assert.deepEqual(note.elements, [
      { section: 'entities', element: 'adm_Note', change: 'created' },
    ])
    assert.deepEqual(message.elements, [
      { section: 'messages', element: 'en:adm_Note', change: 'created' },
    ])
    assert.equal(setting.author.kind, 'client')
    assert.deepEqual(note.author, { kind: 'user', name: 'root' })
    assert.include(setting.changes, `setting ${BULK}: set`)
    assert.match(setting.source, /^admin-api PUT /)
    assert.isTrue(tag.definitionVersion > note.definitionVersion)
    assert.notProperty(note.elements[0], 'after')

    const client = setting.author.name
    const filtered = async (query: string) => {
      const r = await admin('admin', 'GET', `audit?${query}`)
      assert.equal(r.status, 200, query)
      return { total: r.body.total, ids: ids(r.body.entries) }
    }
    assert.deepEqual(await filtered('section=entities'), { total: 2, ids: [tag.id, note.id] })
    assert.deepEqual(await filtered('element=adm_Note'), { total: 1, ids: [note.id] })
    assert.deepEqual(await filtered('section=messages&element=en:adm_Note'), {
      total: 1,
      ids: [message.id],
    })
    assert.deepEqual(await filtered('section=settings'), { total: 1, ids: [setting.id] })
    assert.deepEqual(await filtered('author=root'), {
      total: 3,
      ids: [tag.id, message.id, note.id],
    })
    assert.deepEqual(await filtered(`author=${encodeURIComponent(client)}`), {
      total: 1,
      ids: [setting.id],
    })
    assert.deepEqual(await filtered(`section=entities&author=${encodeURIComponent(client)}`), {
      total: 0,
      ids: [],
    })
    assert.deepEqual(await filtered('section=nope'), { total: 0, ids: [] })
    assert.deepEqual(await filtered('author=root&offset=1&limit=1'), {
      total: 3,
      ids: [message.id],
    })
    assert.deepEqual(await filtered('offset=4'), { total: 4, ids: [] })
  })

  test('GET /audit/:id: one entry with its before/after diff; 404 otherwise', async ({
    assert,
  }) => {
    const changed = await admin('admin', 'PUT', `settings/${BULK}`, { value: 6 })
    assert.equal(changed.status, 200, changed.text)
    const reply = await admin('admin', 'GET', `audit/${changed.body.auditId}`)
    assert.equal(reply.status, 200)
    assert.equal(reply.body.id, changed.body.auditId)
    assert.deepEqual(reply.body.author, { kind: 'user', name: 'root' })
    assert.equal(reply.body.definitionVersion, changed.body.definitionVersion)
    assert.deepEqual(reply.body.elements, [
      { section: 'settings', element: BULK, change: 'changed', before: 5, after: 6 },
    ])
    const list = await admin('admin', 'GET', 'audit?section=entities&limit=1')
    const created = await admin('admin', 'GET', `audit/${list.body.entries[0].id}`)
    assert.equal(created.body.elements[0].change, 'created')
    assert.equal(created.body.elements[0].after.name, 'adm_Tag')

    for (const id of ['99999', '0', 'abc', '1.5']) {
      const missing = await admin('admin', 'GET', `audit/${id}`)
      assert.equal(missing.status, 404, id)
      assert.equal(missing.body.error, 'Not found')
    }
  })

  test('no password hash or client secret ever appears in an audit entry', async ({ assert }) => {
    const password = 'Alice-passw0rd-1'
    const secret = 'client-secret-0123456789'
    await apply({
      users: [{ username: 'alice', password, resourceRoles: ['rest-minimal'] }],
      clients: [{ clientId: 'audit-x', clientSecret: secret }],
    })
    await apply({ users: [{ username: 'alice', password: 'Alice-passw0rd-2' }] })
    const digest = createHash('sha256').update('another-secret-value').digest('hex')
    const stored = await admin(
      'admin',
      'PUT',
      'settings/svc.authserver.client.audit-y.client-secret',
      { value: `{sha256}${digest}` }
    )
    assert.equal(stored.status, 200, stored.text)

    const hash = (await db.from('users').where('username', 'alice').first()).password
    const secretHash = (await db.from('oauth_clients').where('client_id', 'audit-x').first())
      .secret_hash
    const list = await admin('admin', 'GET', 'audit?limit=500')
    const texts = [list.text]
    for (const entry of list.body.entries)
      texts.push((await admin('admin', 'GET', `audit/${entry.id}`)).text)
    const all = texts.join('\n')
    for (const forbidden of [password, 'Alice-passw0rd-2', hash, secret, secretHash, digest])
      assert.notInclude(all, forbidden)
    assert.notMatch(all, /\$scrypt\$/)
    const details = texts.slice(1).map((t) => JSON.parse(t))
    const elements = details.flatMap((d) => d.elements)
    const alice = elements.filter((e) => e.section === 'users' && e.element === 'alice')
    assert.lengthOf(alice, 2)
    assert.equal(alice[0].before.passwordHash, '********')
    assert.equal(alice[0].after.passwordHash, '********')
    assert.equal(alice[1].after.passwordHash, '********')
    const client = elements.find((e) => e.section === 'clients' && e.element === 'audit-x')
    assert.equal(client.after.clientSecretHash, '********')
    const setting = elements.find(
      (e) => e.element === 'svc.authserver.client.audit-y.client-secret'
    )
    assert.equal(setting.after, '********')
  })
})
