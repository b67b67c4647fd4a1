/**
 * Admin API, translations: available locales and stored counts, every translatable key of a
 * locale with its stored and default text, merging PUT (null removes) that shows at once in the
 * Messages API; validation with paths, 404, 412, who may call it, nothing changed on refusals.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { engine } from '#tests/helpers/engine'
import {
  admin,
  adminState,
  setupAdminActors,
  versionOf,
  assertOutsidersRefused,
} from '#tests/helpers/admin'
import { modelKeys } from '#i18n/definition'

const NOTE = {
  name: 'adm_Note',
  caption: { en: 'Note', de: 'Notiz' },
  attributes: [
    { name: 'title', type: 'string', caption: { de: 'Überschrift' } },
    { name: 'noteBody', type: 'text' },
  ],
}
const STATUS = {
  name: 'adm.Status',
  values: [
    { name: 'OPEN', id: 'O' },
    { name: 'CLOSED_FOR_GOOD', id: 'C' },
  ],
}

const storedRows = async (locale: string) =>
  Object.fromEntries(
    (await db.from('mg_messages').where('locale', locale).select('key', 'value')).map((r) => [
      r.key,
      r.value,
    ])
  )
/** What the public Messages API shows for adm_Note in `language`. */
const published = async (language: string) =>
  (
    await admin('admin', 'GET', '/rest/messages/entities/adm_Note', undefined, {
      'Accept-Language': language,
    })
  ).body
const putMessages = (locale: string, body: unknown, headers: Record<string, string> = {}) =>
  admin('admin', 'PUT', `messages/${locale}`, body, headers)

