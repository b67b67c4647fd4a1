/**
 * Redis as the shared store (REDIS_URL, config/redis.ts): two `node server.js` instances on
 * the test database and the local Redis. A sign-in started on one instance continues on the
 * other with the session data in Redis (the cookie carries only its id); failed sign-ins and
 * client authentications are counted in Redis, not in the database, across both instances.
 * Every key of the run carries a prefix of its own; only those keys are deleted afterwards.
 * The second instance reaches Redis through a TCP proxy, so that a Redis outage can be made for
 * it alone (the shared Redis keeps running): its sign-in form and token endpoint answer 503 in
 * the documented shape, bearer requests still answer, and it recovers without a restart.
 */
import { test } from '@japa/runner'
import { SQLITE_PASS_ONLY, startServerProcess } from '#tests/helpers/server_process'
import type { ChildProcess } from 'node:child_process'
import { Redis } from 'ioredis'
import * as oauth from 'oauth4webapi'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { createClient, createUser } from '#tests/helpers/oauth'
import { randomToken } from '#oauth/secrets'
import { csrfOf, RoutedBrowser, withToken, clientCredentials } from '#tests/helpers/instances'
import { TcpProxy } from '#tests/helpers/faults'

const REDIRECT = 'http://127.0.0.1:9/callback'
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0'
const PREFIX = `mgtest:${process.env.TEST_ID ?? 'run'}:${process.pid}:${randomToken(4)}:`

/** The session id inside the signed `mg-session` cookie (`s:<base64url JSON>.<signature>`). */
function sessionId(cookie: string): string {
  const signed = decodeURIComponent(cookie).replace(/^s:/, '')
  const payload = signed.slice(0, signed.lastIndexOf('.'))
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).message
}

async function ownKeys(redis: Redis): Promise<string[]> {
  const keys: string[] = []
  let cursor = '0'
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 500)
    cursor = next
    keys.push(...batch)
  } while (cursor !== '0')
  return keys
}

