/**
 * Issue 23: the `s3` storage end to end against a real S3 protocol server (s3rver, started
 * here) behind a server process whose default storage is `s3`: raw and multipart uploads,
 * multipart uploads to S3 (files larger than a part), whole and ranged downloads byte for byte,
 * HEAD, the 413 limit with nothing left in the bucket, file attributes of entities.
 * The outage tests (catalogue FT13) are in files_s3_outage.spec.ts.
 */
import { test } from '@japa/runner'
import { SQLITE_PASS_ONLY } from '#tests/helpers/server_process'
import type { ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { PART_SIZE } from '#files/s3_storage'
import { auth, multipart, request, snapshot } from '#tests/helpers/files'
import { type S3rver, keyOf, s3ServerSetup } from '#tests/helpers/s3rver'

const MiB = 1024 * 1024
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/** The body in 1 MiB chunks without a Content-Length (chunked): S3 cannot be told the size. */
async function* chunked(data: Buffer) {
  for (let at = 0; at < data.length; at += MiB) yield data.subarray(at, at + MiB)
}

test.group('Files API on S3 (s3rver)', (group) => {
  group.each.skip(SQLITE_PASS_ONLY !== null, SQLITE_PASS_ONLY ?? '')
  let s3: S3rver
  let server: { child: ChildProcess; port: number }
  let token = ''
  const call = (path: string, options: Parameters<typeof request>[1] = {}) =>
    request(path, { ...options, port: server.port })
  const upload = (data: Buffer | AsyncIterable<Buffer>, name: string) =>
    call(`/rest/files?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { ...auth(token), 'Content-Type': 'application/octet-stream' },
      body: data,
    })
  const download = (fileRef: string, headers: Record<string, string> = {}, method = 'GET') =>
    call(`/rest/files?fileRef=${encodeURIComponent(fileRef)}`, {
      method,
      headers: { ...auth(token), ...headers },
    })

  group.setup(async () => {
    if (SQLITE_PASS_ONLY) return
    ;({ s3, server, token } = await s3ServerSetup())
  })

  test('raw and multipart uploads are objects in the bucket; downloads are byte-exact', async ({
    assert,
  }) => {
    const raw = randomBytes(100_000)
    const up = await upload(raw, 'report 2024.pdf')
    assert.equal(up.status, 201, up.text)
    assert.match(
      up.body.fileRef,
      /^s3:\/\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}\.pdf\?name=report\+2024\.pdf$/
    )
    assert.deepEqual([up.body.name, up.body.size], ['report 2024.pdf', raw.length])

    const data = randomBytes(50_000)
    const form = multipart([{ name: 'file', filename: 'cat.png', data }])
    const part = await call('/rest/files', {
      method: 'POST',
      headers: { ...auth(token), 'Content-Type': form.contentType },
      body: form.body,
    })
    assert.equal(part.status, 201, part.text)
    assert.match(part.body.fileRef, /^s3:\/\//)

    // Only the final keys: the temporary objects were copied and deleted.
    assert.deepEqual(await s3.keys(), [keyOf(up.body.fileRef), keyOf(part.body.fileRef)].sort())
    assert.equal(sha(await s3.bytes(keyOf(up.body.fileRef))), sha(raw))

    const whole = await download(up.body.fileRef)
    assert.equal(whole.status, 200)
    assert.equal(whole.headers['content-length'], String(raw.length))
    assert.equal(whole.headers['content-type'], 'application/pdf')
    assert.equal(sha(whole.bytes), sha(raw))
    const png = await download(part.body.fileRef, {}, 'GET')
    assert.equal(sha(png.bytes), sha(data))
  })

  test('a file larger than an S3 part: chunked upload, exact ranges, 416, HEAD', async ({
    assert,
  }) => {
    const data = randomBytes(PART_SIZE + 12345)
    const up = await upload(chunked(data), 'big.bin')
    assert.equal(up.status, 201, up.text)
    assert.equal(up.body.size, data.length)
    const key = keyOf(up.body.fileRef)
    const keys = await s3.keys()
    assert.include(keys, key)
    assert.deepEqual(
      keys.filter((k) => k.startsWith('_uploads/')),
      [],
      'no temporary object'
    )
    assert.equal(sha(await s3.bytes(key)), sha(data), 'the object is the file, parts in order')

    const ranges: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      [`bytes=${PART_SIZE - 10}-${PART_SIZE + 9}`, PART_SIZE - 10, PART_SIZE + 9],
      ['bytes=-100', data.length - 100, data.length - 1],
      [`bytes=${data.length - 5}-`, data.length - 5, data.length - 1],
    ]
    for (const [header, start, end] of ranges) {
      const answer = await download(up.body.fileRef, { Range: header })
      assert.equal(answer.status, 206, header)
      assert.equal(answer.headers['content-range'], `bytes ${start}-${end}/${data.length}`)
      assert.equal(answer.headers['content-length'], String(end - start + 1))
      assert.isTrue(answer.bytes.equals(data.subarray(start, end + 1)), header)
    }
    const beyond = await download(up.body.fileRef, { Range: `bytes=${data.length}-` })
    assert.equal(beyond.status, 416)
    assert.equal(beyond.headers['content-range'], `bytes */${data.length}`)

    const whole = await download(up.body.fileRef)
    assert.equal(whole.bytes.length, data.length)
    assert.equal(sha(whole.bytes), sha(data))
    const head = await download(up.body.fileRef, {}, 'HEAD')
    assert.equal(head.status, 200)
    assert.equal(head.headers['content-length'], String(data.length))
    assert.equal(head.bytes.length, 0)
  }).timeout(60_000)

  test('413 over svc.rest.max-upload-size (declared and chunked): nothing in the bucket', async ({
    assert,
  }) => {
    const before = { keys: await s3.keys(), ...(await snapshot()) }
    const limit = 12 * MiB
    const declared = await upload(Buffer.alloc(limit + 1, 7), 'too-big.bin')
    assert.equal(declared.status, 413, declared.text)
    assert.deepEqual(declared.body, {
      error: 'File upload failed',
      details: `The file is larger than the maximum upload size (${limit} bytes)`,
    })
    // Chunked: a part reaches S3 before the limit is crossed; the multipart upload is aborted.
    const streamed = await upload(chunked(Buffer.alloc(limit + MiB, 8)), 'too-big.bin')
    assert.equal(streamed.status, 413, streamed.text)
    assert.deepEqual({ keys: await s3.keys(), ...(await snapshot()) }, before)
    const after = await upload(Buffer.from('fits'), 'small.txt')
    assert.equal(after.status, 201, after.text)
  }).timeout(60_000)

  test('an entity file attribute holds an s3 fileRef; the file outlives the entity', async ({
    assert,
  }) => {
    const json = { ...auth(token), 'Content-Type': 'application/json' }
    const up = await upload(Buffer.from('portrait'), 'me.jpg')
    const created = await call('/rest/entities/bookstore_Author', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ lastName: 'Herbert', photo: up.body.fileRef }),
    })
    assert.equal(created.status, 201, created.text)
    const read = await call(`/rest/entities/bookstore_Author/${created.body.id}`, {
      headers: auth(token),
    })
    assert.equal(read.body.photo, up.body.fileRef)
    assert.equal((await download(read.body.photo)).text, 'portrait')

    // No DELETE on files (as upstream); deleting the entity leaves the file (as upstream).
    const remove = await download(up.body.fileRef, {}, 'DELETE')
    assert.equal(remove.status, 405)
    const gone = await call(`/rest/entities/bookstore_Author/${created.body.id}`, {
      method: 'DELETE',
      headers: auth(token),
    })
    assert.oneOf(gone.status, [200, 204], gone.text)
    assert.include(await s3.keys(), keyOf(up.body.fileRef))
    assert.equal((await download(up.body.fileRef)).text, 'portrait')

    const missing = 's3://2024/01/02/11111111-2222-4333-8444-555555555555.jpg?name=x.jpg'
    const notFound = await download(missing)
    assert.equal(notFound.status, 404, notFound.text)
    assert.deepEqual(notFound.body, {
      error: 'File not found',
      details: `File not found. File reference: ${missing}`,
    })
  })
})
