/**
 * Files API downloads (spec 4.5, reference 7.3): bytes and headers, both dispositions and the
 * inline list, RFC 6266/5987 file names, ranges, 404/400, HEAD; file attributes of entities
 * take the fileRef of an upload (spec 4.5 rule 4) and refuse anything else.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { localStorageRoot } from '#files/main'
import {
  FILES,
  auth,
  download,
  filesSetup,
  request,
  snapshot,
  uploadRaw,
  withProperty,
} from '#tests/helpers/files'

let token = ''
const BYTES = Buffer.from('0123456789')
const refs: Record<string, string> = {}

test.group('Files API: download', (group) => {
  group.setup(async () => {
    token = await filesSetup()
    for (const name of ['photo.png', 'doc.pdf', 'data.bin', 'notes.txt', 'noext']) {
      const response = await uploadRaw(token, BYTES, { name })
      refs[name] = response.body.fileRef
    }
  })

  test('200 with the bytes and the headers', async ({ assert }) => {
    const response = await download(token, refs['photo.png'])
    assert.equal(response.status, 200)
    assert.deepEqual(response.bytes, BYTES)
    assert.equal(response.headers['content-type'], 'image/png')
    assert.equal(response.headers['content-length'], '10')
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
    assert.equal(response.headers['content-security-policy'], 'sandbox')
    assert.equal(response.headers['cache-control'], 'no-cache')
    assert.equal(response.headers['accept-ranges'], 'bytes')
    assert.equal(
      response.headers['content-disposition'],
      `inline; filename="photo.png"; filename*=UTF-8''photo.png`
    )
  })

  test('attachment=true: attachment; attachment=false or absent: inline if listed', async ({
    assert,
  }) => {
    const disposition = async (ref: string, attachment?: string) =>
      (await download(token, ref, { attachment })).headers['content-disposition']!.split(';')[0]
    assert.equal(await disposition(refs['photo.png'], 'true'), 'attachment')
    assert.equal(await disposition(refs['photo.png'], 'false'), 'inline')
    assert.equal(await disposition(refs['doc.pdf']), 'inline')
    assert.equal(await disposition(refs['notes.txt']), 'inline')
    assert.equal(await disposition(refs['data.bin']), 'attachment', 'not in the inline list')
    assert.equal(await disposition(refs['noext']), 'attachment')
    assert.equal(
      (await download(token, refs['data.bin'])).headers['content-type'],
      'application/octet-stream'
    )
  })

  test('svc.rest.inline-enabled-file-extensions decides, never for html or svg', async ({
    assert,
  }) => {
    const html = (await uploadRaw(token, '<b>x</b>', { name: 'page.html' })).body.fileRef
    const svg = (await uploadRaw(token, '<svg/>', { name: 'pic.svg' })).body.fileRef
    await withProperty(
      'svc.rest.inline-enabled-file-extensions',
      'pdf, html, svg, bin',
      async () => {
        const head = async (ref: string) => (await download(token, ref)).headers
        assert.match((await head(refs['photo.png']))['content-disposition']!, /^attachment;/)
        assert.match((await head(refs['doc.pdf']))['content-disposition']!, /^inline;/)
        assert.match((await head(html))['content-disposition']!, /^attachment;/)
        assert.match((await head(svg))['content-disposition']!, /^attachment;/)
        assert.equal((await head(html))['content-type'], 'application/octet-stream')
        assert.match((await head(refs['data.bin']))['content-disposition']!, /^attachment;/)
      }
    )
  })

  test('Range: one range 206, suffix, open end, beyond the end 416, several ranges 200', async ({
    assert,
  }) => {
    const ranged = (range: string) =>
      download(token, refs['data.bin'], { headers: { Range: range } })
    const first = await ranged('bytes=2-4')
    assert.equal(first.status, 206)
    assert.equal(first.text, '234')
    assert.equal(first.headers['content-range'], 'bytes 2-4/10')
    assert.equal(first.headers['content-length'], '3')
    const suffix = await ranged('bytes=-1')
    assert.equal(suffix.status, 206)
    assert.equal(suffix.text, '9')
    const open = await ranged('bytes=7-')
    assert.equal(open.text, '789')
    const clipped = await ranged('bytes=8-999')
    assert.equal(clipped.headers['content-range'], 'bytes 8-9/10')
    const beyond = await ranged('bytes=999999999-')
    assert.equal(beyond.status, 416)
    assert.equal(beyond.headers['content-range'], 'bytes */10')
    const several = await ranged('bytes=0-0,2-2')
    assert.equal(several.status, 200)
    assert.equal(several.text, '0123456789')
    const junk = await ranged('lines=1-2')
    assert.equal(junk.status, 200)
  })

  test('HEAD: the headers without the body', async ({ assert }) => {
    const query = new URLSearchParams({ fileRef: refs['photo.png'] })
    const response = await request(`${FILES}?${query}`, { method: 'HEAD', headers: auth(token) })
    assert.equal(response.status, 200)
    assert.equal(response.headers['content-length'], '10')
    assert.equal(response.bytes.length, 0)
  })

  test('404 for a well-formed ref that was never issued; no path in the message', async ({
    assert,
  }) => {
    const ref = 'fs://2024/01/02/11111111-2222-4333-8444-555555555555.png?name=x.png'
    const response = await download(token, ref)
    assert.equal(response.status, 404)
    assert.deepEqual(response.body, {
      error: 'File not found',
      details: `File not found. File reference: ${ref}`,
    })
    assert.notInclude(response.text, localStorageRoot())
  })

  test('400 for an invalid or missing fileRef (upstream strings)', async ({ assert }) => {
    const invalid = await download(token, 'not a ref')
    assert.equal(invalid.status, 400)
    assert.deepEqual(invalid.body, {
      error: 'Invalid file reference',
      details: "Cannot convert 'not a ref' into valid file reference",
    })
    const missing = await request(FILES, { headers: auth(token) })
    assert.equal(missing.status, 400)
    assert.equal(missing.body.error, 'Invalid file reference')
  })

  test('no token: 401 and no bytes', async ({ assert }) => {
    const query = new URLSearchParams({ fileRef: refs['photo.png'] })
    const response = await request(`${FILES}?${query}`)
    assert.equal(response.status, 401)
    assert.notInclude(response.text, '0123456789')
  })
})

