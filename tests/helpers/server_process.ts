/**
 * A second server process (`node server.js`) on the test database, for tests that need another
 * instance or the server's own memory figures.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import app from '@adonisjs/core/services/app'

/** A port nothing listens on (a fixed offset could land on a local service's port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Child processes the tests started and that still run. A test that times out skips its
 * group's teardown (and the runner then forces the exit): the exit of the test process stops
 * them, so that none outlives the run holding ports and database connections.
 */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM')
})

/** Stops `child` with SIGTERM when the test process exits, if it is still running then. */
export function stopOnExit(child: ChildProcess) {
  running.add(child)
  child.once('exit', () => running.delete(child))
}

/** A `node server.js` process with its output so far and its exit. */
export interface ServerProcess {
  child: ChildProcess
  port: number
  /** Standard output and error so far. */
  output: () => string
  /** Settles when the process exits: its code (null when a signal ended it) and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/**
 * Spawns `server.js` on a free port with the test environment plus `env` (no demo, quiet log)
 * without waiting for it: for a start that is meant to fail, or a cluster primary.
 */
export async function spawnServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, ['server.js'], {
    cwd: app.makePath(),
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      MODELGATE_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  stopOnExit(child)
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  // After the exit, the output still in the pipes (the last lines) is read before this settles;
  // 1 s at most, as processes the child started may keep the pipes open.
  const ended = (stream: NodeJS.ReadableStream) =>
    new Promise<void>((resolve) => stream.once('end', () => resolve()))
  const outputRead = Promise.all([ended(child.stdout!), ended(child.stderr!)])
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', async (code, signal) => {
      await Promise.race([outputRead, new Promise((r) => setTimeout(r, 1000))])
      resolve({ code, signal })
    })
  )
  return { child, port, output: () => output, exited }
}

/**
 * Resolves once the spawned server answers `/health` with 200 (a cold start compiles the
 * sources: 60 s at most); otherwise kills it and throws with the end of its output.
 */
export async function waitUntilHealthy(
  server: ServerProcess,
  what = 'server'
): Promise<ServerProcess> {
  const { child, port } = server
  for (let i = 0; i < 600 && child.exitCode === null && child.signalCode === null; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return server
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill()
  throw new Error(
    `${what} did not start (exit ${child.exitCode ?? child.signalCode}):\n${server.output().slice(-3000)}`
  )
}

/**
 * Starts `server.js` on a free port with the test environment plus `env` (no demo, quiet log)
 * and resolves once `/health` answers 200; a failed start says why (naming it `what`).
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  what = 'second server'
): Promise<ServerProcess> {
  return waitUntilHealthy(await spawnServerProcess(env), what)
}

/**
 * Tests whose subject does not depend on the database (the S3 storage, Redis, the merge of the
 * workers' metrics) run in the SQLite pass only: the reason for skipping them in the
 * PostgreSQL pass, or null in the SQLite pass. They still start real server processes, the
 * expensive part of CI.
 */
export const SQLITE_PASS_ONLY =
  process.env.DB_CONNECTION === 'pg'
    ? 'independent of the database: runs in the SQLite pass (npm test) only'
    : null
