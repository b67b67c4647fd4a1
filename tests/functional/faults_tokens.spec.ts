/**
 * Catalogue FT10 and FT4: tokens and codes across restarts of a server process.
 * - FT10: access and refresh tokens and authorization codes, some revoked, expired or used;
 *   after a SIGTERM restart and after SIGKILL restarts, valid ones still work, revoked and
 *   expired ones stay refused, a used code stays used.
 * - FT4: SIGKILL while a refresh token is being rotated: after the restart at most one of the
 *   old and the new refresh token works (never both: no double spend), never a 500. When the
 *   rotation committed but the answer never reached the client, neither works: the client signs
 *   in again (README "Faults the server survives").
 */
import { test } from '@japa/runner'
import { createHash, randomUUID } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { resetDatabase } from '#tests/helpers/database'
import { createClient, createUser } from '#tests/helpers/oauth'
import { digest, randomToken } from '#oauth/secrets'
import { issueToken, newGrantId, revokeTokenById } from '#oauth/token_store'
import { FaultServer, runs, sleep } from '#tests/helpers/faults'
import type OAuthClient from '#models/oauth_client'
import type User from '#models/user'

const REDIRECT = 'http://localhost/cb'
const server = new FaultServer()
let client: OAuthClient
let secret = ''
let user: User
const tokens = { valid: '', revoked: '', expired: '', refreshRevoked: '', refresh: '' }
const codes = { used: '', fresh: '', verifier: '' }

async function issue(kind: 'access' | 'refresh', ttl: number) {
  const options = { clientPk: client.id, userId: user.id, grantId: newGrantId(), scope: null }
  return (await issueToken(kind, { ...options, ttlSeconds: ttl })).value
}

/** An authorization code as the authorize endpoint stores it (PKCE S256). */
async function issueCode() {
  const code = randomToken(32)
  const challenge = createHash('sha256').update(codes.verifier).digest('base64url')
  await db.table('oauth_codes').insert({
    id: randomUUID(),
    code_hash: digest(code),
    client_pk: client.id,
    user_id: user.id,
    grant_id: newGrantId(),
    redirect_uri: REDIRECT,
    scope: null,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    expires_at: new Date(Date.now() + 600_000),
    created_at: new Date(),
  })
  return code
}

const tokenRequest = (params: Record<string, string>, timeoutMs?: number) =>
  server.request('POST', '/oauth2/token', {
    body: new URLSearchParams(params).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Authorization': `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`,
    },
    timeoutMs,
  })

const redeem = (code: string) =>
  tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: codes.verifier,
  })

const refresh = (token: string, timeoutMs?: number) =>
  tokenRequest({ grant_type: 'refresh_token', refresh_token: token }, timeoutMs)

const userInfo = async (token: string) =>
  (await server.request('GET', '/rest/userInfo', { token })).status

/** What survives every restart: valid works, revoked and expired are refused. */
async function assertDurable(assert: any) {
  assert.equal(await userInfo(tokens.valid), 200)
  assert.equal(await userInfo(tokens.revoked), 401)
  assert.equal(await userInfo(tokens.expired), 401)
  const revoked = await refresh(tokens.refreshRevoked)
  assert.equal(revoked.status, 400, revoked.text)
  assert.equal(revoked.body.error, 'invalid_grant')
}

test.group('Faults FT10 and FT4: tokens across restarts', (group) => {
  group.setup(async () => {
    await resetDatabase()
    ;({ client, secret } = await createClient({
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [REDIRECT],
    }))
    ;({ user } = await createUser())
    codes.verifier = randomToken(32)
    tokens.valid = await issue('access', 3600)
    tokens.revoked = await issue('access', 3600)
    // Expires during the first restart (a cold start takes longer than this).
    tokens.expired = await issue('access', 2)
    tokens.refresh = await issue('refresh', 3600)
    tokens.refreshRevoked = await issue('refresh', 3600)
    for (const value of [tokens.revoked, tokens.refreshRevoked]) {
      const row = await db.from('oauth_tokens').where('token_hash', digest(value)).first()
      await revokeTokenById(row.id)
    }
    codes.used = await issueCode()
    codes.fresh = await issueCode()
    await server.start()
    return async () => void (await server.stop())
  })

  test('FT10: SIGTERM restart keeps valid, revoked and used as they were', async ({ assert }) => {
    const used = await redeem(codes.used)
    assert.equal(used.status, 200, used.text)
    assert.equal(await userInfo(used.body.access_token), 200)
    const stopping = Date.now()
    assert.equal(await server.stop('SIGTERM'), 0, 'a SIGTERM stop exits with code 0')
    const starting = Date.now()
    await server.start()
    if (process.env.FAULT_VERBOSE)
      console.log(`SIGTERM stop ${starting - stopping} ms, start ${Date.now() - starting} ms`)
    await assertDurable(assert)
    assert.equal(await userInfo(used.body.access_token), 200, 'tokens from a code survive')
    const again = await redeem(codes.used)
    assert.equal(again.status, 400, again.text)
    assert.equal(again.body.error, 'invalid_grant')
    const fresh = await redeem(codes.fresh)
    assert.equal(fresh.status, 200, 'an unused code still works after the restart')
  }).timeout(120000)

  test('FT4 + FT10: SIGKILL during a refresh rotation: never both tokens, never 500', async ({
    assert,
  }) => {
    const outcomes: string[] = []
    // Kill somewhere within the time a rotation takes here (measured on the warm server).
    let rotationMs = 40
    for (let run = 0; run < runs(2); run++) {
      const old = tokens.refresh
      const answer = refresh(old, 10000)
      await sleep(1 + Math.floor(Math.random() * rotationMs * 1.2))
      await server.stop('SIGKILL')
      const { status, body } = await answer
      assert.include([0, 200], status, `refresh answered ${status}`)
      await server.start()
      await assertDurable(assert)
      // A used code stays used across a SIGKILL too.
      assert.equal((await redeem(codes.fresh)).status, 400)

      // The old token first: if it still works while a new one was handed out, that is a
      // double spend. A replayed rotated token revokes its grant, the new token included.
      const candidates = [old, ...(status === 200 ? [body.refresh_token as string] : [])]
      const results = []
      for (const candidate of candidates) results.push(await refresh(candidate))
      for (const r of results) assert.include([200, 400], r.status, r.text)
      const working = results.filter((r) => r.status === 200)
      if (working.length) rotationMs = working[0].ms
      assert.isAtMost(working.length, 1, 'old and new refresh token both worked')
      outcomes.push(`${status}->${results.map((r) => r.status).join('/')}`)
      // Next run: the token that worked, or a new sign-in (a freshly issued token).
      tokens.refresh = working[0]?.body.refresh_token ?? (await issue('refresh', 3600))
    }
    if (process.env.FAULT_VERBOSE) console.log(`FT4 runs (answer->old/new): ${outcomes.join(', ')}`)
  }).timeout(300000)
})
