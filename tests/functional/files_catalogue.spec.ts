/**
 * Security catalogue rows FL1-FL8, FL10, FL20, FL21 (reference/security-test-catalogue.md):
 * path traversal and storages on download. FL11-FL15, FL17-FL19: files_catalogue_content.spec.ts;
 * FL16: files_upload.spec.ts; FL9 (an entity the caller cannot read): files_policies.spec.ts. Every hostile request is also checked with the oracle "nothing
 * happened": the storage listing and every entity table are unchanged, and no bytes leak.
 */
import { test } from '@japa/runner'
import { randomUUID } from 'node:crypto'
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises'
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
