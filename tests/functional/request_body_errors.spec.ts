/**
 * Request bodies a JSON endpoint cannot read (issue 19 item 8): a form (`curl -d`, multipart) is
 * a 415 naming the media type to send, on /rest/entities (writes, search, count) and the admin
 * API, with nothing written; malformed JSON says what is wrong in `details` (upstream leaves it
 * empty); an unknown enum value lists the valid ones.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { E, count, ids, loadWriteDemo, send } from '#tests/functional/entities_write_fixtures'
import { adminState, adminTokens, setupAdminActors } from '#tests/helpers/admin'
import { raw } from '#tests/helpers/resource_server'

const FORM = 'application/x-www-form-urlencoded'
const MULTIPART = 'multipart/form-data; boundary=X'
const PART = '--X\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--X--\r\n'
let entitiesToken = ''

/** A request with this exact body and Content-Type. */
function sendAs(token: string, method: string, path: string, type: string, body: string) {
  return raw(path, {
    method,
    headers: {
      'Authorization': `Bearer ${token}`,
      'Content-Type': type,
      'Content-Length': String(Buffer.byteLength(body)),
    },
    body,
  })
}

/** Every row of the entity tables a form could have written to. */
const rows = async () =>
  JSON.stringify(
    await Promise.all(['bookstore_tag', 'bookstore_book'].map((t) => db.from(t).orderBy('id')))
  )

test.group('Request bodies: forms, malformed JSON, enum values', (group) => {
  group.setup(async () => {
    await loadWriteDemo()
    await setupAdminActors()
    // The entities token of the fixtures is private to it: one of our own with full access.
    entitiesToken = adminTokens.get('admin')!
  })

  test('a form sent to /rest/entities: 415 naming application/json, nothing written', async ({
    assert,
  }) => {
    const before = await rows()
    const calls: [string, string][] = [
      ['POST', `${E}/bookstore_Tag`],
      ['PUT', `${E}/bookstore_Tag/${ids.tag}`],
      ['PUT', `${E}/bookstore_Tag`],
      ['DELETE', `${E}/bookstore_Tag`],
      ['POST', `${E}/bookstore_Tag/search`],
      ['POST', `${E}/bookstore_Tag/search/count`],
    ]
    for (const [method, path] of calls)
      for (const [type, body, name] of [
        [FORM, 'name=x', FORM],
        [MULTIPART, PART, 'multipart/form-data'],
      ]) {
        const response = await sendAs(entitiesToken, method, path, type, body)
        assert.equal(response.status, 415, `${method} ${path} ${type}: ${response.text}`)
        assert.deepEqual(response.body, {
          error: 'Unsupported media type',
          details: `Send the body as application/json, not ${name}`,
        })
      }
    assert.equal(await rows(), before, 'nothing written')
  })

  test('a form sent to the admin API: 415, nothing changed', async ({ assert }) => {
    const token = adminTokens.get('admin')!
    const before = await adminState()
    const settings = await sendAs(
      token,
      'PUT',
      '/admin/api/settings/svc.rest.default-max-fetch-size',
      FORM,
      'value=5'
    )
    assert.equal(settings.status, 415, settings.text)
    assert.deepEqual(settings.body, {
      error: 'Unsupported media type',
      details: `Send the body as application/json, not ${FORM}`,
    })
    const enums = await sendAs(token, 'POST', '/admin/api/enums', MULTIPART, PART)
    assert.equal(enums.status, 415, enums.text)
    const plan = await sendAs(token, 'POST', '/admin/api/definition/plan', FORM, 'x=1')
    assert.equal(plan.status, 415, plan.text)
    assert.equal(
      plan.body.details,
      `Send the body as application/json or application/yaml, not ${FORM}`
    )
    assert.equal(await adminState(), before, 'nothing changed')
    // Outsiders still learn only that they are not let in.
    const anonymous = await raw('/admin/api/enums', {
      method: 'POST',
      headers: { 'Content-Type': FORM, 'Content-Length': '6' },
      body: 'name=x',
    })
    assert.equal(anonymous.status, 401)
  })

  test('malformed or empty JSON: details say what is wrong', async ({ assert }) => {
    const before = await rows()
    const cases: [string, string, string, string][] = [
      ['POST', `${E}/bookstore_Tag`, '{oops', 'Malformed request JSON data structure'],
      ['PUT', `${E}/bookstore_Tag/${ids.tag}`, '{oops', 'Cannot deserialize an entity from JSON'],
      ['POST', `${E}/bookstore_Tag/search`, '{oops', 'Malformed request JSON data structure'],
    ]
    for (const [method, path, body, error] of cases) {
      const response = await send(method, path, body)
      assert.equal(response.status, 400, response.text)
      assert.equal(response.body.error, error)
      assert.match(
        response.body.details,
        /^The request body is not valid JSON: .+ at line 1, column \d+$/
      )
    }
    const empty = await send('POST', `${E}/bookstore_Tag`, '')
    assert.equal(empty.status, 400, empty.text)
    assert.deepEqual(empty.body, {
      error: 'Malformed request JSON data structure',
      details: 'The request body is empty: send JSON',
    })
    const admin = await sendAs(
      adminTokens.get('admin')!,
      'POST',
      '/admin/api/enums',
      'application/json',
      '{oops'
    )
    assert.equal(admin.status, 400, admin.text)
    assert.equal(admin.body.error, 'Malformed JSON')
    assert.match(admin.body.details, /^The request body is not valid JSON: ./)
    assert.equal(await rows(), before, 'nothing written')
  })

  test('an unknown enum value: the valid values in details, nothing written', async ({
    assert,
  }) => {
    const before = await count('bookstore_book')
    const response = await send('POST', `${E}/bookstore_Book`, { title: 't', genre: 'HORROR' })
    assert.equal(response.status, 400, response.text)
    assert.deepEqual(response.body, {
      error:
        'An error occurred while parsing enum. Class [class com.example.bookstore.Genre]. Value [HORROR].',
      details: "Valid values of 'genre': FICTION, NON_FICTION, SCIENCE, CHILDREN, POETRY",
    })
    assert.equal(await count('bookstore_book'), before)
  })
})