test.group('Files API: file attributes of entities', (group) => {
  group.setup(async () => {
    token = await filesSetup()
  })

  const send = (method: string, path: string, body: unknown) =>
    request(path, {
      method,
      headers: { ...auth(token), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })

  test('an uploaded fileRef is stored on create and update and read back', async ({ assert }) => {
    const ref = (await uploadRaw(token, 'portrait', { name: 'me.jpg' })).body.fileRef
    const created = await send('POST', '/rest/entities/bookstore_Author', {
      lastName: 'Herbert',
      photo: ref,
    })
    assert.equal(created.status, 201, created.text)
    const id = created.body.id
    const read = await request(`/rest/entities/bookstore_Author/${id}`, { headers: auth(token) })
    assert.equal(read.body.photo, ref)
    const other = (await uploadRaw(token, 'newer', { name: 'me2.png' })).body.fileRef
    const updated = await send('PUT', `/rest/entities/bookstore_Author/${id}`, { photo: other })
    assert.equal(updated.status, 200, updated.text)
    const row = await db.from('bookstore_author').where('id', id).first()
    assert.equal(row.photo, other)
    assert.equal((await download(token, row.photo)).text, 'newer')
  })

  test('anything but a fileRef is 400 on create and update, nothing written (FL20)', async ({
    assert,
  }) => {
    const created = await send('POST', '/rest/entities/bookstore_Author', {
      lastName: 'Keep',
      photo: (await uploadRaw(token, 'x', { name: 'x.png' })).body.fileRef,
    })
    const id = created.body.id
    const before = await snapshot()
    const bad = [
      '',
      '..',
      '/etc/passwd',
      'fs://../../etc/passwd?name=x',
      'fs://2024/01/02/?name=dir',
      'fs://2024/01/02?name=dir',
      'fs://2024/01/02/11111111-2222-4333-8444-555555555555.png',
      'file:///etc/passwd',
      42,
    ]
    for (const photo of bad) {
      const create = await send('POST', '/rest/entities/bookstore_Author', { lastName: 'X', photo })
      assert.equal(create.status, 400, `create ${JSON.stringify(photo)}: ${create.text}`)
      const update = await send('PUT', `/rest/entities/bookstore_Author/${id}`, { photo })
      assert.equal(update.status, 400, `update ${JSON.stringify(photo)}: ${update.text}`)
    }
    assert.deepEqual(await snapshot(), before)
    const alive = await request('/health')
    assert.equal(alive.status, 200)
  })
})
