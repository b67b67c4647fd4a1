/**
 * Issue 7: a 200 MB upload (raw and multipart) and a 200 MB download stream through a server
 * process whose resident memory stays under 150 MB above its idle size. The server is a second
 * process (server.js) on the test database, so that the figure is the server's alone; its RSS
 * is sampled from /proc every 20 ms. Figures: printed, and written to tmp/files-memory.json.
 *
 *   TEST_ID=files npm test -- functional --files tests/functional/files_memory.spec.ts
 */
import { test } from '@japa/runner'
import type { ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import { filesSetup } from '#tests/helpers/files'
import { startServerProcess } from '#tests/helpers/server_process'

const MB = 1024 * 1024
const SIZE = 200 * MB
const BUDGET = 150 * MB

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024

/**
 * 1 MB chunks, each filled with one byte value (0-250): the runs of CR and `-` bytes are the
 * worst case of a multipart boundary search. Hashed as they are produced.
 */
function* payload(hash: ReturnType<typeof createHash>) {
  for (let i = 0; i < SIZE / MB; i++) {
    const chunk = Buffer.alloc(MB, i % 251)
    hash.update(chunk)
    yield chunk
  }
}

/** One request against the second server; the response is hashed, never kept. */
function call(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Iterable<Buffer> }
): Promise<{ status: number; size: number; digest: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const hash = createHash('sha256')
        let size = 0
        let text = ''
        res.on('data', (chunk: Buffer) => {
          size += chunk.length
          hash.update(chunk)
          if (text.length < 2000) text += chunk.toString('utf8', 0, 2000)
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, size, digest: hash.digest('hex'), text })
        )
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    ;(async () => {
      for (const chunk of options.body ?? []) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r))
      }
      req.end()
    })().catch(reject)
  })
}

const startServer = (storageDir: string) =>
  startServerProcess({ MODELGATE_STORAGE_DIR: storageDir, SVC_REST_MAX_UPLOAD_SIZE: '256MB' })

test.group('Files API: memory while streaming 200 MB', (group) => {
  let server: { child: ChildProcess; port: number }
  let storageDir = ''
  let token = ''

  group.setup(async () => {
    token = await filesSetup()
    storageDir = await mkdtemp(join(tmpdir(), 'mg-files-memory-'))
    server = await startServer(storageDir)
    return async () => {
      server.child.kill('SIGTERM')
      await rm(storageDir, { recursive: true, force: true })
    }
  })

  test('200 MB raw and multipart uploads and a download: RSS < idle + 150 MB', async ({
    assert,
  }) => {
    const { child, port } = server
    const headers = { Authorization: `Bearer ${token}` }
    // Warm-up: the first requests load (and, from the TypeScript sources, compile) the code.
    const small = await call(port, '/rest/files?name=warm.bin', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/octet-stream' },
      body: [Buffer.alloc(1024)],
    })
    assert.equal(small.status, 201, small.text)
    const warmRef = JSON.parse(small.text).fileRef
    await call(port, `/rest/files?fileRef=${encodeURIComponent(warmRef)}`, { headers })
    await new Promise((r) => setTimeout(r, 500))
    const idle = Math.max(rssOf(child.pid!), rssOf(child.pid!))
    let peak = idle
    let overall = idle
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(child.pid!))
      overall = Math.max(overall, peak)
    }, 20)
    const peaks: Record<string, number> = {}
    const started = Date.now()
    try {
      const sent = createHash('sha256')
      const raw = await call(port, '/rest/files?name=big.bin', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/octet-stream' },
        body: payload(sent),
      })
      assert.equal(raw.status, 201, raw.text)
      const uploaded = JSON.parse(raw.text)
      assert.equal(uploaded.size, SIZE)
      const expected = sent.digest('hex')
      peaks.rawUpload = peak
      peak = rssOf(child.pid!)

      const boundary = 'mgmemoryboundary'
      const multipartSent = createHash('sha256')
      const body = (function* () {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big2.bin"\r\n\r\n`
        )
        yield* payload(multipartSent)
        yield Buffer.from(`\r\n--${boundary}--\r\n`)
      })()
      const multipart = await call(port, '/rest/files', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body,
      })
      assert.equal(multipart.status, 201, multipart.text)
      assert.equal(JSON.parse(multipart.text).size, SIZE)
      peaks.multipartUpload = peak
      peak = rssOf(child.pid!)

      const back = await call(port, `/rest/files?fileRef=${encodeURIComponent(uploaded.fileRef)}`, {
        headers,
      })
      assert.equal(back.status, 200)
      assert.equal(back.size, SIZE)
      assert.equal(back.digest, expected, 'the bytes come back unchanged')
      peaks.download = peak
    } finally {
      clearInterval(sampler)
    }
    const figures = {
      idleRssMB: +(idle / MB).toFixed(1),
      peakRssMB: +(overall / MB).toFixed(1),
      aboveIdleMB: +((overall - idle) / MB).toFixed(1),
      peaksAboveIdleMB: Object.fromEntries(
        Object.entries(peaks).map(([k, v]) => [k, +((v - idle) / MB).toFixed(1)])
      ),
      seconds: (Date.now() - started) / 1000,
      transferredMB: 3 * 200,
    }
    console.log(`files memory: ${JSON.stringify(figures)}`)
    writeFileSync(app.makePath('tmp', 'files-memory.json'), JSON.stringify(figures, null, 2))
    assert.isBelow(overall - idle, BUDGET)
  }).timeout(300_000)
})
