/**
 * Security catalogue rows FL11-FL15, FL17-FL19 (reference/security-test-catalogue.md): active
 * content, hostile names, ranges and writes to stored files. Path traversal and storages:
 * files_catalogue.spec.ts; FL16: files_upload.spec.ts; FL9: files_policies.spec.ts.
 */
import { test } from '@japa/runner'
import { readdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { localStorageRoot } from '#files/main'
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
    // Where a name that escaped the root would land: beside it and one level up. Both are shared
    // with the test passes CI runs at the same time (their scratch directories come and go), so
    // what counts is whether anything a hostile name would write appeared there.
    const parent = dirname(localStorageRoot())
    const above = [parent, dirname(parent)]
    const before = await Promise.all(above.map((dir) => readdir(dir)))
    const written = new Set(['evil.js', 'evil', '..\\..\\evil', 'b', 'x', 'cron.d', 'evil.sh'])
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
    for (const [i, dir] of above.entries()) {
      const added = (await readdir(dir)).filter((entry) => !before[i].includes(entry))
      assert.deepEqual(
        added.filter((entry) => written.has(entry)),
        [],
        `nothing beside the root (${dir})`
      )
    }

    const snapshotBefore = await snapshot()
    const long = await uploadRaw(token, 'x', { name: `${'n'.repeat(1000)}.txt` })
    assert.equal(long.status, 400)
    assert.equal(long.body.error, 'File upload failed')
    assert.deepEqual(await snapshot(), snapshotBefore)
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