test.group('admin API: translations', (group) => {
  group.each.setup(async () => {
    await resetDatabase()
    await setupAdminActors()
    const setup = await admin('admin', 'POST', 'definition/apply', {
      formatVersion: 1,
      enums: [STATUS],
      entities: [NOTE],
      settings: { 'svc.core.available-locales': 'en,de' },
    })
    if (setup.status !== 200) throw new Error(setup.text)
  })

  test('who may call it: 401 anonymous, 403 plain user and full-access client', async ({
    assert,
  }) => {
    const before = await adminState()
    const calls: [string, string, unknown?][] = [
      ['GET', 'messages'],
      ['GET', 'messages/de'],
      ['PUT', 'messages/de', { adm_Note: 'Zettel' }],
    ]
    await assertOutsidersRefused(assert, calls)
    assert.equal(await adminState(), before)
    assert.equal((await admin('adminClient', 'GET', 'messages/de')).status, 200)
  })

  test('GET /messages: the available locales and how many texts each stores', async ({
    assert,
  }) => {
    const empty = await admin('admin', 'GET', 'messages')
    assert.equal(empty.status, 200)
    assert.deepEqual(empty.body, { locales: ['en', 'de'], stored: {} })
    await putMessages('de', { 'adm_Note': 'Zettel', 'adm_Note.title': 'Titel' })
    await putMessages('fr', { adm_Note: 'Fiche' })
    const reply = await admin('admin', 'GET', 'messages')
    assert.deepEqual(reply.body, { locales: ['en', 'de'], stored: { de: 2, fr: 1 } })
  })

  test('GET /messages/:locale: every model key with its stored and default text', async ({
    assert,
  }) => {
    await putMessages('de', { 'adm_Note.title': 'Titel', 'adm.Status.OPEN': 'Offen' })
    const reply = await admin('admin', 'GET', 'messages/de')
    assert.equal(reply.status, 200)
    assert.equal(reply.body.locale, 'de')
    assert.isTrue(reply.body.available)
    const keys = [...modelKeys((await engine()).model)].sort()
    assert.deepEqual(
      reply.body.messages.map((m: any) => m.key),
      keys
    )
    const entry = (key: string) => reply.body.messages.find((m: any) => m.key === key)
    assert.deepEqual(entry('adm_Note'), {
      key: 'adm_Note',
      stored: null,
      default: 'Notiz',
      defaultSource: 'caption',
    })
    assert.deepEqual(entry('adm_Note.title'), {
      key: 'adm_Note.title',
      stored: 'Titel',
      default: 'Überschrift',
      defaultSource: 'caption',
    })
    assert.deepEqual(entry('adm_Note.noteBody'), {
      key: 'adm_Note.noteBody',
      stored: null,
      default: 'Note body',
      defaultSource: 'name',
    })
    assert.deepEqual(entry('adm.Status.OPEN'), {
      key: 'adm.Status.OPEN',
      stored: 'Offen',
      default: 'Open',
      defaultSource: 'name',
    })
    assert.deepEqual(entry('adm.Status.CLOSED_FOR_GOOD').default, 'Closed for good')
    assert.deepEqual(entry('adm_Note.id').default, 'Id')

    // de_AT stores nothing: it would show the German stored text, then the German caption.
    const austrian = await admin('admin', 'GET', 'messages/de_AT')
    assert.isFalse(austrian.body.available)
    const at = (key: string) => austrian.body.messages.find((m: any) => m.key === key)
    assert.deepEqual(at('adm_Note.title'), {
      key: 'adm_Note.title',
      stored: null,
      default: 'Titel',
      defaultSource: 'language',
    })
    assert.deepEqual(at('adm_Note').default, 'Notiz')

    // A caption counts as a translation even when it reads like the name-derived default.
    const english = await admin('admin', 'GET', 'messages/en')
    const en = (key: string) => english.body.messages.find((m: any) => m.key === key)
    assert.include(en('adm_Note'), { default: 'Note', defaultSource: 'caption' })
    assert.include(en('adm_Note.title'), { default: 'Title', defaultSource: 'name' })
  })

  test('GET /messages/:locale with a malformed locale is 404', async ({ assert }) => {
    for (const locale of ['en-US', 'EN', 'deutsch_x']) {
      const reply = await admin('admin', 'GET', `messages/${locale}`)
      assert.equal(reply.status, 404, locale)
      assert.equal(reply.body.error, 'Not found')
    }
  })

  test('PUT merges texts (null removes one), shows at once in the Messages API, one audit entry', async ({
    assert,
  }) => {
    assert.equal((await published('de'))['adm_Note'], 'Notiz')
    const v0 = versionOf(await admin('admin', 'GET', 'messages'))
    const first = await putMessages(
      'de',
      { 'adm_Note': 'Zettel', 'adm_Note.title': 'Titel' },
      { 'If-Match': `"${v0}"` }
    )
    assert.equal(first.status, 200, first.text)
    assert.equal(first.body.status, 'applied')
    assert.deepEqual(first.body.changes, ['messages de: 2 added'])
    assert.deepEqual(first.body.stored, { 'adm_Note': 'Zettel', 'adm_Note.title': 'Titel' })
    assert.equal(versionOf(first), v0 + 1)
    assert.deepEqual(await storedRows('de'), { 'adm_Note': 'Zettel', 'adm_Note.title': 'Titel' })
    assert.include(await published('de'), { 'adm_Note': 'Zettel', 'adm_Note.title': 'Titel' })
    assert.include(await published('en'), { 'adm_Note': 'Note', 'adm_Note.title': 'Title' })
    const audit = await db.from('mg_audit').orderBy('id', 'desc').first()
    assert.sameMembers(
      (await db.from('mg_audit_elements').where('audit_id', audit.id)).map(
        (e) => `${e.section}:${e.element}`
      ),
      ['messages:de:adm_Note', 'messages:de:adm_Note.title']
    )

    const second = await putMessages('de', {
      'adm_Note.title': null,
      'adm_Note.noteBody': 'Text',
    })
    assert.equal(second.status, 200, second.text)
    assert.deepEqual(second.body.changes, ['messages de: 1 added, 1 removed'])
    assert.deepEqual(await storedRows('de'), { 'adm_Note': 'Zettel', 'adm_Note.noteBody': 'Text' })
    assert.include(await published('de'), {
      'adm_Note': 'Zettel',
      'adm_Note.title': 'Überschrift',
      'adm_Note.noteBody': 'Text',
    })

    const before = await adminState()
    const same = await putMessages('de', { adm_Note: 'Zettel' })
    assert.equal(same.body.status, 'unchanged')
    assert.equal(await adminState(), before)
  })

  test('PUT ?dryRun=true lists the change and stores nothing', async ({ assert }) => {
    const before = await adminState()
    const reply = await putMessages('de?dryRun=true', { adm_Note: 'Zettel' })
    assert.equal(reply.status, 200, reply.text)
    assert.equal(reply.body.status, 'dry-run')
    assert.deepEqual(reply.body.changes, ['messages de: 1 added'])
    assert.equal(await adminState(), before)
    assert.equal((await published('de'))['adm_Note'], 'Notiz')
  })

  test('unknown keys, bad locales, empty or non-string texts are 422 with body paths', async ({
    assert,
  }) => {
    const before = await adminState()
    const cases: [string, unknown, string, RegExp][] = [
      ['de', { 'adm_Note.nope': 'x' }, "$['adm_Note.nope']", /has no attribute 'nope'/],
      ['de', { 'adm.Status.MAYBE': 'x' }, "$['adm.Status.MAYBE']", /has no value 'MAYBE'/],
      ['de', { bookstore_Order: 'x' }, "$['bookstore_Order']", /no entity/],
      ['de', { adm_Note: '  ' }, "$['adm_Note']", /empty/],
      ['en-US', { adm_Note: 'x' }, '$', /invalid locale/],
      ['de', ['x'], '$', /object/],
    ]
    for (const [locale, body, path, message] of cases) {
      const reply = await putMessages(locale, body)
      const label = `${locale} ${JSON.stringify(body)}`
      assert.equal(reply.status, 422, `${label}: ${reply.text}`)
      const problem = reply.body.problems.find((p: any) => p.path === path)
      assert.exists(problem, `${label}: ${reply.text}`)
      assert.match(problem.message, message, label)
    }
    const number = await putMessages('de', { adm_Note: 7 })
    assert.equal(number.status, 422, number.text)
    assert.deepEqual(
      number.body.problems.map((p: any) => p.path),
      ["$['adm_Note']"]
    )
    assert.equal(await adminState(), before)
  })

  test('a stale If-Match is 412 and changes nothing', async ({ assert }) => {
    const v0 = versionOf(await admin('admin', 'GET', 'messages'))
    await putMessages('de', { adm_Note: 'Zettel' })
    const before = await adminState()
    const stale = await putMessages('de', { adm_Note: 'Blatt' }, { 'If-Match': `"${v0}"` })
    assert.equal(stale.status, 412)
    assert.equal(stale.body.error, 'Precondition failed')
    assert.equal(await adminState(), before)
    assert.equal((await published('de'))['adm_Note'], 'Zettel')
  })
})
