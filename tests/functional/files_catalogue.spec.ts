/**
 * Security catalogue rows FL1-FL8, FL10-FL21 (reference/security-test-catalogue.md) against the
 * Files API; FL9 (downloads through an entity the caller cannot read) needs enforced roles and
 * is in files_policies.spec.ts. Every hostile request is also checked with the oracle "nothing
 * happened": the storage listing and every entity table are unchanged, and no bytes leak.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { localStorageRoot, registerStorage, unregisterStorage } from '#files/main'
import type { FileStorage } from '#files/main'
import {
  FILES,
  auth,
  download,
  filesSetup,
  request,
  snapshot,
  storageListing,
  uploadPart,
  uploadRaw,
} from '#tests/helpers/files'

let token = ''
const SECRET = 'TOP-SECRET-OUTSIDE-THE-ROOT'

/** A download that must be refused with one of `statuses` and leak nothing. */
async function refused(assert: any, fileRef: string, statuses: number[], raw = false) {
  const before = await snapshot()
  const response = raw
    ? await request(`${FILES}?fileRef=${fileRef}`, { headers: auth(token) })
    : await download(token, fileRef)
  assert.include(statuses, response.status, `${fileRef}: ${response.status} ${response.text}`)
  assert.notInclude(response.text, 'root:')
  assert.notInclude(response.text, SECRET)
  assert.notInclude(response.text, localStorageRoot())
  assert.deepEqual(await snapshot(), before)
  return response
}

test.group('Files catalogue: path traversal on download (FL1-FL8, FL10, FL20, FL21)', (group) => {
  group.setup(async () => {
    token = await filesSetup()
  })

  test('FL1: ../ in the path', async ({ assert }) => {
    await refused(assert, 'fs://../../../../etc/passwd?name=x.txt', [400, 404])
  })

  test('FL2: encoded and double-encoded dots and slashes', async ({ assert }) => {
    await refused(assert, 'fs://%2e%2e%2f%2e%2e%2fetc%2fpasswd?name=x', [400, 404])
    await refused(assert, 'fs://%252e%252e%252f%252e%252e%252fetc%252fpasswd?name=x', [400, 404])
    // Sent without the client's own encoding: the server's one decoding yields ../../
    await refused(assert, 'fs://%2e%2e%2f%2e%2e%2fetc%2fpasswd%3Fname%3Dx', [400, 404], true)
  })

  test('FL3: backslashes', async ({ assert }) => {
    await refused(assert, 'fs://..\\..\\..\\etc\\passwd?name=x', [400, 404])
    await refused(assert, 'fs://2024\\01\\02\\..\\..\\x.txt?name=x', [400, 404])
  })

  test('FL4: absolute paths', async ({ assert }) => {
    await refused(assert, 'fs:///etc/passwd?name=x', [400, 404])
    await refused(assert, 'fs://C:/Windows/win.ini?name=x', [400, 404])
  })

  test('FL5: a valid prefix, then an escape', async ({ assert }) => {
    await refused(assert, 'fs://2026/01/01/../../../../etc/hosts?name=x', [400, 404])
  })

  test('FL6: NUL inside the path: 400', async ({ assert }) => {
    await refused(assert, 'fs://a.png%00/../../etc/passwd?name=x', [400])
    await refused(assert, 'fs://a.png\u0000/../../etc/passwd?name=x', [400])
  })

  test('FL7: other schemes and unknown storages: 400', async ({ assert }) => {
    await refused(assert, 'file:///etc/passwd', [400])
    await refused(assert, 's3://other-bucket/key', [400])
    const unknown = await refused(assert, `ftp://2024/01/02/${randomUUID()}.txt?name=x.txt`, [400])
    assert.deepEqual(unknown.body, {
      error: 'Invalid file reference',
      details: "Cannot find FileStorage with name: 'ftp'",
    })
  })

  test('FL8: a symlink planted inside the root pointing outside: 404', async ({ assert }) => {
    const outside = await mkdtemp(join(tmpdir(), 'mg-outside-'))
    try {
      await writeFile(join(outside, 'secret.txt'), SECRET)
      const id = randomUUID()
      const linkFile = join(localStorageRoot(), '2024', '01', '02', `${id}.txt`)
      await mkdir(dirname(linkFile), { recursive: true })
      await symlink(join(outside, 'secret.txt'), linkFile)
      await refused(assert, `fs://2024/01/02/${id}.txt?name=a.txt`, [404])
      // A symlinked directory on the way.
      const other = randomUUID()
      await writeFile(join(outside, `${other}.txt`), SECRET)
      await symlink(outside, join(localStorageRoot(), '2024', '01', '03'))
      await refused(assert, `fs://2024/01/03/${other}.txt?name=a.txt`, [404])
      await symlink('/etc/passwd', join(localStorageRoot(), '2024', '01', '02', `${other}.txt`))
      await refused(assert, `fs://2024/01/02/${other}.txt?name=a.txt`, [404])
    } finally {
      await rm(outside, { recursive: true, force: true })
      await rm(join(localStorageRoot(), '2024'), { recursive: true, force: true })
    }
  })

  test('FL10: a deleted file and a ref never issued: 404 without a path', async ({ assert }) => {
    const upload = await uploadRaw(token, 'short-lived', { name: 'gone.txt' })
    const path = upload.body.fileRef.replace(/^fs:\/\/|\?.*$/g, '')
    await unlink(join(localStorageRoot(), path))
    const gone = await refused(assert, upload.body.fileRef, [404])
    assert.equal(gone.body.error, 'File not found')
    await refused(assert, `fs://2030/12/31/${randomUUID()}.png?name=never.png`, [404])
  })

  test('FL20: directories, `..` and empty keys: 400/404, the process stays up', async ({
    assert,
  }) => {
    const id = randomUUID()
    await mkdir(join(localStorageRoot(), '2024', '02', '03', id), { recursive: true })
    try {
      await refused(assert, `fs://2024/02/03/${id}?name=dir`, [404])
      await refused(assert, 'fs://2024/02/03/?name=dir', [400])
      await refused(assert, 'fs://2024/02/03?name=dir', [400])
      await refused(assert, 'fs://..?name=x', [400])
      await refused(assert, 'fs://?name=x', [400])
      await refused(assert, 'fs://', [400])
    } finally {
      await rm(join(localStorageRoot(), '2024'), { recursive: true, force: true })
    }
    assert.equal((await request('/health')).status, 200)
  })

  test('FL21: S3 keys with ../, // or a leading / never reach the storage', async ({ assert }) => {
    const asked: string[] = []
    const fake: FileStorage = {
      name: 's3',
      write: async () => {},
      commit: async () => {},
      remove: async () => {},
      sweep: async () => 0,
      find: async (key) => {
        asked.push(key)
        return null
      },
    }
    registerStorage(fake)
    try {
      const id = randomUUID()
      for (const ref of [
        `s3://../2024/01/02/${id}.png?name=x`,
        `s3://2024/01/02/../../../other-prefix/${id}.png?name=x`,
        `s3://2024//01/02/${id}.png?name=x`,
        `s3:///2024/01/02/${id}.png?name=x`,
        `s3:////2024/01/02/${id}.png?name=x`,
        `s3://other-bucket/2024/01/02/${id}.png?name=x`,
      ])
        await refused(assert, ref, [400])
      assert.deepEqual(asked, [], 'no malformed key was looked up')
      await refused(assert, `s3://2024/01/02/${id}.png?name=x`, [404])
      assert.deepEqual(asked, [`2024/01/02/${id}.png`], 'a valid ref names exactly its key')
    } finally {
      unregisterStorage('s3')
    }
  })
})

