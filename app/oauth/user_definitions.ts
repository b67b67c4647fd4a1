/**
 * The `users` section of the application definition document (spec/app-definition.md): checks
 * with JSON paths, change lines, writes inside the import's transaction and export. A password
 * is stored as a scrypt hash; `passwordHash` (a scrypt PHC string, as exported) is stored as
 * is; neither keeps an existing user's password. Fields an entry leaves out are left alone
 * (role lists included). Users are never pruned (the contract prunes entities, attributes,
 * roles, clients and reports). The `anonymous` entry sets the anonymous user's roles only.
 */
import hash from '@adonisjs/core/services/hash'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import User from '#models/user'
import type { Problem } from './client_rules.js'
import { ANONYMOUS_USERNAME, checkUser, type UserInput } from './accounts.js'
import { securityChanged } from './clients.js'
import { lastAdminProblems } from './last_admin.js'
import type { RoleCodes } from '#security/roles_definition'
import { loadAssignments, rolesChanged, setUserRoles } from '#security/roles_store'

/** A `users` entry of the application definition: the account fields plus a stored hash. */
export interface UserEntry extends UserInput {
  passwordHash?: string
}

const PROFILE = ['firstName', 'lastName', 'email', 'locale', 'timeZone', 'active'] as const
const COLUMN: Record<(typeof PROFILE)[number], string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  locale: 'locale',
  timeZone: 'time_zone',
  active: 'active',
}
const scrypt = () => hash.use('scrypt')
const pathOf = (i: number) => `$.users[${i}]`
const sorted = (codes: string[]) => [...new Set(codes)].sort()

interface Planned {
  entry: UserEntry
  row: any | null
  /** New password hash to store (undefined: keep). */
  passwordHash?: string
  profile: Record<string, unknown>
  roles: { resourceRoles?: string[]; rowLevelRoles?: string[] }
}

export interface UsersPlan {
  problems: Problem[]
  changes: string[]
  users: Planned[]
}

async function storedUsers(client: QueryClientContract) {
  const rows = await client.from('users').select('*').orderBy('username')
  return new Map(rows.map((r) => [r.username as string, r]))
}

export async function planUsers(
  client: QueryClientContract,
  entries: UserEntry[] | undefined,
  codes: RoleCodes
): Promise<UsersPlan> {
  const plan: UsersPlan = { problems: [], changes: [], users: [] }
  if (!entries) return plan
  const report = (path: string, message: string) => plan.problems.push({ path, message })
  const stored = await storedUsers(client)
  const assignments = await loadAssignments(client)
  const first = new Map<string, number>()
  for (const [i, entry] of entries.entries()) {
    const path = pathOf(i)
    const row = stored.get(entry.username) ?? null
    const anonymous = entry.username === ANONYMOUS_USERNAME
    const earlier = first.get(entry.username)
    if (earlier === undefined) first.set(entry.username, i)
    else report(`${path}.username`, `duplicate user '${entry.username}' (also ${pathOf(earlier)})`)
    if (anonymous) {
      for (const key of Object.keys(entry))
        if (!['username', 'resourceRoles', 'rowLevelRoles'].includes(key))
          report(`${path}.${key}`, 'the anonymous user only takes resourceRoles and rowLevelRoles')
    } else {
      // Field rules of accounts.ts; the password is checked below, the roles here.
      const checked = checkUser({
        ...entry,
        password: entry.password ?? 'x'.repeat(8),
        resourceRoles: undefined,
        rowLevelRoles: undefined,
      })
      for (const p of checked) report(`${path}.${p.path}`, p.message)
      if (entry.password !== undefined && entry.passwordHash !== undefined)
        report(`${path}.password`, 'give password or passwordHash, not both')
      if (entry.passwordHash !== undefined && !scrypt().isValidHash(entry.passwordHash))
        report(`${path}.passwordHash`, 'must be a scrypt hash as exported ($scrypt$...)')
      if (!row && entry.password === undefined && entry.passwordHash === undefined)
        report(`${path}`, `new user '${entry.username}' needs a password or a passwordHash`)
    }
    for (const kind of ['resourceRoles', 'rowLevelRoles'] as const) {
      const known = kind === 'resourceRoles' ? codes.resource : codes.rowLevel
      entry[kind]?.forEach((code, j) => {
        if (!known.has(code)) report(`${path}.${kind}[${j}]`, `unknown role '${code}'`)
      })
    }
    plan.users.push(await planOne(entry, row, row ? assignments.get(row.id) : undefined))
  }
  // The last active administrator keeps the admin role (last_admin.ts).
  const access = plan.users.map((u, index) => ({
    username: u.entry.username,
    index,
    exists: u.row !== null,
    active: u.entry.active,
    resourceRoles: u.entry.resourceRoles,
  }))
  plan.problems.push(...(await lastAdminProblems(client, access)))
  for (const u of plan.users) {
    const fields = [
      ...(u.passwordHash ? ['password'] : []),
      ...Object.keys(u.profile),
      ...Object.keys(u.roles),
    ]
    if (!u.row) plan.changes.push(`user ${u.entry.username}: created`)
    else if (fields.length)
      plan.changes.push(`user ${u.entry.username}: changed ${fields.join(', ')}`)
  }
  return plan
}

