/**
 * Process lifecycle of one server (README "Start, stop and timeouts"): slow clients are cut by
 * the header and request timeouts while others are served (catalogue FT12, short version), a
 * SIGTERM drains the requests in flight and exits 0 (FT11), and a database that is not
 * reachable at start is retried a few times before the start fails.
 * LIFECYCLE_SLOWLORIS sets the number of slow connections (default 50; the catalogue's 200).
 */
import { test } from '@japa/runner'
import { createHash } from 'node:crypto'
import http from 'node:http'
import net from 'node:net'
import db from '@adonisjs/lucid/services/db'
import { localStorageRoot } from '#files/main'
import { auth, download, filesSetup, multipart } from '#tests/helpers/files'
import { dialect } from '#tests/helpers/database'
import {
  freePort,
  spawnServerProcess,
  startServerProcess,
  type ServerProcess,
} from '#tests/helpers/server_process'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const HEADERS_TIMEOUT = 1500
const REQUEST_TIMEOUT = 4000

interface Sent {
  status: number
  headers: http.IncomingHttpHeaders
  body: any
  error?: string
}

/**
 * A request whose headers go out at once and whose body is written in 8 pieces over `spreadMs`,
 * `holdMs` after `gate` opens; `sent` resolves once the server has read the headers.
 */
function slowRequest(
  port: number,
  path: string,
  options: {
    headers: Record<string, string>
    body: Buffer
    gate: Promise<void>
    holdMs: number
    spreadMs: number
  }
) {
  let headersOut!: () => void
  const sent = new Promise<void>((resolve) => (headersOut = resolve))
  const agent = new http.Agent({ keepAlive: true })
  const done = new Promise<Sent>((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        // 100-continue: the server's interim answer says it has read the headers (the
        // request is in flight, not waiting in the accept queue).
        headers: {
          ...options.headers,
          'Content-Length': String(options.body.length),
          'Expect': '100-continue',
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          let body: any = text
          try {
            body = JSON.parse(text)
          } catch {}
          agent.destroy()
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body })
        })
      }
    )
    req.on('error', (e: any) => resolve({ status: 0, headers: {}, body: null, error: e.code }))
    req.flushHeaders()
    req.once('continue', headersOut)
    ;(async () => {
      await options.gate
      await sleep(options.holdMs)
      const parts = 8
      const size = Math.ceil(options.body.length / parts)
      for (let i = 0; i < parts; i++) {
        req.write(options.body.subarray(i * size, (i + 1) * size))
        await sleep(options.spreadMs / parts)
      }
      req.end()
    })()
  })
  return { sent, done }
}

/**
 * A connection that writes `prefix` at once, then `text` one byte every `everyMs`; resolves
 * when the server closes it.
 */
function dribble(port: number, text: string, everyMs: number, prefix = '') {
  const started = Date.now()
  return new Promise<{ ms: number; answer: string }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(prefix))
    let answer = ''
    let i = 0
    const timer = setInterval(() => i < text.length && socket.write(text[i++]), everyMs)
    socket.on('data', (d) => (answer += d))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearInterval(timer)
      resolve({ ms: Date.now() - started, answer: answer.split('\r\n')[0] })
    })
  })
}

async function timedGet(port: number, path: string) {
  const started = performance.now()
  const response = await fetch(`http://127.0.0.1:${port}${path}`)
  await response.text()
  return { status: response.status, ms: performance.now() - started }
}

const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]

