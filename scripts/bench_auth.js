/*
 * Benchmark of the authorization server and the token check (issue 3), on a scratch SQLite
 * database (tmp/bench-auth.sqlite3, recreated). Prints, in one run:
 *   - client_credentials token requests per second (POST /oauth2/token, Basic auth);
 *   - GET /rest/capabilities with a bearer token (protected) vs the same route opened to
 *     anonymous callers through the stored anonymous URL patterns (no token): the ratio is the
 *     cost of checking the token (target >= 0.85).
 *   node scripts/bench_auth.js [--duration=10] [--connections=50]
 */
import { spawn, spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { ensureEnv } from './ensure_env.js'
import { numberArg as arg } from './bench_common.js'

const duration = arg('duration', 10)
const connections = arg('connections', 50)
const PORT = 8190
const base = `http://127.0.0.1:${PORT}`
const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz'

ensureEnv()
for (const suffix of ['', '-wal', '-shm'])
  rmSync(`tmp/bench-auth.sqlite3${suffix}`, { force: true })
const env = {
  ...process.env,
  DB_CONNECTION: 'sqlite',
  SQLITE_FILE: 'tmp/bench-auth.sqlite3',
  PORT: String(PORT),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  MODELGATE_DEMO: 'false',
  MODELGATE_WATCH_INTERVAL_MS: '200',
}

function importDoc(doc) {
  writeFileSync('tmp/bench-auth.json', JSON.stringify({ formatVersion: 1, ...doc }))
  const result = spawnSync(process.execPath, ['ace.js', 'app:import', 'tmp/bench-auth.json'], {
    env,
  })
  if (result.status !== 0) throw new Error(`import failed: ${result.stdout}${result.stderr}`)
}

importDoc({
  clients: [
    {
      clientId: 'bench',
      clientSecret: SECRET,
      authenticationMethods: ['client_secret_basic'],
      grantTypes: ['client_credentials'],
      accessTokenTimeToLive: '1h',
      resourceRoles: ['rest-minimal'],
    },
  ],
  settings: { 'svc.authserver.client-authentication-attempts': 1000000 },
})

const server = spawn(process.execPath, ['server.js'], { env, stdio: 'inherit' })
const stop = () => server.kill('SIGTERM')
process.on('exit', stop)

async function waitForServer() {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not start')
}

const run = (options) =>
  new Promise((resolve, reject) =>
    autocannon({ connections, duration, ...options }, (err, result) =>
      err ? reject(err) : resolve(result)
    )
  )

function line(label, result) {
  const bad = result.non2xx + result.errors + result.timeouts
  console.log(
    `  ${label.padEnd(44)} ${result.requests.average.toFixed(0).padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${bad ? `  (${bad} failed)` : ''}`
  )
  return result.requests.average
}

await waitForServer()
const basic = `Basic ${Buffer.from(`bench:${SECRET}`).toString('base64')}`
const tokenRequest = {
  url: `${base}/oauth2/token`,
  method: 'POST',
  headers: { 'authorization': basic, 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
}
const token = (await (await fetch(tokenRequest.url, tokenRequest)).json()).access_token
await run({
  url: `${base}/rest/capabilities`,
  duration: 2,
  headers: { authorization: `Bearer ${token}` },
})

console.log(`bench:auth on SQLite, ${connections} connections, ${duration} s each`)
line('POST /oauth2/token (client_credentials)', await run(tokenRequest))
const protectedRps = line(
  'GET /rest/capabilities with bearer token',
  await run({
    url: `${base}/rest/capabilities`,
    headers: { authorization: `Bearer ${token}` },
  })
)
importDoc({ settings: { 'svc.rest.anonymous-url-patterns': '/rest/capabilities' } })
await new Promise((r) => setTimeout(r, 1000))
const openRps = line(
  'GET /rest/capabilities anonymous (open)',
  await run({ url: `${base}/rest/capabilities` })
)
console.log(`  protected/open ratio: ${(protectedRps / openRps).toFixed(2)} (target >= 0.85)`)
stop()
process.exit(0)