test.group('Files catalogue: active content and names (FL11-FL15, FL17, FL18)', (group) => {
  group.setup(async () => {
    token = await filesSetup()
  })

  const safeHeaders = (assert: any, headers: Record<string, any>) => {
    assert.match(headers['content-disposition'], /^attachment;/)
    assert.notMatch(headers['content-type'], /html|svg|xml|javascript/)
    assert.equal(headers['x-content-type-options'], 'nosniff')
    assert.equal(headers['content-security-policy'], 'sandbox')
  }

  test('FL11: uploaded HTML is served as an opaque attachment, sandboxed', async ({ assert }) => {
    const html = '<html><script>alert(document.cookie)</script></html>'
    const ref = (await uploadRaw(token, html, { name: 'x.html' }, 'text/html')).body.fileRef
    for (const attachment of [undefined, 'false', 'true']) {
      const response = await download(token, ref, { attachment })
      assert.equal(response.status, 200)
      assert.equal(response.headers['content-type'], 'application/octet-stream')
      safeHeaders(assert, response.headers)
    }
  })

  test('FL12: SVG with an onload script: as FL11', async ({ assert }) => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'
    const ref = (await uploadPart(token, svg, 'x.svg', {}, 'image/svg+xml')).body.fileRef
    safeHeaders(assert, (await download(token, ref)).headers)
  })

  test('FL13: the type does not follow a name changed to .html', async ({ assert }) => {
    const ref = (await uploadRaw(token, 'PNGDATA', { name: 'pic.png' })).body.fileRef
    const renamed = ref.replace(/\?name=.*$/, '?name=x.html')
    const response = await download(token, renamed)
    assert.equal(response.status, 200)
    assert.equal(response.headers['content-type'], 'image/png')
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
  })

  test('FL14: quotes, semicolons, CR/LF and non-ASCII in names: no header injection', async ({
    assert,
  }) => {
    const names = [
      'a"b.txt',
      'a;b=c.txt',
      'a\r\nSet-Cookie: x=1.txt',
      'Ünïcødé 文件.txt',
      'a\\b.txt',
    ]
    for (const name of names) {
      const upload = await uploadRaw(token, 'x', { name })
      assert.equal(upload.status, 201, upload.text)
      assert.equal(upload.body.name, name)
      const response = await download(token, upload.body.fileRef)
      assert.isUndefined(response.headers['set-cookie'])
      const header = response.headers['content-disposition']!
      const m =
        /^(inline|attachment); filename="([^"\\\r\n]*)"; filename\*=UTF-8''([A-Za-z0-9%!#$&+\-.^_`|~]*)$/.exec(
          header
        )
      assert.isNotNull(m, header)
      assert.equal(decodeURIComponent(m![3]), name)
    }
  })

  test('FL15: hostile upload names stay metadata; keys are server-generated', async ({
    assert,
  }) => {
    const parent = dirname(localStorageRoot())
    const parentBefore = (await readdir(parent)).sort()
    const names = ['../../evil.js', '..\\..\\evil', '/etc/cron.d/x', 'a/../../b', '.', '..']
    for (const name of names) {
      for (const response of [
        await uploadRaw(token, 'evil', { name }),
        await uploadPart(token, 'evil', 'part.bin', { name }),
      ]) {
        assert.equal(response.status, 201, `${name}: ${response.text}`)
        assert.equal(response.body.name, name)
        assert.match(
          response.body.fileRef,
          /^fs:\/\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}(\.[a-z0-9]+)?\?name=/
        )
      }
    }
    // A multipart part whose own file name is hostile.
    const part = await uploadPart(token, 'evil', '../../../../tmp/evil.sh')
    assert.equal(part.status, 201)
    assert.equal(part.body.name, '../../../../tmp/evil.sh')
    for (const line of await storageListing())
      assert.match(line, /^\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}(\.[a-z0-9]+)? /)
    assert.deepEqual((await readdir(parent)).sort(), parentBefore, 'nothing beside the root')

    const before = await snapshot()
    const long = await uploadRaw(token, 'x', { name: `${'n'.repeat(1000)}.txt` })
    assert.equal(long.status, 400)
    assert.equal(long.body.error, 'File upload failed')
    assert.deepEqual(await snapshot(), before)
  })

  test('FL17: HTML bytes declared as image/png are opaque bytes, served per FL11', async ({
    assert,
  }) => {
    const html = '<html><script>alert(1)</script></html>'
    const ref = (await uploadRaw(token, html, { name: 'x.png' }, 'image/png')).body.fileRef
    const response = await download(token, ref)
    assert.equal(response.text, html)
    assert.notMatch(response.headers['content-type']!, /html/)
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
    assert.equal(response.headers['content-security-policy'], 'sandbox')
    const html2 = (await uploadRaw(token, html, { name: 'y.html' }, 'image/png')).body.fileRef
    safeHeaders(assert, (await download(token, html2)).headers)
  })

  test('FL18: a thousand ranges, a suffix, a start past the end: bounded', async ({ assert }) => {
    const ref = (await uploadRaw(token, Buffer.alloc(4096, 1), { name: 'r.bin' })).body.fileRef
    const started = Date.now()
    const many = `bytes=${Array.from({ length: 1000 }, () => '0-0').join(',')}`
    const all = await download(token, ref, { headers: { Range: many } })
    assert.equal(all.status, 200)
    assert.equal(all.bytes.length, 4096)
    assert.isBelow(Date.now() - started, 2000)
    const last = await download(token, ref, { headers: { Range: 'bytes=-1' } })
    assert.equal(last.status, 206)
    assert.equal(last.bytes.length, 1)
    const past = await download(token, ref, { headers: { Range: 'bytes=999999999-' } })
    assert.equal(past.status, 416)
  })
})

test.group('Files catalogue: writes to stored files (FL19)', (group) => {
  group.setup(async () => {
    token = await filesSetup()
  })

  test('FL19: PUT/PATCH/DELETE of a file: 401 without a token, 405 with one; bytes unchanged', async ({
    assert,
  }) => {
    const ref = (await uploadRaw(token, 'original', { name: 'keep.txt' })).body.fileRef
    const before = await snapshot()
    const query = new URLSearchParams({ fileRef: ref, name: 'evil.txt' })
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const anonymous = await request(`${FILES}?${query}`, {
        method,
        body: 'replaced',
      })
      assert.equal(anonymous.status, 401, `${method}: ${anonymous.text}`)
      const authed = await request(`${FILES}?${query}`, {
        method,
        headers: { ...auth(token), 'Content-Type': 'application/json' },
        body: JSON.stringify({ fileRef: ref, path: '../x' }),
      })
      assert.equal(authed.status, 405, `${method}: ${authed.text}`)
    }
    assert.deepEqual(await snapshot(), before)
    assert.equal((await download(token, ref)).text, 'original')
  })
})
