/**
 * Storage failures (issue 7; catalogue FT6): a full disk answers 507 and keeps nothing, the
 * server goes on serving, and an upload fits again once there is room; other storage errors are
 * a clear 500/503; temporary files a crash left behind are swept. The full disk is a 1 MiB
 * tmpfs mounted by the test (root, as on this project's machines); without mount rights a
 * storage that fails with ENOSPC half-way stands in for it (FILES_TEST_NO_MOUNT=1 forces that).
 */
import { test } from '@japa/runner'
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { Disk } from '@adonisjs/drive'
import { FSDriver } from '@adonisjs/drive/drivers/fs'
import { registerStorage, unregisterStorage, type FileStorage } from '#files/main'
import { LocalStorage, TEMP_PREFIX } from '#files/storage'
import {
  download,
  filesSetup,
  request,
  snapshot,
  uploadPart,
  uploadRaw,
} from '#tests/helpers/files'

let token = ''

function localStorageAt(root: string) {
  return new LocalStorage(
    'fs',
    new Disk(new FSDriver({ location: root, visibility: 'private' })),
    root
  )
}

/** The local storage, but writes fail with ENOSPC after 64 KiB (when tmpfs cannot be mounted). */
class FullDisk extends LocalStorage {
  async write(key: string, source: Readable) {
    let seen = 0
    const space = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length
        const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
        callback(seen > 65536 ? full : null, chunk)
      },
    })
    source.on('error', (error) => space.destroy(error))
    await super.write(key, source.pipe(space))
  }
}

/** Unmounts, waiting for streams still closing their files; lazily as a last resort. */
async function unmount(root: string) {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      return execFileSync('umount', [root], { stdio: 'ignore' })
    } catch {
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  execFileSync('umount', ['-l', root], { stdio: 'ignore' })
}

async function listing(root: string) {
  return (await readdir(root, { recursive: true })).sort()
}

test.group('Files API: storage failures', (group) => {
  let root = ''
  let mounted = false

  group.setup(async () => {
    token = await filesSetup()
    root = await mkdtemp(join(tmpdir(), 'mg-full-disk-'))
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', root], { stdio: 'ignore' })
      mounted = process.env.FILES_TEST_NO_MOUNT !== '1'
      if (!mounted) execFileSync('umount', [root])
    } catch {
      console.warn('files_storage: cannot mount a tmpfs; simulating a full disk instead')
    }
    registerStorage(
      mounted
        ? localStorageAt(root)
        : new FullDisk(
            'fs',
            new Disk(new FSDriver({ location: root, visibility: 'private' })),
            root
          )
    )
    return async () => {
      unregisterStorage('fs')
      if (mounted) await unmount(root)
      await rm(root, { recursive: true, force: true })
    }
  })

  test('FT6: a full disk is 507, nothing half-written; room again: uploads work', async ({
    assert,
  }) => {
    const before = await snapshot()
    const raw = await uploadRaw(token, Buffer.alloc(2 * 1024 * 1024, 1), { name: 'big.bin' })
    assert.equal(raw.status, 507, raw.text)
    assert.deepEqual(raw.body, {
      error: 'File upload failed',
      details: 'Not enough space in the file storage; nothing was stored',
    })
    const part = await uploadPart(token, Buffer.alloc(2 * 1024 * 1024, 2), 'big.bin')
    assert.equal(part.status, 507, part.text)
    const files = (await listing(root)).filter((f) => !f.endsWith(TEMP_PREFIX))
    assert.deepEqual(files, [], 'no partial or temporary file on the full disk')
    assert.deepEqual(await snapshot(), before)

    assert.equal((await request('/health')).status, 200, 'the server keeps serving')
    const small = await uploadRaw(token, Buffer.alloc(10 * 1024, 3), { name: 'small.bin' })
    assert.equal(small.status, 201, small.text)
    const back = await download(token, small.body.fileRef)
    assert.equal(back.bytes.length, 10 * 1024)
  })
})

test.group('Files API: other storage errors', (group) => {
  group.setup(async () => {
    token = await filesSetup()
  })

  test('a failing storage: upload 500, download 503, as upstream bodies', async ({ assert }) => {
    const broken: FileStorage = {
      name: 'fs',
      write: async () => {
        throw Object.assign(new Error('EIO: i/o error, /secret/path'), { code: 'EIO' })
      },
      commit: async () => {},
      remove: async () => {},
      sweep: async () => 0,
      find: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED /secret/path'), { code: 'EIO' })
      },
    }
    registerStorage(broken)
    try {
      const upload = await uploadRaw(token, 'x', { name: 'x.txt' })
      assert.equal(upload.status, 500)
      assert.deepEqual(upload.body, { error: 'File upload failed', details: 'File upload failed' })
      const ref = 'fs://2024/01/02/11111111-2222-4333-8444-555555555555.txt?name=x.txt'
      const read = await download(token, ref)
      assert.equal(read.status, 503)
      assert.notInclude(read.text, '/secret/path')
    } finally {
      unregisterStorage('fs')
    }
  })

  test('FT3: temporary files older than an hour are swept, fresh ones kept', async ({ assert }) => {
    const root = await mkdtemp(join(tmpdir(), 'mg-sweep-'))
    try {
      await mkdir(join(root, TEMP_PREFIX))
      await writeFile(join(root, TEMP_PREFIX, 'old.part'), 'x')
      await writeFile(join(root, TEMP_PREFIX, 'fresh.part'), 'y')
      const past = new Date(Date.now() - 2 * 3600 * 1000)
      await utimes(join(root, TEMP_PREFIX, 'old.part'), past, past)
      const removed = await localStorageAt(root).sweep(3600 * 1000)
      assert.equal(removed, 1)
      assert.deepEqual(await readdir(join(root, TEMP_PREFIX)), ['fresh.part'])
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
