/**
 * Fault-test helpers (tests/functional/faults_*.spec.ts): a server process that can be killed
 * (SIGKILL/SIGTERM) and started again on the same test database, requests that report a cut
 * connection as status 0 instead of throwing, a TCP proxy in front of PostgreSQL that can be
 * cut and reopened (a database outage without stopping the shared cluster), and direct reads
 * of the database state after a fault.
 */
import type { ChildProcess } from 'node:child_process'
import net from 'node:net'
import db from '@adonisjs/lucid/services/db'
import { startServerProcess } from '#tests/helpers/server_process'
import { dialect } from '#tests/helpers/database'

/** Repetitions per fault: small in CI, the catalogue's numbers with FAULT_RUNS=50. */
export const runs = (ci: number) => Number(process.env.FAULT_RUNS) || ci

export const ONLY_PG = 'PostgreSQL only (the SQLite pass has no server connection to lose)'

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface Answer {
  /** 0: no answer (connection refused, reset or timed out). */
  status: number
  body: any
  text: string
  ms: number
}

let instances = 0

/**
 * One `node server.js` process on the test database. PostgreSQL sessions carry the process's
 * own `application_name` (PGAPPNAME), so a test can find (and terminate, or wait for) exactly
 * its backends.
 */
export class FaultServer {
  child: ChildProcess | null = null
  port = 0
  readonly appName = `mg_fault_${process.pid}_${++instances}`

  constructor(private env: Record<string, string> = {}) {}

  async start(extra: Record<string, string> = {}) {
    const started = await startServerProcess({ PGAPPNAME: this.appName, ...this.env, ...extra })
    this.child = started.child
    this.port = started.port
    return this
  }

  /** Sends `signal` and waits for the exit; resolves with the exit code (null: by signal). */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    const child = this.child
    if (!child) return null
    this.child = null
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
    const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))
    child.kill(signal)
    const code = await exited
    if (dialect() === 'pg') await this.backendsGone()
    return code
  }

  /**
   * Waits until PostgreSQL has ended every session of this process: a killed client's
   * transaction is rolled back (or its already-sent COMMIT applied) only when its backend
   * notices, and reading before that could see a state that then changes.
   */
  async backendsGone() {
    for (let i = 0; i < 200; i++) {
      const { rows } = await db.rawQuery(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ?',
        [this.appName]
      )
      if (rows[0].n === 0) return
      await sleep(25)
    }
    throw new Error(`backends of ${this.appName} still alive 5 s after its exit`)
  }

  url(path: string) {
    return `http://127.0.0.1:${this.port}${path}`
  }

  /** A JSON request; a connection that fails or stays silent past `timeoutMs` is status 0. */
  async request(
    method: string,
    path: string,
    options: {
      token?: string
      body?: unknown
      headers?: Record<string, string>
      timeoutMs?: number
    } = {}
  ): Promise<Answer> {
    return request(this.url(path), method, options)
  }
}

export async function request(
  url: string,
  method: string,
  options: {
    token?: string
    body?: unknown
    headers?: Record<string, string>
    timeoutMs?: number
  } = {}
): Promise<Answer> {
  const started = Date.now()
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.Authorization = `Bearer ${options.token}`
  let payload: string | undefined
  if (typeof options.body === 'string') payload = options.body
  else if (options.body !== undefined) {
    payload = JSON.stringify(options.body)
    headers['Content-Type'] ??= 'application/json'
  }
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30000),
    })
    const text = await response.text()
    let body: any = null
    try {
      body = text ? JSON.parse(text) : null
    } catch {}
    return { status: response.status, body, text, ms: Date.now() - started }
  } catch {
    return { status: 0, body: null, text: '', ms: Date.now() - started }
  }
}

/** The documented error shape: `{error, details}` with two non-empty strings. */
export function isErrorBody(body: any) {
  return (
    typeof body?.error === 'string' &&
    body.error.length > 0 &&
    typeof body?.details === 'string' &&
    body.details.length > 0
  )
}

/** SQLite: `PRAGMA integrity_check` of the test database ('ok'); PostgreSQL: 'ok'. */
export async function integrityCheck(): Promise<string> {
  if (dialect() !== 'sqlite') return 'ok'
  const rows = await db.rawQuery('PRAGMA integrity_check')
  return rows.map((r: any) => r.integrity_check).join('; ')
}

/**
 * A TCP proxy to PostgreSQL on 127.0.0.1:5432 (or DB_PORT). `cut()` resets every open
 * connection and refuses new ones, as a stopped database does; `open()` listens again on the
 * same port. Only the server behind the proxy is affected: the shared cluster keeps running.
 */
export class TcpProxy {
  port = 0
  #server: net.Server | null = null
  #sockets = new Set<net.Socket>()

  constructor(
    private target = {
      host: process.env.DB_HOST ?? '127.0.0.1',
      port: Number(process.env.DB_PORT ?? 5432),
    }
  ) {}

  open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host)
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket)
        socket.on('close', () => this.#sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    this.#server = server
    return new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as net.AddressInfo).port
        resolve()
      })
    })
  }

  /** Connections currently through the proxy (both halves counted once). */
  get connections() {
    return this.#sockets.size / 2
  }

  async cut() {
    const server = this.#server
    this.#server = null
    const closed = server ? new Promise((r) => server.close(r)) : Promise.resolve()
    for (const socket of this.#sockets) socket.resetAndDestroy()
    this.#sockets.clear()
    await closed
  }
}
