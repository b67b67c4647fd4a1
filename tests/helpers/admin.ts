/**
 * Admin API test helpers: actors with bearer tokens (an admin user, an admin client, a
 * `system-full-access` client without the admin policy, a plain user, anonymous), requests
 * through the real server, and the "nothing changed" oracle of refused requests (definition,
 * schema, audit trail and changelog).
 */
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { listTables } from '#engine/main'
import { baseUrl } from '#tests/helpers/oauth'
import { accessToken, makeClient } from '#tests/helpers/resource_server'
import { definitions } from '#definition/main'
import { engine } from '#tests/helpers/engine'

export type AdminActor = 'admin' | 'adminClient' | 'fullAccess' | 'plain' | 'anonymous'
export const adminTokens = new Map<AdminActor, string>()

/** Creates the actors (after resetDatabase): tokens issued directly, as a login would. */
export async function setupAdminActors() {
  adminTokens.clear()
  // The built-in user a started server always has (ensureBuiltInUsers): anonymous URLs run as it.
  await User.create({ username: 'anonymous', active: true })
  const web = await makeClient({ resourceRoles: [] })
  const root = await User.create({ username: 'root', password: 'S3cret-passw0rd', active: true })
  await db.table('mg_user_resource_roles').multiInsert([
    { user_id: root.id, role_code: 'system-full-access' },
    { user_id: root.id, role_code: 'system-admin' },
  ])
  adminTokens.set('admin', (await accessToken(web, root)).token)
  const plain = await User.create({ username: 'plain', password: 'S3cret-passw0rd', active: true })
  await db.table('mg_user_resource_roles').insert({ user_id: plain.id, role_code: 'rest-minimal' })
  adminTokens.set('plain', (await accessToken(web, plain)).token)
  const adminClient = await makeClient({ resourceRoles: ['system-admin'] })
  adminTokens.set('adminClient', (await accessToken(adminClient)).token)
  const full = await makeClient({ resourceRoles: ['system-full-access'] })
  adminTokens.set('fullAccess', (await accessToken(full)).token)
}

export interface Reply {
  status: number
  headers: Headers
  body: any
  text: string
}

/** A request as `actor` (JSON body unless `raw` is given with its content type). */
export async function admin(
  actor: AdminActor,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<Reply> {
  const h: Record<string, string> = { ...headers }
  const token = adminTokens.get(actor)
  if (token) h.Authorization = `Bearer ${token}`
  let payload: string | undefined
  if (typeof body === 'string') payload = body
  else if (body !== undefined) {
    payload = JSON.stringify(body)
    h['Content-Type'] ??= 'application/json'
  }
  const path2 = path.startsWith('/') ? path : `/admin/api/${path}`
  const response = await fetch(`${baseUrl()}${path2}`, { method, headers: h, body: payload })
  const text = await response.text()
  let json: any = null
  try {
    json = text ? JSON.parse(text) : null
  } catch {
    json = text
  }
  return { status: response.status, headers: response.headers, body: json, text }
}

/** The definition version an ETag names. */
export const versionOf = (reply: Reply) =>
  Number(/"(\d+)"/.exec(reply.headers.get('etag') ?? '')?.[1])

/**
 * Oracle of "nothing changed": the exported definition, the tables of the database, the audit
 * trail, the schema changelog and the version counters.
 */
export async function adminState(): Promise<string> {
  const document = await definitions(await engine()).exportDocument()
  const tables = [...(await listTables(db.connection()))].sort()
  const audit = await db.from('mg_audit').count('* as n')
  const changelog = await db.from('mg_schema_changelog').count('* as n')
  const versions = await db.from('mg_versions').select('key', 'version').orderBy('key')
  return JSON.stringify({ document, tables, audit, changelog, versions }, (_k, v) =>
    typeof v === 'bigint' ? Number(v) : v
  )
}

/** Callers without the admin policy and what they get. */
export const OUTSIDERS = [
  ['anonymous', 401],
  ['plain', 403],
  ['fullAccess', 403],
] as const

/**
 * Every call is refused to each outsider with its status and the error shape (no password, no
 * secret in the body). The caller checks `adminState()` around it.
 */
export async function assertOutsidersRefused(
  assert: {
    equal(a: unknown, b: unknown, m?: string): void
    properties(o: unknown, p: string[]): void
  },
  calls: readonly (readonly [string, string, unknown?])[]
) {
  for (const [actor, status] of OUTSIDERS)
    for (const [method, path, body] of calls) {
      const reply = await admin(actor, method, path, body)
      assert.equal(reply.status, status, `${actor} ${method} ${path}`)
      assert.properties(reply.body, ['error', 'details'])
    }
}
