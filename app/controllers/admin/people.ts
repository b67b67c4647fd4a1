/**
 * Reads and small rules shared by the roles and users controllers of the admin API (README
 * "Admin API"): the two kinds of roles, the user views (never a password hash), the user
 * search, and deletes that send a whole section back with prune. Every write still goes through
 * definitions(engine).importDocument; this file only reads.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import engine from '#engine/services/engine'
import User from '#models/user'
import { definitions, type DefinitionResult } from '#definition/main'
import { isObject } from '#definition/shape'
import { ANONYMOUS_USERNAME } from '#oauth/accounts'
import { BUILT_IN_ROLES } from '#security/builtins'
import { loadResourceRoles, loadRowLevelRoles } from '#security/roles_store'
import { changeOptions, invalidPayload, type Problem } from './admin_http.js'

export const client = (): QueryClientContract => engine.db.connection()

export interface RoleKind {
  /** The document key of the section: `resourceRoles` or `rowLevelRoles`. */
  key: 'resourceRoles' | 'rowLevelRoles'
  label: string
  /** Where the routes of this kind live (relative to /admin/api). */
  path: string
  assignments: string
  load(client: QueryClientContract): Promise<{ code: string; name: string }[]>
  builtIns: ReadonlyMap<string, { code: string; name: string }>
}

const KINDS: Record<'resource' | 'rowLevel', RoleKind> = {
  resource: {
    key: 'resourceRoles',
    label: 'resource role',
    path: 'resource-roles',
    assignments: 'mg_user_resource_roles',
    load: loadResourceRoles,
    builtIns: BUILT_IN_ROLES,
  },
  rowLevel: {
    key: 'rowLevelRoles',
    label: 'row-level role',
    path: 'row-level-roles',
    assignments: 'mg_user_row_level_roles',
    load: loadRowLevelRoles,
    builtIns: new Map(),
  },
}

/** Both kinds share one controller; the route that matched tells which one a request is for. */
export const roleKindOf = (ctx: HttpContext) =>
  ctx.route?.pattern.includes('/row-level-roles') ? KINDS.rowLevel : KINDS.resource

/** A role as the admin API shows it: the stored (or built-in) definition plus `builtIn`. */
export async function findRole(kind: RoleKind, code: string) {
  const builtIn = kind.builtIns.get(code)
  if (builtIn) return { ...builtIn, builtIn: true }
  const stored = (await kind.load(client())).find((r) => r.code === code)
  return stored ? { ...stored, builtIn: false } : null
}

export async function listRoles(kind: RoleKind) {
  return [
    ...[...kind.builtIns.values()].map((r) => ({ ...r, builtIn: true })),
    ...(await kind.load(client())).map((r) => ({ ...r, builtIn: false })),
  ]
}

/** The roles with `userCount`, how many users hold each (the list of the admin API). */
export async function listRolesWithCounts(kind: RoleKind) {
  const rows = await client()
    .from(kind.assignments)
    .groupBy('role_code')
    .select('role_code')
    .count('* as total')
  const counts = new Map(rows.map((r: any) => [r.role_code, Number(r.total)]))
  return (await listRoles(kind)).map((r) => ({ ...r, userCount: counts.get(r.code) ?? 0 }))
}

/** Usernames a role is assigned to (what deleting it takes away). */
export async function assignedUsers(kind: RoleKind, code: string): Promise<string[]> {
  const rows = await client()
    .from(kind.assignments)
    .join('users', 'users.id', `${kind.assignments}.user_id`)
    .where(`${kind.assignments}.role_code`, code)
    .orderBy('users.username')
    .select('users.username')
  return rows.map((r) => r.username)
}

/** The request body as an object, or a 422 answer (and null). */
export function bodyObject(ctx: HttpContext, allowed?: string[]): Record<string, any> | null {
  const body = ctx.request.body()
  if (!isObject(body)) {
    invalidPayload(ctx, [{ path: '$', message: 'the body must be a JSON object' }])
    return null
  }
  const problems: Problem[] = Object.keys(body)
    .filter((key) => allowed && !allowed.includes(key))
    .map((key) => ({ path: `$.${key}`, message: `unknown property '${key}'` }))
  if (problems.length) {
    invalidPayload(ctx, problems)
    return null
  }
  return body
}

/** A `code`/`username` in the body must name the element of the URL (no renames here). */
export function sameName(ctx: HttpContext, body: Record<string, any>, key: string, name: string) {
  if (body[key] === undefined || body[key] === name) return true
  invalidPayload(ctx, [
    { path: `$.${key}`, message: `must be '${name}' (renaming is not supported)` },
  ])
  return false
}

/** Applies a document built from the current state, pinned to its version (Definitions). */
export async function applyFromCurrent(
  ctx: HttpContext,
  build: (current: Record<string, any>) => Record<string, unknown>,
  extra: Parameters<typeof changeOptions>[1]
): Promise<DefinitionResult> {
  return (await definitions(engine).importFromCurrent(build, changeOptions(ctx, extra)))!
}

const EXPLANATION =
  'The built-in anonymous user: requests matched by an anonymous URL pattern ' +
  '(svc.rest.anonymous-url-patterns) run with its roles. It cannot sign in; only its roles can be changed.'

/** What the admin API shows of a user: profile, state and roles, never a password (hash). */
async function views(users: User[]) {
  const ids = users.map((u) => u.id)
  const roles = new Map(ids.map((id) => [id, { resourceRoles: [], rowLevelRoles: [] }]))
  for (const kind of Object.values(KINDS)) {
    if (!ids.length) break
    const rows = await client()
      .from(kind.assignments)
      .whereIn('user_id', ids)
      .orderBy('role_code')
      .select('user_id', 'role_code')
    for (const row of rows) (roles.get(row.user_id)![kind.key] as string[]).push(row.role_code)
  }
  return users.map((user) => {
    const builtIn = user.username === ANONYMOUS_USERNAME
    return {
      username: user.username,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      locale: user.locale,
      timeZone: user.timeZone,
      active: Boolean(user.active),
      ...roles.get(user.id),
      builtIn,
      ...(builtIn ? { explanation: EXPLANATION } : {}),
      createdAt: user.createdAt?.toISO() ?? null,
      updatedAt: user.updatedAt?.toISO() ?? null,
    }
  })
}

export type UserView = Awaited<ReturnType<typeof views>>[number]

export async function findUserView(username: string): Promise<UserView | null> {
  const user = await User.query({ client: client() }).where('username', username).first()
  return user ? (await views([user]))[0] : null
}

const SEARCHED = ['username', 'first_name', 'last_name', 'email']

/** Users whose username, first or last name or e-mail contains `q` (any case), by username. */
export async function searchUsers(q: string, offset: number, limit: number) {
  // LIKE wildcards in the search text are literal characters.
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c)}%`
  const filter = (query: any) => {
    if (!q) return query
    return query.where((w: any) => {
      for (const column of SEARCHED) w.orWhereRaw(`lower(${column}) like ? escape '\\'`, [pattern])
    })
  }
  const [{ total }] = await filter(client().from('users')).count('* as total')
  const users = await filter(User.query({ client: client() }))
    .orderBy('username')
    .offset(offset)
    .limit(limit)
  return { total: Number(total), offset, limit, users: await views(users) }
}
