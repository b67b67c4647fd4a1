/**
 * Resource-server test helpers: accounts and tokens straight in the database, raw HTTP requests
 * (WHATWG fetch and URL would normalise `..`, `//` and `\` away before they reach the server),
 * the state oracle of the token/user/client tables and changes made by another instance.
 */
import http from 'node:http'
import net from 'node:net'
import db from '@adonisjs/lucid/services/db'
import app from '@adonisjs/core/services/app'
import { Engine } from '#engine/engine'
import { rolesChanged, setUserRoles } from '#security/roles_store'
import { createClient } from '#tests/helpers/oauth'
import type OAuthClient from '#models/oauth_client'
import User from '#models/user'
import { bumpVersion } from '#changes/versions'
import { randomToken } from '#oauth/secrets'
import { issueToken, newGrantId } from '#oauth/token_store'

export interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
  body: any
}

const port = () => Number(process.env.PORT)

/** One request with the path sent exactly as given. */
export function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string | string[]>; body?: string } = {}
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: port(), path, method: options.method ?? 'GET' },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => {
          let body: any = null
          try {
            body = text ? JSON.parse(text) : null
          } catch {}
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body })
        })
      }
    )
    for (const [name, value] of Object.entries(options.headers ?? {}))
      request.setHeader(name, value)
    request.on('error', reject)
    request.end(options.body)
  })
}

/**
 * A JSON request with a bearer token: `body` as JSON (a string is sent as it is), with an
 * explicit length (Node's client sends a DELETE body neither chunked nor sized).
 */
export function sendJson(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)
  return raw(path, {
    method,
    headers: {
      'Authorization': `Bearer ${token}`,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
      ...headers,
    },
    body: text,
  })
}

/** A request line written byte for byte on a socket; returns the status code (0 = closed). */
export function rawLine(requestLine: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port(), '127.0.0.1', () =>
      socket.write(`${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    )
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => (text += chunk))
    socket.on('end', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0)))
    socket.on('error', reject)
  })
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

/** A confidential client-credentials client (the shared builder of tests/helpers/oauth.ts). */
export async function makeClient(overrides: Partial<OAuthClient> = {}) {
  const { client } = await createClient({
    authenticationMethods: ['client_secret_basic'],
    ...overrides,
  })
  return client
}

/** A user with full access (tests of the resource server, not of roles). */
export async function makeUser(overrides: Partial<User> = {}) {
  const user = await User.create({
    username: `rs-user-${randomToken(4)}`,
    password: 'S3cret-passw0rd',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    active: true,
    ...overrides,
  })
  await db
    .table('mg_user_resource_roles')
    .insert({ user_id: user.id, role_code: 'system-full-access' })
  return user
}

/**
 * Gives the built-in `anonymous` user (created when missing) `roles` and bumps the roles
 * version, as an administrator would; returns a function that takes them back.
 */
export async function grantAnonymous(roles: string[] = ['rest-minimal']) {
  const anonymous =
    (await User.findBy('username', 'anonymous')) ??
    (await User.create({ username: 'anonymous', active: true }))
  const set = async (codes: string[]) => {
    await db.transaction(async (trx) => {
      await setUserRoles(trx, anonymous.id, 'resourceRoles', codes)
      await rolesChanged(trx)
    })
    await (await app.container.make(Engine)).refresh()
  }
  await set(roles)
  return () => set([])
}

/** An access token of `client` (for `user` when given); ttl in seconds (negative: expired). */
export async function accessToken(client: OAuthClient, user: User | null = null, ttl = 300) {
  const grantId = newGrantId()
  const { value } = await issueToken('access', {
    clientPk: client.id,
    userId: user?.id ?? null,
    grantId,
    scope: null,
    ttlSeconds: ttl,
  })
  return { token: value, grantId }
}

/** Oracle: every row of the token, user and client tables, ordered, as one string. */
export async function authState(): Promise<string> {
  const parts = []
  for (const table of ['oauth_tokens', 'users', 'oauth_clients'])
    parts.push(await db.from(table).select('*').orderBy('id'))
  return JSON.stringify(parts, (_k, v) => (v instanceof Date ? v.toISOString() : v))
}

/**
 * A change to a user or client row made by ANOTHER instance: the row change and the security
 * version bump in one transaction, but this instance's verification cache is left alone (it
 * learns of the change through the change watcher, like a real second instance).
 */
export async function changedElsewhere(
  table: 'users' | 'oauth_clients',
  id: string,
  change: Record<string, unknown>
) {
  await db.transaction(async (trx) => {
    await trx.from(table).where('id', id).update(change)
    await bumpVersion(trx, 'security')
  })
}
