/*
 * What scripts/bench_cluster.js and scripts/soak.js share: a scratch PostgreSQL database with
 * one entity and a client, `node server.js` instances started on it, HAProxy in front of them
 * (the configuration of tests/helpers/load_balancer.ts, which the multi-instance tests use),
 * and CPU time of processes read from /proc.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverV8Flags } from './v8_flags.js'
import {
  benchAccess,
  clientToken,
  freshDatabase,
  importDefinition,
  serverEnv,
  waitForServer,
} from './bench_common.js'

export const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz'
export const ENTITY = 'cl_Item'
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Recreates the scratch database (`{pg, pgDatabase, sqliteFile}` as freshDatabase takes them),
 * imports the cl_Item entity and the `bench` client into it; returns the servers' environment.
 */
export async function prepareDatabase(database, port) {
  const env = serverEnv(port)
  await freshDatabase(env, database)
  importDefinition(
    {
      formatVersion: 1,
      entities: [
        {
          name: ENTITY,
          attributes: [
            { name: 'name', type: 'string', length: 100 },
            { name: 'quantity', type: 'int' },
            { name: 'note', type: 'string', length: 400 },
          ],
        },
      ],
      ...benchAccess(SECRET, '12h'),
      settings: { 'svc.rest.max-bulk-size': 1000 },
    },
    join(tmpdir(), `mg-cluster-${process.pid}.json`),
    env
  )
  return env
}

/**
 * `node server.js` on `port` with `env` (+ `extra`) and the V8 flags of the production command;
 * resolves once /health answers.
 */
export async function startInstance(env, port, extra = {}) {
  const child = spawn(process.execPath, [...serverV8Flags(), 'server.js'], {
    env: { ...env, PORT: String(port), ...extra },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  await waitForServer(`http://127.0.0.1:${port}`)
  return child
}

/** Creates `rows` items through the API (bulk POSTs of 500); returns their ids. */
export async function seed(base, token, rows) {
  const headers = { 'authorization': `Bearer ${token}`, 'content-type': 'application/json' }
  for (let done = 0; done < rows; done += 500) {
    const batch = Array.from({ length: Math.min(500, rows - done) }, (_, i) => ({
      name: `item ${done + i}`,
      quantity: (done + i) % 97,
      note: 'x'.repeat(60),
    }))
    const response = await fetch(`${base}/rest/entities/${ENTITY}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(batch),
    })
    if (response.status !== 201)
      throw new Error(`seed: ${response.status} ${await response.text()}`)
  }
  const ids = []
  for (let offset = 0; ; offset += 1000) {
    const response = await fetch(
      `${base}/rest/entities/${ENTITY}?limit=1000&offset=${offset}&fetchPlan=_base`,
      { headers }
    )
    const page = await response.json()
    ids.push(...page.map((r) => r.id))
    if (page.length < 1000) return ids
  }
}

export const token = (base) => clientToken(base, 'bench', SECRET)

/** HAProxy in front of `ports` (round-robin, checks on /health/ready, retries, redispatch). */
export async function startHaproxy(port, ports) {
  const dir = mkdtempSync(join(tmpdir(), 'mg-haproxy-'))
  const file = join(dir, 'haproxy.cfg')
  writeFileSync(
    file,
    `global
  maxconn 4000
defaults
  mode http
  option forwardfor
  timeout connect 2s
  timeout client 75s
  timeout server 60s
  timeout http-keep-alive 10s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response 503
  option http-buffer-request
frontend modelgate
  bind 127.0.0.1:${port}
  default_backend instances
backend instances
  balance roundrobin
  option httpchk GET /health/ready
  http-check expect status 200
  timeout check 2s
  default-server inter 1s fall 2 rise 1
${ports.map((p, i) => `  server mg${i + 1} 127.0.0.1:${p} check`).join('\n')}
`
  )
  const child = spawn(process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy', ['-db', '-f', file], {
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  child.on('exit', () => rmSync(dir, { recursive: true, force: true }))
  // Up once every server passed its first check: the frontend then answers 200.
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/health/ready`)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) {
      await sleep(2500)
      return child
    }
    await sleep(100)
  }
  child.kill()
  throw new Error('haproxy did not start')
}

/** Resident set size of `pid` in bytes (/proc/<pid>/status VmRSS). */
export function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024
}

export const stopAll = async (children) => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
  await Promise.all(
    children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))
  )
}
