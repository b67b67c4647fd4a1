/**
 * The last administrator is kept (README "Admin API", users): a `users` change that would leave
 * no active user holding the specific policy `admin.api` (the built-in role `system-admin`, or
 * a stored role granting it directly or through its child roles) is refused with a problem at
 * the field that takes it away (`$.users[i].active` or `$.users[i].resourceRoles`). Otherwise
 * nobody could sign in to the console or use the admin API again. Only a change that goes from
 * at least one such user to none is refused; the admin API, `app:import` and the console all
 * reach this through the `users` section (planUsers).
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { BUILT_IN_ROLES } from '#security/builtins'
import { loadAssignments, loadResourceRoles, type ResourceRole } from '#security/roles_store'
import type { Problem } from './client_rules.js'
import { ANONYMOUS_USERNAME } from './accounts.js'

const ADMIN_POLICY = 'admin.api'

/** Codes of the resource roles (built-in and stored) that grant `admin.api`, with child roles. */
async function adminRoleCodes(client: QueryClientContract): Promise<Set<string>> {
  const roles = new Map<string, ResourceRole>(BUILT_IN_ROLES)
  for (const role of await loadResourceRoles(client)) roles.set(role.code, role)
  const memo = new Map<string, boolean>()
  const grants = (code: string, seen: Set<string>): boolean => {
    if (memo.has(code)) return memo.get(code)!
    const role = roles.get(code)
    if (!role || seen.has(code)) return false
    seen.add(code)
    const result =
      role.specificPolicies.includes(ADMIN_POLICY) ||
      role.childRoles.some((child) => grants(child, seen))
    memo.set(code, result)
    return result
  }
  return new Set([...roles.keys()].filter((code) => grants(code, new Set())))
}

/** One planned user change, as far as this rule needs it. */
export interface PlannedAccess {
  username: string
  /** The entry's index in the section (problem paths). */
  index: number
  /** Whether the user exists already. */
  exists: boolean
  /** The new `active` value when the change sets it. */
  active?: boolean
  /** The new resource roles when the change replaces them. */
  resourceRoles?: string[]
}

export async function lastAdminProblems(
  client: QueryClientContract,
  planned: PlannedAccess[]
): Promise<Problem[]> {
  if (!planned.some((p) => p.exists && (p.active === false || p.resourceRoles))) return []
  const codes = await adminRoleCodes(client)
  const assignments = await loadAssignments(client)
  const rows = await client.from('users').select('id', 'username', 'active')
  const isAdmin = (active: boolean, roles: string[]) => active && roles.some((c) => codes.has(c))
  const byName = new Map(planned.map((p) => [p.username, p]))
  const before = new Set<string>()
  const after = new Set<string>()
  for (const row of rows) {
    if (row.username === ANONYMOUS_USERNAME) continue
    const roles = assignments.get(row.id)?.resourceRoles ?? []
    const change = byName.get(row.username)
    if (isAdmin(Boolean(row.active), roles)) before.add(row.username)
    if (isAdmin(change?.active ?? Boolean(row.active), change?.resourceRoles ?? roles))
      after.add(row.username)
  }
  for (const p of planned)
    if (!p.exists && isAdmin(p.active ?? true, p.resourceRoles ?? [])) after.add(p.username)
  if (before.size === 0 || after.size > 0) return []
  const problems: Problem[] = []
  for (const p of planned) {
    if (!before.has(p.username)) continue
    const field = p.active === false ? 'active' : 'resourceRoles'
    const action = p.active === false ? 'deactivating' : 'taking its admin role away from'
    problems.push({
      path: `$.users[${p.index}].${field}`,
      message:
        `'${p.username}' is the last active user with the admin role (system-admin, policy ` +
        `${ADMIN_POLICY}): ${action} it would lock everyone out of the console and the admin ` +
        'API. Give another active user the system-admin role first',
    })
  }
  return problems
}
