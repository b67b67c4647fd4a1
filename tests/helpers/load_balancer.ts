/**
 * A real HAProxy (Debian's /usr/sbin/haproxy) in front of several server processes, for the
 * multi-instance tests: round-robin, health checks on /health/ready, retries and redispatch as
 * the README's production example has them (scripts/cluster_common.js writes the same for the
 * benchmarks). It runs in the foreground (`-db`) as a child of the test and is stopped at the
 * end. Every answer carries `X-Served-By: <server name>`, so a test can see which instance
 * answered; the runtime API (a unix socket) reports and changes the servers.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, stopOnExit } from '#tests/helpers/server_process'

export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy'
export const haproxyMissing = () => !existsSync(HAPROXY)

export interface Backend {
  name: string
  port: number
}

export interface LoadBalancer {
  port: number
  url: string
  /** HAProxy's view of each server: UP, DOWN, MAINT, ... (its runtime API, `show stat`). */
  states(): Promise<Record<string, string>>
  /** Waits until HAProxy's checks see `name` in `state`. */
  waitFor(name: string, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>
  /** Points server `name` at another port (a replacement process), as `set server … addr`. */
  setPort(name: string, port: number): Promise<void>
  /** HAProxy's own log lines (one per request, `option httplog`). */
  log(): string
  stop(): Promise<void>
}

/**
 * The configuration: the timeouts and retry policy are the production example's (README
 * "Topology"); only the check interval is shorter so that a test does not wait on it.
 */
export function haproxyConfig(options: {
  port: number
  backends: Backend[]
  socket: string
  checkIntervalMs: number
}) {
  const servers = options.backends
    .map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`)
    .join('\n')
  return `global
  log stdout format raw local0
  maxconn 2000
  stats socket ${options.socket} mode 600 level admin

defaults
  mode http
  log global
  option httplog
  option forwardfor
  timeout connect 2s
  timeout client 75s
  timeout server 60s
  timeout http-keep-alive 10s
  timeout queue 10s
  # A request that found a closed or refused connection goes to another instance.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response 503
  option http-buffer-request

frontend modelgate
  bind 127.0.0.1:${options.port}
  default_backend instances

backend instances
  balance roundrobin
  option httpchk GET /health/ready
  http-check expect status 200
  # A check may be slow on a loaded machine: only two failures in a row take a server out.
  timeout check 2s
  default-server inter ${options.checkIntervalMs}ms fall 2 rise 1
  http-response set-header X-Served-By %[srv_name]
${servers}
`
}

/** One command on HAProxy's runtime API (unix socket); resolves with its answer. */
function runtime(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket)
    let answer = ''
    client.on('data', (chunk) => (answer += chunk))
    client.on('end', () => resolve(answer))
    client.on('error', reject)
    client.end(`${command}\n`)
  })
}

export async function startLoadBalancer(
  backends: Backend[],
  options: { checkIntervalMs?: number } = {}
): Promise<LoadBalancer> {
  const dir = await mkdtemp(join(tmpdir(), 'mg-haproxy-'))
  const socket = join(dir, 'admin.sock')
  const port = await freePort()
  const file = join(dir, 'haproxy.cfg')
  const config = haproxyConfig({
    port,
    backends,
    socket,
    checkIntervalMs: options.checkIntervalMs ?? 300,
  })
  await writeFile(file, config)
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  let exited: number | null = null
  // A run that ends without its teardown (forceExit after a timeout) must not leave it running.
  stopOnExit(child)
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exited = code ?? -1
      resolve()
    })
  )

  const states = async () => {
    const csv = await runtime(socket, 'show stat')
    const [header, ...rows] = csv.trim().split('\n')
    const columns = header.replace(/^# /, '').split(',')
    const result: Record<string, string> = {}
    for (const row of rows) {
      const cells = row.split(',')
      const svname = cells[columns.indexOf('svname')]
      if (cells[0] === 'instances' && svname !== 'BACKEND')
        result[svname] = cells[columns.indexOf('status')]
    }
    return result
  }

  const waitFor = async (name: string, state: 'UP' | 'DOWN', timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs
    let seen: string | undefined
    while (Date.now() < until) {
      seen = (await states().catch(() => ({}) as Record<string, string>))[name]
      if (seen?.startsWith(state)) return
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`haproxy: server ${name} is ${seen}, not ${state}\n${output.slice(-2000)}`)
  }

  const stop = async () => {
    if (exited === null) {
      child.kill('SIGTERM')
      await exit
    }
    await rm(dir, { recursive: true, force: true })
  }

  // Started once the socket answers; every backend must then pass its check.
  for (let i = 0; i < 100 && exited === null && !existsSync(socket); i++)
    await new Promise((r) => setTimeout(r, 50))
  if (exited !== null || !existsSync(socket)) {
    await stop()
    throw new Error(`haproxy did not start (exit ${exited}):\n${output.slice(-3000)}`)
  }
  try {
    for (const backend of backends) await waitFor(backend.name, 'UP')
  } catch (error) {
    await stop()
    throw error
  }

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    states,
    waitFor,
    async setPort(name: string, newPort: number) {
      const answer = await runtime(
        socket,
        `set server instances/${name} addr 127.0.0.1 port ${newPort}`
      )
      if (!/changed|no need to change/i.test(answer))
        throw new Error(`haproxy refused the new address of ${name}: ${answer}`)
    },
    log: () => output,
    stop,
  }
}