async function planOne(
  entry: UserEntry,
  row: any | null,
  assigned: { resourceRoles: string[]; rowLevelRoles: string[] } | undefined
): Promise<Planned> {
  const planned: Planned = { entry, row, profile: {}, roles: {} }
  if (entry.passwordHash !== undefined && entry.passwordHash !== row?.password)
    planned.passwordHash = entry.passwordHash
  if (entry.password !== undefined) {
    const same = row?.password && (await verifies(row.password, entry.password))
    if (!same) planned.passwordHash = await scrypt().make(entry.password)
  }
  for (const field of PROFILE) {
    const value = entry[field]
    if (value === undefined) continue
    const current = row ? row[COLUMN[field]] : undefined
    const equal = field === 'active' ? Boolean(current) === value : (current ?? null) === value
    if (!row || !equal) planned.profile[field] = value
  }
  for (const kind of ['resourceRoles', 'rowLevelRoles'] as const) {
    const wanted = entry[kind]
    if (wanted === undefined) continue
    if (JSON.stringify(sorted(wanted)) !== JSON.stringify(sorted(assigned?.[kind] ?? [])))
      planned.roles[kind] = sorted(wanted)
  }
  return planned
}

async function verifies(stored: string, password: string) {
  try {
    return await scrypt().verify(stored, password)
  } catch {
    return false
  }
}

/** Writes the planned users inside the import's transaction. Returns whether anything changed. */
export async function applyUsers(trx: TransactionClientContract, plan: UsersPlan) {
  let security = false
  let roles = false
  let changed = false
  for (const u of plan.users) {
    // Profile fields through the model (timestamps as Lucid writes them); the password hash
    // with the query builder, so that the model does not hash a hash again.
    const stop = Boolean(u.row && (u.passwordHash || u.profile.active === false))
    let user = u.row ? await User.query({ client: trx }).where('id', u.row.id).firstOrFail() : null
    if (!user || Object.keys(u.profile).length || stop) {
      user ??= new User().merge({ username: u.entry.username, active: true })
      user.useTransaction(trx)
      user.merge(u.profile)
      // A new password or a deactivation stops the tokens issued before, as in accounts.ts.
      if (stop) user.merge({ tokensValidAfter: new Date() })
      await user.save()
      changed = true
    }
    if (u.passwordHash) {
      await trx.from('users').where('id', user.id).update({ password: u.passwordHash })
      changed = true
    }
    if (stop) security = true
    for (const [kind, codes] of Object.entries(u.roles)) {
      await setUserRoles(trx, user.id, kind as 'resourceRoles' | 'rowLevelRoles', codes)
      roles = changed = true
    }
  }
  if (security) await securityChanged(trx)
  if (roles) await rolesChanged(trx)
  return changed
}

/** Every user as a section entry: the password's hash, never a password. */
export async function exportUsers(client: QueryClientContract): Promise<UserEntry[]> {
  const assignments = await loadAssignments(client)
  return [...(await storedUsers(client)).values()].map((row) => {
    const roles = assignments.get(row.id) ?? { resourceRoles: [], rowLevelRoles: [] }
    if (row.username === ANONYMOUS_USERNAME) return { username: row.username, ...roles }
    const entry: UserEntry = { username: row.username }
    if (row.password) entry.passwordHash = row.password
    for (const field of PROFILE) {
      const value = row[COLUMN[field]]
      if (field === 'active') entry.active = Boolean(value)
      else if (value !== null && value !== undefined) entry[field] = value
    }
    return { ...entry, ...roles }
  })
}