test.group('Operations: timeouts and graceful shutdown of a server process', (group) => {
  let server: ServerProcess
  let token = ''
  group.setup(async () => {
    token = await filesSetup()
    server = await startServerProcess({
      MODELGATE_STORAGE_DIR: localStorageRoot(),
      MODELGATE_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT),
      MODELGATE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT),
      MODELGATE_SHUTDOWN_TIMEOUT_MS: '10000',
    })
    return () => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL')
    }
  })

  test('FT12: slow clients are cut by the header and request timeouts; others are served meanwhile', async ({
    assert,
  }) => {
    const path = '/health/live'
    const baseline: number[] = []
    for (let i = 0; i < 20; i++) baseline.push((await timedGet(server.port, path)).ms)

    const count = Number(process.env.LIFECYCLE_SLOWLORIS) || 50
    // Headers at 1 byte/s never finish; a body at 1 byte/s never does either.
    const slowHeaders = Array.from({ length: count }, () =>
      dribble(server.port, 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Pad: ' + 'a'.repeat(60), 1000)
    )
    // A body at 5 bytes/s would take 100 s.
    const slowBody = Array.from({ length: 5 }, () =>
      dribble(
        server.port,
        'a'.repeat(500),
        200,
        'POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n'
      )
    )
    const during: number[] = []
    const until = Date.now() + HEADERS_TIMEOUT + 1000
    while (Date.now() < until) {
      const r = await timedGet(server.port, path)
      assert.equal(r.status, 200)
      during.push(r.ms)
    }

    const cut = await Promise.all(slowHeaders)
    // Node checks the timeouts every quarter of the shorter one (app/operations/shutdown.ts).
    for (const c of cut) {
      assert.isAtLeast(c.ms, HEADERS_TIMEOUT - 200, 'not before the header timeout')
      assert.isBelow(c.ms, HEADERS_TIMEOUT + 3000, 'slow headers cut by the header timeout')
      assert.match(c.answer, /^(HTTP\/1\.1 408 .*)?$/)
    }
    for (const b of await Promise.all(slowBody)) {
      assert.isAtLeast(b.ms, REQUEST_TIMEOUT - 200, 'not before the request timeout')
      assert.isBelow(b.ms, REQUEST_TIMEOUT + 3000, 'a slow body cut by the request timeout')
      assert.match(b.answer, /^(HTTP\/1\.1 408 .*)?$/)
    }
    // Normal requests kept their pace (a loose bound: the machine is shared).
    assert.isBelow(p99(during), Math.max(5 * p99(baseline), 300), 'p99 of normal requests')
  })
  test('FT11: SIGTERM lets 100 requests in flight finish, refuses new connections and exits 0', async ({
    assert,
  }) => {
    const port = server.port
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const files = Array.from({ length: 30 }, (_, i) => Buffer.alloc(32 * 1024 + i, `file ${i} `))
    const uploads = files.map((data, i) => {
      const form = multipart([{ name: 'file', filename: `drain-${i}.bin`, data }])
      // The slow ones: their bodies arrive over 1.5 s after the SIGTERM.
      return slowRequest(port, '/rest/files', {
        headers: { ...auth(token), 'Content-Type': form.contentType },
        body: form.body,
        gate,
        holdMs: 100,
        spreadMs: 1500,
      })
    })
    const creates = Array.from({ length: 70 }, (_, i) =>
      slowRequest(port, '/rest/entities/bookstore_Tag', {
        headers: { ...auth(token), 'Content-Type': 'application/json' },
        body: Buffer.from(JSON.stringify({ name: `drain-${i}` })),
        gate,
        holdMs: (i % 10) * 30,
        spreadMs: 80,
      })
    )
    // Every request's headers reached the server: all 100 are in flight.
    await Promise.all([...uploads, ...creates].map((r) => r.sent))
    const signalled = Date.now()
    server.child.kill('SIGTERM')
    await sleep(200)
    open()
    const refused = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1')
      socket.on('connect', () => {
        socket.destroy()
        resolve('connected')
      })
      socket.on('error', (e: any) => resolve(e.code))
    })
    assert.equal(refused, 'ECONNREFUSED', 'a new connection after SIGTERM is refused')

    const uploaded = await Promise.all(uploads.map((r) => r.done))
    const created = await Promise.all(creates.map((r) => r.done))
    const exit = await server.exited
    assert.deepEqual(exit, { code: 0, signal: null }, server.output().slice(-2000))
    assert.isBelow(Date.now() - signalled, 10_000 + 3000, 'drained within the shutdown timeout')
    assert.include(
      server.output(),
      'stopped: SIGTERM received (exit code 0)',
      server.output().slice(-1500)
    )
    for (const answer of [...uploaded, ...created]) {
      assert.oneOf(answer.status, [200, 201], JSON.stringify(answer.body ?? answer.error))
      assert.equal(answer.headers.connection, 'close', 'the kept-alive connection closes')
    }

    // Nothing half-written: every upload is stored whole, every create is a row.
    for (const [i, answer] of uploaded.entries()) {
      const stored = await download(token, answer.body.fileRef)
      assert.equal(stored.status, 200)
      const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex')
      assert.equal(digest(stored.bytes), digest(files[i]), `upload ${i}`)
    }
    const rows = await db
      .from('bookstore_tag')
      .where('name', 'like', 'drain-%')
      .select('id', 'name')
    assert.sameMembers(
      rows.map((r: any) => `${r.id} ${r.name}`),
      created.map((a, i) => `${a.body.id} drain-${i}`)
    )
  })
})

test.group('Operations: database unreachable at start', () => {
  test('a few retries, one line each, then exit 1 with one line')
    .skip(dialect() !== 'pg', 'PostgreSQL only: the SQLite pass has no database server to reach')
    .run(async ({ assert }) => {
      const server = await spawnServerProcess({
        DB_CONNECTION: 'pg',
        DB_PORT: String(await freePort()),
        MODELGATE_DB_CONNECT_RETRIES: '2',
      })
      // Timed from the first failed attempt (the start before it compiles the sources).
      while (!server.output().includes('database not reachable') && server.child.exitCode === null)
        await sleep(20)
      const firstAttempt = Date.now()
      const exit = await server.exited
      const lines = server.output().trim().split('\n')
      assert.deepEqual(exit, { code: 1, signal: null }, server.output())
      const attempts = lines.filter((l) => l.includes('database not reachable'))
      assert.lengthOf(attempts, 2, server.output())
      assert.match(
        attempts[0],
        /attempt 1 of 3\): PostgreSQL is not reachable at .*; retrying in 1 s$/
      )
      assert.match(attempts[1], /attempt 2 of 3\).*; retrying in 2 s$/)
      assert.match(lines.at(-1)!, /stopped: cannot start: PostgreSQL is not reachable at /)
      // 1 s + 2 s of waiting, and three connection attempts to a closed port.
      assert.isAtLeast(Date.now() - firstAttempt, 2900)
      assert.isBelow(Date.now() - firstAttempt, 8000)
    })
})