test.group('two instances sharing Redis (REDIS_URL)', (group) => {
  group.each.skip(SQLITE_PASS_ONLY !== null, SQLITE_PASS_ONLY ?? '')
  const children: ChildProcess[] = []
  const origins: string[] = []
  let redis: Redis
  const redisTarget = new URL(REDIS_URL)
  const redisProxy = new TcpProxy({
    host: redisTarget.hostname,
    port: Number(redisTarget.port || 6379),
  })

  group.setup(async () => {
    if (SQLITE_PASS_ONLY) return () => {}
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
    await redis.connect().catch((error) => {
      throw new Error(`Redis is not reachable at ${REDIS_URL} (TEST_REDIS_URL): ${error.message}`)
    })
    await resetDatabase()
    const env = { REDIS_URL, REDIS_KEY_PREFIX: PREFIX, MODELGATE_WATCH_INTERVAL_MS: '500' }
    await redisProxy.open()
    const proxied = new URL(REDIS_URL)
    proxied.hostname = '127.0.0.1'
    proxied.port = String(redisProxy.port)
    const viaProxy = { ...env, REDIS_URL: proxied.toString() }
    for (const { child, port } of await Promise.all([
      startServerProcess(env, 'instance'),
      startServerProcess(viaProxy, 'instance'),
    ])) {
      children.push(child)
      origins.push(`http://127.0.0.1:${port}`)
    }
    return async () => {
      for (const child of children) child.kill('SIGTERM')
      await redisProxy.cut()
      await Promise.all(children.map((c) => c.exitCode ?? new Promise((r) => c.once('exit', r))))
      const keys = await ownKeys(redis)
      if (keys.length) await redis.del(...keys)
      redis.disconnect()
    }
  })

  test('a sign-in begun on one instance ends on the other; the session is in Redis', async ({
    assert,
  }) => {
    const { client, secret } = await createClient({
      grantTypes: ['authorization_code'],
      redirectUris: [REDIRECT],
    })
    const { user, password } = await createUser('mi-redis-alice')
    // Every request goes to the other instance than the one before.
    const browser = new RoutedBrowser(origins)
    const verifier = oauth.generateRandomCodeVerifier()
    const authorize = `/oauth2/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'xyz',
    })}`
    assert.equal((await browser.fetch(authorize)).status, 302)
    const page = await browser.fetch('/as-login')
    const login = await browser.fetch('/as-login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        username: user.username,
        password,
        _csrf: csrfOf(await page.text()),
      }),
    })
    assert.equal(login.status, 302)
    const back = await browser.fetch(login.headers.get('location')!)
    assert.equal(back.status, 302, await back.clone().text())
    assert.deepEqual(browser.servedBy, [...origins, ...origins])
    const callback = new URL(back.headers.get('location')!)
    assert.equal(callback.searchParams.get('state'), 'xyz')

    // The cookie holds the id only; the data (who signed in) is in Redis under the prefix.
    const id = sessionId(browser.cookies.get('mg-session')!)
    const stored = await redis.get(`${PREFIX}${id}`)
    assert.isString(stored)
    const ttl = await redis.ttl(`${PREFIX}${id}`)
    assert.isAbove(ttl, 0)
    assert.isAtMost(ttl, 7200)

    const token = await fetch(`${origins[0]}/oauth2/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Authorization': `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      }),
    })
    assert.equal(token.status, 200)
    const { access_token: accessToken } = (await token.json()) as { access_token: string }
    const info = await fetch(`${origins[1]}/rest/userInfo`, withToken(accessToken))
    assert.equal(((await info.json()) as any).username, 'mi-redis-alice')

    // A session removed from Redis (as a sign-out removes it) is gone for every instance.
    await redis.del(`${PREFIX}${id}`)
    const again = await browser.fetch(authorize)
    assert.equal(again.headers.get('location'), '/as-login')
  }).timeout(60000)

  test('failed sign-ins and client authentications are counted in Redis by both', async ({
    assert,
  }) => {
    const attempt = async (origin: string) => {
      const browser = new RoutedBrowser([origin])
      const html = await (await browser.fetch('/as-login')).text()
      return browser.fetch('/as-login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          username: 'mi-redis-nobody',
          password: 'wrong',
          _csrf: csrfOf(html),
        }),
      })
    }
    for (let i = 0; i < 5; i++) assert.equal((await attempt(origins[i % 2])).status, 302)
    for (const origin of origins) assert.equal((await attempt(origin)).status, 429, origin)

    const { client, secret } = await createClient()
    const tokenRequest = (origin: string, password: string) =>
      clientCredentials(origin, client.clientId, password)
    for (let i = 0; i < 10; i++)
      assert.equal((await tokenRequest(origins[i % 2], 'wrong')).status, 401)
    for (const origin of origins) assert.equal((await tokenRequest(origin, secret)).status, 429)

    const keys = await ownKeys(redis)
    assert.isTrue(
      keys.some((k) => k.includes('mi-redis-nobody')),
      keys.join(', ')
    )
    assert.isTrue(
      keys.some((k) => k.includes(client.clientId)),
      keys.join(', ')
    )
    const inDatabase = await db
      .from('rate_limits')
      .where('key', 'like', '%mi-redis-nobody%')
      .orWhere('key', 'like', `%${client.clientId}%`)
    assert.lengthOf(inDatabase, 0, 'the database store is not used')
  }).timeout(60000)

  test('Redis unreachable: sign-in and token endpoint answer 503, bearer requests 200, then recovery', async ({
    assert,
  }) => {
    const origin = origins[1]
    const { client, secret } = await createClient()
    const tokenRequest = () => clientCredentials(origin, client.clientId, secret)
    const before = await tokenRequest()
    assert.equal(before.status, 200, await before.clone().text())
    const { access_token: accessToken } = (await before.json()) as { access_token: string }
    const tokensBefore = await db.from('oauth_tokens').count('* as n').first()

    await redisProxy.cut()
    try {
      const started = Date.now()
      const refused = await tokenRequest()
      assert.equal(refused.status, 503, await refused.clone().text())
      assert.equal(refused.headers.get('retry-after'), '1')
      assert.equal(((await refused.json()) as { error: string }).error, 'temporarily_unavailable')
      assert.isBelow(Date.now() - started, 10000)

      const signIn = await new RoutedBrowser([origin]).fetch('/as-login')
      assert.equal(signIn.status, 503)
      assert.deepInclude(await signIn.json(), { error: 'Session store unavailable' })

      const bearer = await fetch(`${origin}/rest/userInfo`, withToken(accessToken))
      assert.equal(bearer.status, 200, 'a bearer request needs no session store')
      const tokensAfter = await db.from('oauth_tokens').count('* as n').first()
      assert.equal(Number(tokensAfter.n), Number(tokensBefore.n), 'no token was issued')
    } finally {
      await redisProxy.open()
    }
    let status = 0
    for (const until = Date.now() + 15000; Date.now() < until && status !== 200;) {
      status = (await tokenRequest()).status
      if (status !== 200) await new Promise((r) => setTimeout(r, 250))
    }
    assert.equal(status, 200, 'served again once Redis is back, without a restart')
  }).timeout(60000)
})
