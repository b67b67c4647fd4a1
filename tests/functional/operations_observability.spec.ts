/**
 * Observability (README "Health, metrics and logs"): /metrics, request ids, JSON access logs.
 *
 * The runner's own server has no metrics token: /metrics is the usual 404 there. Everything
 * else runs against a second server process with MODELGATE_METRICS_TOKEN, LOG_FORMAT=json and
 * LOG_LEVEL=info whose stdout and stderr are captured: a client-credentials grant, a sign-in
 * through the login form with the authorization-code flow, a refresh and bearer requests go
 * through it, then no secret, token, code or password may appear anywhere in what it printed.
 */
import { test } from '@japa/runner'
import { randomBytes, randomUUID, createHash } from 'node:crypto'
import { startServerProcess, type ServerProcess } from '#tests/helpers/server_process'
import { createClient, createUser } from '#tests/helpers/oauth'
import { applyDoc } from '#tests/helpers/engine'
import { clientCredentials } from '#tests/helpers/instances'
import { dialect } from '#tests/helpers/database'

const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const REDIRECT = 'http://127.0.0.1:9/callback'

type Sample = { name: string; labels: Record<string, string>; value: number }

/** The samples of a Prometheus text exposition. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) continue
    const labels: Record<string, string> = {}
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key] = value
    samples.push({ name: match[1], labels, value: Number(match[3]) })
  }
  return samples
}

/** The value of the one sample of `name` whose labels include `labels` (0 when absent). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)
  )
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match`)
  return found[0]?.value ?? 0
}

test.group('operations: /metrics without a token configured', () => {
  test('GET /metrics is the usual 404 of an unknown route', async ({ client }) => {
    const response = await client.get('/metrics').header('authorization', 'Bearer anything')
    response.assertStatus(404)
    response.assertBody({ error: 'Not found', details: 'No resource at /metrics' })
  })

  test('every response carries X-Request-Id: a safe incoming one is kept, others replaced', async ({
    client,
    assert,
  }) => {
    const fresh = await client.get('/health/live')
    assert.match(fresh.header('x-request-id') ?? '', UUID)
    const other = await client.get('/health/live')
    assert.notEqual(other.header('x-request-id'), fresh.header('x-request-id'))

    const kept = await client.get('/health/live').header('x-request-id', 'lb-1f3a:9.x_y-z')
    assert.equal(kept.header('x-request-id'), 'lb-1f3a:9.x_y-z')
    // Also on answers of the resource server and of unknown routes.
    const refused = await client.get('/rest/userInfo').header('x-request-id', 'lb-2')
    refused.assertStatus(401)
    assert.equal(refused.header('x-request-id'), 'lb-2')
    const missing = await client.get('/no/such/route').header('x-request-id', 'lb-3')
    missing.assertStatus(404)
    assert.equal(missing.header('x-request-id'), 'lb-3')

    for (const unsafe of ['has space', 'a"b', 'x'.repeat(129), 'ünï', 'a,b']) {
      const replaced = await client.get('/health/live').header('x-request-id', unsafe)
      assert.match(replaced.header('x-request-id') ?? '', UUID, unsafe)
    }
  })
})

test.group('operations: metrics and logs of a server process', (group) => {
  let server: ServerProcess
  let base = ''
  /** stdout (JSON lines) and everything the process printed (stdout and stderr). */
  let stdout = ''
  let output = ''

  group.setup(async () => {
    server = await startServerProcess({
      MODELGATE_METRICS_TOKEN: METRICS_TOKEN,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      // Even a pattern that asks for an OAuth token there does not stand in the way of the
      // metrics token (the resource server lets /metrics through to its own check).
      SVC_RESOURCE_SERVER_AUTHENTICATED_URL_PATTERNS: '/rest/**,/metrics',
      // The PostgreSQL pool size per process (SQLite keeps its one connection).
      DB_POOL_MAX: '7',
    })
    base = `http://127.0.0.1:${server.port}`
    server.child.stdout!.on('data', (chunk) => {
      stdout += chunk
      output += chunk
    })
    server.child.stderr!.on('data', (chunk) => (output += chunk))
    return async () => {
      server.child.kill('SIGTERM')
      await server.exited
    }
  })

  const scrape = async () => {
    const response = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`)
    return { response, text: await response.text() }
  }

  /** The JSON access-log line of the request with this id (written once the response left). */
  const accessLine = async (requestId: string) => {
    for (let i = 0; i < 50; i++) {
      for (const line of stdout.split('\n')) {
        if (!line.includes(requestId)) continue
        const entry = JSON.parse(line)
        if (entry.request_id === requestId && entry.msg === 'request') return entry
      }
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`no access-log line for ${requestId}`)
  }

  test('/metrics needs the metrics token: 401 without it or with another one', async ({
    assert,
  }) => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Bearer ${METRICS_TOKEN}x`,
      `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}`,
    ]) {
      const response = await fetch(`${base}/metrics`, {
        headers: authorization ? { authorization } : {},
      })
      assert.equal(response.status, 401, authorization)
      assert.match(response.headers.get('www-authenticate')!, /^Bearer realm="modelgate"/)
      assert.equal(((await response.json()) as { error: string }).error, 'unauthorized')
    }
  })

  test('with the token: the Prometheus text with every metric family', async ({ assert }) => {
    await fetch(`${base}/health/live`)
    const { response, text } = await scrape()
    assert.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8')
    const families = new Set([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]))
    for (const family of [
      'modelgate_http_requests_total',
      'modelgate_http_request_duration_seconds',
      'modelgate_db_pool_connections',
      'modelgate_db_pool_pending_acquires',
      'modelgate_db_pool_max',
      'modelgate_cache_hits_total',
      'modelgate_cache_misses_total',
      'modelgate_change_version',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_gc_duration_seconds',
    ])
      assert.isTrue(families.has(family), family)
    assert.include(text, '# TYPE modelgate_http_request_duration_seconds histogram')
    const samples = parseMetrics(text)
    assert.equal(valueOf(samples, 'modelgate_db_pool_max'), dialect() === 'pg' ? 7 : 1)
    const pool = ['used', 'free'].map((state) =>
      valueOf(samples, 'modelgate_db_pool_connections', { state })
    )
    assert.isTrue(pool.every((n) => Number.isInteger(n) && n >= 0))
    for (const cache of ['model', 'statement_shapes', 'permissions', 'token_verification'])
      assert.isTrue(
        samples.some((s) => s.name === 'modelgate_cache_hits_total' && s.labels.cache === cache),
        cache
      )
  })

  test('requests are counted per route pattern, method and status, never per URL', async ({
    assert,
  }) => {
    const live = { route: '/health/live', method: 'GET', status: '200' }
    const entity = { route: '/rest/entities/:entity', method: 'GET', status: '401' }
    const unmatched = { route: '(unmatched)', method: 'GET', status: '404' }
    const before = parseMetrics((await scrape()).text)
    for (let i = 0; i < 3; i++) await fetch(`${base}/health/live`)
    await fetch(`${base}/rest/entities/h1_RawNameOne?limit=1`)
    await fetch(`${base}/rest/entities/h1_RawNameTwo`)
    await fetch(`${base}/h1/no/such/route`)
    const { text } = await scrape()
    const after = parseMetrics(text)
    const count = 'modelgate_http_requests_total'
    assert.equal(valueOf(after, count, live) - valueOf(before, count, live), 3)
    assert.equal(valueOf(after, count, entity) - valueOf(before, count, entity), 2)
    assert.equal(valueOf(after, count, unmatched) - valueOf(before, count, unmatched), 1)
    const histogram = 'modelgate_http_request_duration_seconds'
    assert.equal(
      valueOf(after, `${histogram}_count`, live) - valueOf(before, `${histogram}_count`, live),
      3
    )
    assert.equal(
      valueOf(after, `${histogram}_bucket`, { ...live, le: '+Inf' }),
      valueOf(after, `${histogram}_count`, live)
    )
    assert.notInclude(text, 'RawName')
    assert.notInclude(text, 'no/such')
  })

  test('entity reads of the fast path are counted and logged under their route pattern', async ({
    assert,
  }) => {
    await applyDoc({
      entities: [{ name: 'h1_Fast', attributes: [{ name: 'title', type: 'string', length: 40 }] }],
    })
    const { client, secret } = await createClient()
    const grant = await clientCredentials(base, client.clientId, secret)
    const token = ((await grant.json()) as { access_token: string }).access_token
    const read = (path: string, requestId: string) =>
      fetch(`${base}${path}`, {
        headers: { 'authorization': `Bearer ${token}`, 'x-request-id': requestId },
      })
    // The model change reaches this process within a second; the first read verifies the token.
    for (let i = 0; i < 50; i++) {
      if ((await read('/rest/entities/h1_Fast', `h1-warm-${i}`)).status === 200) break
      await new Promise((r) => setTimeout(r, 100))
    }
    const list = { route: '/rest/entities/:entity', method: 'GET', status: '200' }
    const missing = { route: '/rest/entities/:entity/:id', method: 'GET', status: '404' }
    const count = 'modelgate_http_requests_total'
    const before = parseMetrics((await scrape()).text)
    const id = `h1-fast-${randomBytes(6).toString('hex')}`
    const response = await read('/rest/entities/h1_Fast?limit=5', id)
    assert.equal(response.status, 200)
    assert.equal(response.headers.get('x-request-id'), id)
    const absent = await read(`/rest/entities/h1_Fast/${randomUUID()}`, `${id}-404`)
    assert.equal(absent.status, 404)
    const after = parseMetrics((await scrape()).text)
    assert.equal(valueOf(after, count, list) - valueOf(before, count, list), 1)
    assert.equal(valueOf(after, count, missing) - valueOf(before, count, missing), 1)
    const line = await accessLine(id)
    assert.deepInclude(line, {
      method: 'GET',
      route: '/rest/entities/:entity',
      path: '/rest/entities/h1_Fast',
      status: 200,
      bytes: Number(response.headers.get('content-length')),
    })
    assert.include(await accessLine(`${id}-404`), { status: 404 })
    assert.notInclude(output, token)
  })

  test('the versions gauge follows a model change made by another instance', async ({ assert }) => {
    const model = { key: 'model' }
    const before = valueOf(parseMetrics((await scrape()).text), 'modelgate_change_version', model)
    const result = await applyDoc({
      entities: [{ name: 'h1_Probe', attributes: [{ name: 'title', type: 'string', length: 40 }] }],
    })
    assert.isAbove(result.version!, before)
    let seen = before
    for (let i = 0; i < 50 && seen !== result.version; i++) {
      await new Promise((r) => setTimeout(r, 100))
      seen = valueOf(parseMetrics((await scrape()).text), 'modelgate_change_version', model)
    }
    assert.equal(seen, result.version)
  })

  test('JSON access lines with the request id; no secret, token, code or password is ever logged', async ({
    assert,
  }) => {
    const { client, secret } = await createClient({
      grantTypes: ['client_credentials', 'authorization_code', 'refresh_token'],
      redirectUris: [REDIRECT],
    })
    const { user, password } = await createUser(`h1-${randomBytes(3).toString('hex')}`)
    const basic = `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`
    const form = { 'content-type': 'application/x-www-form-urlencoded' }

    // 1. client_credentials with the secret in the Authorization header.
    const cc = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: { ...form, authorization: basic },
      body: 'grant_type=client_credentials',
    })
    assert.equal(cc.status, 200)
    const clientToken = ((await cc.json()) as { access_token: string }).access_token

    // 2. Sign-in through the login form, authorization code + PKCE.
    const verifier = randomBytes(32).toString('base64url')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const cookies = new Map<string, string>()
    const browse = async (url: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '))
      const response = await fetch(new URL(url, base), { ...init, headers, redirect: 'manual' })
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';')
        cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1))
      }
      return response
    }
    const authorize = `/oauth2/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'h1-state',
    })}`
    await browse(authorize)
    const page = await (await browse('/as-login')).text()
    const csrf = /name=["']_csrf["']\s+value=["']([^"']+)["']/.exec(page)?.[1] ?? ''
    const login = await browse('/as-login', {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ username: user.username, password, _csrf: csrf }),
    })
    assert.equal(login.status, 302)
    const back = await browse(login.headers.get('location')!)
    const code = new URL(back.headers.get('location')!).searchParams.get('code')
    assert.isString(code)
    const exchange = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: { ...form, authorization: basic },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }),
    })
    assert.equal(exchange.status, 200)
    const tokens = (await exchange.json()) as { access_token: string; refresh_token: string }

    // 3. A refresh with the secret in the body (client_secret_post).
    const refresh = await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client.clientId,
        client_secret: secret,
      }),
    })
    assert.equal(refresh.status, 200)
    const refreshed = (await refresh.json()) as { access_token: string; refresh_token: string }

    // 4. Bearer requests; the second one is answered from the token verification cache.
    const requestId = `h1-${randomBytes(8).toString('hex')}`
    const read = await fetch(`${base}/rest/userInfo?probe=1`, {
      headers: { 'authorization': `Bearer ${tokens.access_token}`, 'x-request-id': requestId },
    })
    assert.equal(read.status, 200)
    assert.equal(read.headers.get('x-request-id'), requestId)
    const cached = parseMetrics((await scrape()).text)
    for (const token of [clientToken, refreshed.access_token, refreshed.access_token])
      await fetch(`${base}/rest/userInfo`, { headers: { authorization: `Bearer ${token}` } })
    const hits = { cache: 'token_verification' }
    assert.isAbove(
      valueOf(parseMetrics((await scrape()).text), 'modelgate_cache_hits_total', hits),
      valueOf(cached, 'modelgate_cache_hits_total', hits)
    )
    // A failed login: the attempted password is not logged either.
    const wrong = `Wrong-${randomBytes(6).toString('hex')}`
    await browse('/as-login', {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ username: user.username, password: wrong, _csrf: csrf }),
    })

    // An unsafe incoming id is neither echoed nor logged: its line has the fresh one.
    const forged = await fetch(`${base}/health/live`, {
      headers: { 'x-request-id': 'forged id","level":60,"x":"' },
    })
    const fresh = forged.headers.get('x-request-id')!
    assert.match(fresh, UUID)
    assert.include(await accessLine(fresh), { route: '/health/live', status: 200 })
    assert.notInclude(output, 'forged id')

    const line = await accessLine(requestId)
    assert.deepInclude(line, {
      level: 30,
      method: 'GET',
      route: '/rest/userInfo',
      path: '/rest/userInfo',
      status: 200,
    })
    assert.isAbove(line.duration_ms, 0)
    assert.equal(line.bytes, Number(read.headers.get('content-length')))
    // Every line of stdout is one JSON object.
    const lines = stdout.split('\n').filter(Boolean)
    for (const l of lines) assert.doesNotThrow(() => JSON.parse(l), l)
    const tokenLine = lines
      .map((l) => JSON.parse(l))
      .find((entry) => entry.path === '/oauth2/token' && entry.status === 200)
    assert.include(tokenLine, { method: 'POST', route: '/oauth2/token' })
    assert.match(tokenLine.request_id, UUID)

    const secrets = {
      secret,
      password,
      wrong,
      code: code!,
      verifier,
      csrf,
      METRICS_TOKEN,
      clientToken,
      access: tokens.access_token,
      refresh: tokens.refresh_token,
      refreshedAccess: refreshed.access_token,
      refreshedRefresh: refreshed.refresh_token,
      basic: basic.slice('Basic '.length),
      // Session and CSRF cookies (signed or encrypted values; short flags are not secrets).
      ...Object.fromEntries(
        [...cookies].filter(([, v]) => v.length > 12).map(([k, v]) => [`cookie ${k}`, v])
      ),
    }
    for (const [what, value] of Object.entries(secrets)) {
      assert.isAbove(value.length, 7, what)
      assert.notInclude(output, value, `${what} appears in the server's output`)
    }
  })
})
