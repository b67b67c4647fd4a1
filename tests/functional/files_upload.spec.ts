/**
 * Files API uploads (spec 4.5, reference 7.1): multipart and raw modes, the name rules, the
 * Location header, the size limit (413, nothing stored, also chunked without Content-Length:
 * catalogue FL16) and storage failures (a full disk: 507, nothing half-written).
 */
import { test } from '@japa/runner'
import net from 'node:net'
import engine from '#engine/services/engine'
import { parseFileRef } from '#files/main'
import {
  FILES,
  auth,
  download,
  filesSetup,
  multipart,
  request,
  snapshot,
  storageListing,
  uploadPart,
  uploadRaw,
  withProperty,
} from '#tests/helpers/files'

let token = ''
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')

test.group('Files API: upload', (group) => {
  group.setup(async () => {
    token = await filesSetup()
  })

  test('multipart: 201, {fileRef, name, size}, Location, bytes stored', async ({ assert }) => {
    const response = await uploadPart(token, PNG, 'cat.png', {}, 'image/png')
    assert.equal(response.status, 201, response.text)
    const { fileRef, name, size } = response.body
    assert.deepEqual(Object.keys(response.body), ['fileRef', 'name', 'size'])
    assert.equal(name, 'cat.png')
    assert.equal(size, PNG.length)
    assert.match(
      fileRef,
      /^fs:\/\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.png\?name=cat\.png$/
    )
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '/')
    assert.isTrue(fileRef.startsWith(`fs://${today}/`))
    assert.match(
      response.headers.location!,
      new RegExp(`^http://127\\.0\\.0\\.1:\\d+${FILES}\\?fileRef=`)
    )
    const location = new URL(response.headers.location!)
    assert.equal(location.searchParams.get('fileRef'), fileRef)
    const back = await download(token, fileRef)
    assert.equal(back.status, 200)
    assert.deepEqual(back.bytes, PNG)
  })

  test('multipart: the name query parameter overrides the part file name', async ({ assert }) => {
    const response = await uploadPart(token, 'hello', 'part-name.txt', { name: 'Query name.pdf' })
    assert.equal(response.status, 201, response.text)
    assert.equal(response.body.name, 'Query name.pdf')
    assert.match(response.body.fileRef, /\.pdf\?name=Query\+name\.pdf$/)
    assert.deepEqual(parseFileRef(response.body.fileRef)?.name, 'Query name.pdf')
  })

  test('multipart: other fields and parts are ignored; a second file part too', async ({
    assert,
  }) => {
    const form = multipart([
      { name: 'note', data: 'a field' },
      { name: 'other', filename: 'other.bin', data: 'ignored' },
      { name: 'file', filename: 'first.txt', data: 'first' },
      { name: 'file', filename: 'second.txt', data: 'second!' },
    ])
    const response = await request(FILES, {
      method: 'POST',
      headers: { ...auth(token), 'Content-Type': form.contentType },
      body: form.body,
    })
    assert.equal(response.status, 201, response.text)
    assert.equal(response.body.name, 'first.txt')
    assert.equal(response.body.size, 5)
  })

  test('multipart without a file part: 400, nothing stored', async ({ assert }) => {
    const before = await snapshot()
    const form = multipart([{ name: 'note', data: 'no file here' }])
    const response = await request(FILES, {
      method: 'POST',
      headers: { ...auth(token), 'Content-Type': form.contentType },
      body: form.body,
    })
    assert.equal(response.status, 400, response.text)
    assert.equal(response.body.error, 'File upload failed')
    assert.deepEqual(await snapshot(), before)
  })

  test('raw: the body with its own Content-Type; name required', async ({ assert }) => {
    const json = JSON.stringify({ big: 'x'.repeat(2 * 1024 * 1024) })
    const response = await uploadRaw(token, json, { name: 'data.json' }, 'application/json')
    assert.equal(response.status, 201, response.text)
    assert.equal(response.body.size, Buffer.byteLength(json))
    assert.equal(response.body.name, 'data.json')
    const back = await download(token, response.body.fileRef)
    assert.equal(back.text, json, 'a JSON body is the file, not parsed by the body parser')

    const form = await uploadRaw(
      token,
      'a=1&b=2',
      { name: 'f.txt' },
      'application/x-www-form-urlencoded'
    )
    assert.equal(form.status, 201, form.text)
    assert.equal((await download(token, form.body.fileRef)).text, 'a=1&b=2')

    const before = await snapshot()
    const nameless = await uploadRaw(token, 'bytes')
    assert.equal(nameless.status, 400)
    assert.deepEqual(nameless.body, {
      error: 'File upload failed',
      details: "Query parameter 'name' is required for a raw upload",
    })
    assert.deepEqual(await snapshot(), before)
  })

  test('raw: chunked body without Content-Length', async ({ assert }) => {
    const chunks = [Buffer.from('one,'), Buffer.from('two,'), Buffer.from('three')]
    const response = await request(`${FILES}?name=chunks.csv`, {
      method: 'POST',
      headers: { ...auth(token), 'Content-Type': 'text/csv' },
      body: chunks,
    })
    assert.equal(response.status, 201, response.text)
    assert.equal(response.body.size, 13)
    assert.equal((await download(token, response.body.fileRef)).text, 'one,two,three')
  })

  test('empty file, names with spaces, unicode and no extension', async ({ assert }) => {
    const empty = await uploadRaw(token, '', { name: 'empty' })
    assert.equal(empty.status, 201, empty.text)
    assert.equal(empty.body.size, 0)
    assert.match(empty.body.fileRef, /\/[0-9a-f-]{36}\?name=empty$/)
    const unicode = await uploadRaw(token, 'x', { name: 'Grüße & 日本.TXT' })
    assert.equal(unicode.status, 201)
    assert.equal(unicode.body.name, 'Grüße & 日本.TXT')
    assert.match(unicode.body.fileRef, /\.txt\?name=Gr%C3%BC%C3%9Fe\+%26\+/)
    assert.equal(parseFileRef(unicode.body.fileRef)?.name, 'Grüße & 日本.TXT')
  })

  test('unknown storageName: 400 as upstream, nothing stored', async ({ assert }) => {
    const before = await snapshot()
    const response = await uploadRaw(token, 'x', { name: 'a.txt', storageName: 'nope' })
    assert.equal(response.status, 400)
    assert.deepEqual(response.body, {
      error: 'Invalid file reference',
      details: "Cannot find FileStorage with name: 'nope'",
    })
    assert.deepEqual(await snapshot(), before)
  })

  test('FT3: a client that goes away mid-upload leaves no file, final or temporary', async ({
    assert,
  }) => {
    const before = await snapshot()
    for (const multipartMode of [false, true]) {
      const head = multipartMode
        ? `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 1048576\r\n\r\n` +
          `--b\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`
        : `Content-Type: application/octet-stream\r\nContent-Length: 1048576\r\n\r\n`
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(process.env.PORT), '127.0.0.1', () => {
          socket.write(
            `POST ${FILES}?name=cut.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
              `Authorization: Bearer ${token}\r\n${head}`
          )
          socket.write(Buffer.alloc(100_000, 1), () => setTimeout(() => socket.destroy(), 100))
        })
        socket.on('close', () => resolve())
        socket.on('error', () => {})
      })
    }
    let after = await snapshot()
    for (let i = 0; i < 40 && JSON.stringify(after) !== JSON.stringify(before); i++) {
      await new Promise((r) => setTimeout(r, 50))
      after = await snapshot()
    }
    assert.deepEqual(after, before)
  })

  test('no token: 401, nothing stored', async ({ assert }) => {
    const before = await snapshot()
    const response = await request(`${FILES}?name=a.txt`, { method: 'POST', body: 'x' })
    assert.equal(response.status, 401)
    assert.deepEqual(await snapshot(), before)
  })
})

test.group('Files API: upload size limit', (group) => {
  group.setup(async () => {
    token = await filesSetup()
  })

  test('default limit is 20 MB', async ({ assert }) => {
    assert.equal(engine.properties.get('svc.rest.max-upload-size'), '20MB')
  })

  test('exactly the limit is accepted; one byte more is 413 (raw, multipart)', async ({
    assert,
  }) => {
    await withProperty('svc.rest.max-upload-size', '1KB', async () => {
      const ok = await uploadRaw(token, Buffer.alloc(1024, 1), { name: 'ok.bin' })
      assert.equal(ok.status, 201, ok.text)
      const before = await snapshot()
      const raw = await uploadRaw(token, Buffer.alloc(1025, 1), { name: 'big.bin' })
      assert.equal(raw.status, 413, raw.text)
      assert.deepEqual(raw.body, {
        error: 'File upload failed',
        details: 'The file is larger than the maximum upload size (1024 bytes)',
      })
      const part = await uploadPart(token, Buffer.alloc(1025, 1), 'big.bin')
      assert.equal(part.status, 413, part.text)
      assert.equal(part.body.error, 'File upload failed')
      assert.deepEqual(await snapshot(), before)
    })
  })

  test('FL16: chunked upload without Content-Length stops once past the limit', async ({
    assert,
  }) => {
    await withProperty('svc.rest.max-upload-size', '64KB', async () => {
      const before = await snapshot()
      let sent = 0
      async function* endless() {
        // Up to 64 MB, but the server must answer long before.
        for (let i = 0; i < 1024; i++) {
          sent += 65536
          yield Buffer.alloc(65536, 7)
          await new Promise((r) => setTimeout(r, 1))
        }
      }
      const response = await request(`${FILES}?name=endless.bin`, {
        method: 'POST',
        headers: { ...auth(token), 'Content-Type': 'application/octet-stream' },
        body: endless(),
      })
      assert.equal(response.status, 413, response.text)
      assert.isBelow(sent, 16 * 1024 * 1024, 'the server stopped reading early')
      const form = multipart([{ name: 'file', filename: 'x.bin', data: Buffer.alloc(200_000) }])
      const chunked = await request(FILES, {
        method: 'POST',
        headers: { ...auth(token), 'Content-Type': form.contentType },
        body: [form.body.subarray(0, 100_000), form.body.subarray(100_000)],
      })
      assert.equal(chunked.status, 413, chunked.text)
      assert.deepEqual(await snapshot(), before, 'no partial or temporary file is left')
    })
  })

  test('a declared Content-Length over the limit is refused before reading', async ({ assert }) => {
    await withProperty('svc.rest.max-upload-size', '1KB', async () => {
      const before = await storageListing()
      const response = await request(`${FILES}?name=declared.bin`, {
        method: 'POST',
        headers: { ...auth(token), 'Content-Length': String(10 * 1024 * 1024) },
        body: [Buffer.alloc(1024)],
      })
      assert.equal(response.status, 413)
      assert.deepEqual(await storageListing(), before)
    })
  })
})
