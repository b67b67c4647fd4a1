/**
 * The `resourceRoles` and `rowLevelRoles` sections of the application definition document
 * (spec/app-definition.md): semantic checks with JSON paths, change lines, writes inside the
 * import's transaction and export. A section that is absent leaves the stored roles alone; with
 * `"prune": true`, a present section removes the stored roles it does not name (and their
 * assignments to users). Built-in roles are never stored, defined or exported.
 */
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Model } from '#engine/metadata/model'
import type { Problem } from '#engine/metadata/validate'
import { parseFilter } from '#engine/query/filter_parser'
import {
  ATTRIBUTE_ACTIONS,
  BUILT_IN_RESOURCE_ROLES,
  ENTITY_ACTIONS,
  ROLE_SCOPES,
  ROW_LEVEL_TYPES,
  SPECIFIC_POLICIES,
  deleteRoles,
  loadResourceRoles,
  loadRowLevelRoles,
  rolesChanged,
  saveResourceRole,
  saveRowLevelRole,
  type ResourceRole,
  type RowLevelRole,
} from './roles_store.js'

/** Section entries as the structural validation leaves them (optional fields may be absent). */
export type ResourceRoleEntry = Partial<ResourceRole> & { code: string }
export type RowLevelRoleEntry = Partial<RowLevelRole> & { code: string }

/**
 * Placeholders a row-level filter may use as a value; stored as written, validated with a
 * sample value of the type they stand for (the user id is a uuid, the others strings).
 */
export const CALLER_PLACEHOLDERS: Record<string, string> = {
  ':current_user_id': '00000000-0000-4000-8000-000000000000',
  ':current_user_username': 'username',
  ':current_client_id': 'client',
}

export function normalizeResourceRole(e: ResourceRoleEntry): ResourceRole {
  return {
    code: e.code,
    name: e.name ?? e.code,
    description: e.description ?? '',
    scopes: e.scopes ?? ['API', 'UI'],
    childRoles: e.childRoles ?? [],
    entityPolicies: (e.entityPolicies ?? []).map((p) => ({ entity: p.entity, actions: p.actions })),
    attributePolicies: (e.attributePolicies ?? []).map((p) => ({
      entity: p.entity,
      attributes: p.attributes,
      action: p.action,
    })),
    specificPolicies: e.specificPolicies ?? [],
  }
}

export function normalizeRowLevelRole(e: RowLevelRoleEntry): RowLevelRole {
  return {
    code: e.code,
    name: e.name ?? e.code,
    description: e.description ?? '',
    policies: (e.policies ?? []).map((p) => ({
      entity: p.entity,
      type: p.type,
      actions: p.actions,
      filter: p.filter,
    })),
  }
}

function withPlaceholders(value: unknown): unknown {
  if (typeof value === 'string') return CALLER_PLACEHOLDERS[value] ?? value
  if (Array.isArray(value)) return value.map(withPlaceholders)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPlaceholders(v)]))
  return value
}

function duplicates(codes: string[], section: string, out: Problem[]) {
  const first = new Map<string, number>()
  codes.forEach((code, i) => {
    const earlier = first.get(code)
    if (earlier === undefined) first.set(code, i)
    else
      out.push({
        path: `$.${section}[${i}].code`,
        message: `duplicate role code '${code}' (also $.${section}[${earlier}])`,
      })
  })
}

function subset(values: string[], allowed: readonly string[], path: string, out: Problem[]) {
  values.forEach((v, i) => {
    if (!allowed.includes(v))
      out.push({ path: `${path}[${i}]`, message: `'${v}' is not one of ${allowed.join(', ')}` })
  })
}

/** The role codes that exist once the document is applied, by kind. */
export interface RoleCodes {
  resource: Set<string>
  rowLevel: Set<string>
  /** Stored roles this change removes (prune). */
  removed: { resource: Set<string>; rowLevel: Set<string> }
}

export interface RolesPlan {
  problems: Problem[]
  changes: string[]
  codes: RoleCodes
  resource: { save: ResourceRole[]; remove: string[] }
  rowLevel: { save: RowLevelRole[]; remove: string[] }
}

/** Checks both sections against the merged model and the stored roles; plans the writes. */
export async function planRoles(
  client: QueryClientContract,
  model: Model,
  resourceEntries: ResourceRoleEntry[] | undefined,
  rowLevelEntries: RowLevelRoleEntry[] | undefined,
  prune: boolean
): Promise<RolesPlan> {
  const problems: Problem[] = []
  const changes: string[] = []
  const storedResource = new Map((await loadResourceRoles(client)).map((r) => [r.code, r]))
  const storedRowLevel = new Map((await loadRowLevelRoles(client)).map((r) => [r.code, r]))
  const resource = (resourceEntries ?? []).map(normalizeResourceRole)
  const rowLevel = (rowLevelEntries ?? []).map(normalizeRowLevelRole)

  // Final graph of resource roles: stored ones (unless pruned) overridden by the document.
  const finalResource = new Map(
    resourceEntries && prune ? [] : [...storedResource].map(([c, r]) => [c, r.childRoles])
  )
  // A duplicate code is reported below; the first entry defines the role.
  const named = new Set<string>()
  for (const r of resource) {
    if (!named.has(r.code)) finalResource.set(r.code, r.childRoles)
    named.add(r.code)
  }
  const finalRowLevel = new Set(rowLevelEntries && prune ? [] : storedRowLevel.keys())
  for (const r of rowLevel) finalRowLevel.add(r.code)
  const codes: RoleCodes = {
    resource: new Set([...BUILT_IN_RESOURCE_ROLES, ...finalResource.keys()]),
    rowLevel: finalRowLevel,
    removed: {
      resource: new Set([...storedResource.keys()].filter((c) => !finalResource.has(c))),
      rowLevel: new Set([...storedRowLevel.keys()].filter((c) => !finalRowLevel.has(c))),
    },
  }

  duplicates(
    resource.map((r) => r.code),
    'resourceRoles',
    problems
  )
  resource.forEach((role, i) => {
    const path = `$.resourceRoles[${i}]`
    if (BUILT_IN_RESOURCE_ROLES.includes(role.code))
      problems.push({
        path: `${path}.code`,
        message: `'${role.code}' is a built-in role and cannot be defined`,
      })
    subset(role.scopes, ROLE_SCOPES, `${path}.scopes`, problems)
    role.childRoles.forEach((child, j) => {
      if (!codes.resource.has(child))
        problems.push({ path: `${path}.childRoles[${j}]`, message: `unknown role '${child}'` })
    })
    const cycle = cycleFrom(role.code, finalResource)
    if (cycle)
      problems.push({
        path: `${path}.childRoles`,
        message: `child role cycle: ${cycle.join(' -> ')}`,
      })
    role.entityPolicies.forEach((p, j) => {
      const pp = `${path}.entityPolicies[${j}]`
      if (p.entity !== '*' && !model.entity(p.entity))
        problems.push({ path: `${pp}.entity`, message: `unknown entity '${p.entity}'` })
      subset(p.actions, ENTITY_ACTIONS, `${pp}.actions`, problems)
    })
    role.attributePolicies.forEach((p, j) => {
      const pp = `${path}.attributePolicies[${j}]`
      const entity = p.entity === '*' ? null : model.entity(p.entity)
      if (p.entity !== '*' && !entity)
        problems.push({ path: `${pp}.entity`, message: `unknown entity '${p.entity}'` })
      p.attributes.forEach((a, k) => {
        if (a === '*' || (entity && entity.attributes.has(a)) || (!entity && p.entity !== '*'))
          return
        problems.push({
          path: `${pp}.attributes[${k}]`,
          message:
            p.entity === '*'
              ? `only '*' applies to every entity`
              : `unknown attribute '${a}' of ${p.entity}`,
        })
      })
      if (!ATTRIBUTE_ACTIONS.includes(p.action as any))
        problems.push({ path: `${pp}.action`, message: `must be VIEW or MODIFY` })
    })
    subset(role.specificPolicies, SPECIFIC_POLICIES, `${path}.specificPolicies`, problems)
    const stored = storedResource.get(role.code)
    if (!stored) changes.push(`resource role ${role.code}: created`)
    else if (JSON.stringify(stored) !== JSON.stringify(role))
      changes.push(`resource role ${role.code}: changed`)
  })

  duplicates(
    rowLevel.map((r) => r.code),
    'rowLevelRoles',
    problems
  )
  rowLevel.forEach((role, i) => {
    const path = `$.rowLevelRoles[${i}]`
    role.policies.forEach((p, j) => {
      const pp = `${path}.policies[${j}]`
      if (!ROW_LEVEL_TYPES.includes(p.type as any))
        problems.push({ path: `${pp}.type`, message: `must be filter or predicate` })
      subset(p.actions, ENTITY_ACTIONS, `${pp}.actions`, problems)
      if (p.type === 'filter' && p.actions.some((a) => a !== 'read'))
        problems.push({ path: `${pp}.actions`, message: `a filter policy applies to read only` })
      if (!model.entity(p.entity)) {
        problems.push({ path: `${pp}.entity`, message: `unknown entity '${p.entity}'` })
        return
      }
      const parsed = parseFilter(model, p.entity, withPlaceholders(p.filter))
      if (!parsed.ok) problems.push({ path: `${pp}.filter`, message: parsed.error.details })
    })
    const stored = storedRowLevel.get(role.code)
    if (!stored) changes.push(`row-level role ${role.code}: created`)
    else if (JSON.stringify(stored) !== JSON.stringify(role))
      changes.push(`row-level role ${role.code}: changed`)
  })

  const changedOnly = <T extends { code: string }>(roles: T[], stored: Map<string, T>) =>
    roles.filter((r) => JSON.stringify(stored.get(r.code)) !== JSON.stringify(r))
  const pruned = (entries: { code: string }[] | undefined, stored: Map<string, unknown>) => {
    if (!entries || !prune) return []
    const keep = new Set(entries.map((r) => r.code))
    return [...stored.keys()].filter((c) => !keep.has(c))
  }
  const plan: RolesPlan = {
    problems,
    changes,
    codes,
    resource: {
      save: changedOnly(resource, storedResource),
      remove: pruned(resourceEntries, storedResource),
    },
    rowLevel: {
      save: changedOnly(rowLevel, storedRowLevel),
      remove: pruned(rowLevelEntries, storedRowLevel),
    },
  }
  for (const c of plan.resource.remove) changes.push(`resource role ${c}: deleted (prune)`)
  for (const c of plan.rowLevel.remove) changes.push(`row-level role ${c}: deleted (prune)`)
  return plan
}

/** A cycle of child roles through `start`, as the list of codes, or null. */
function cycleFrom(start: string, graph: Map<string, string[]>): string[] | null {
  const visit = (code: string, path: string[], seen: Set<string>): string[] | null => {
    for (const child of graph.get(code) ?? []) {
      if (child === start) return [...path, child]
      if (seen.has(child)) continue
      seen.add(child)
      const found = visit(child, [...path, child], seen)
      if (found) return found
    }
    return null
  }
  return visit(start, [start], new Set())
}

/** Writes the planned roles inside the import's transaction. Returns whether anything changed. */
export async function applyRoles(trx: TransactionClientContract, plan: RolesPlan) {
  for (const role of plan.resource.save) await saveResourceRole(trx, role)
  for (const role of plan.rowLevel.save) await saveRowLevelRole(trx, role)
  await deleteRoles(trx, 'resource', plan.resource.remove)
  await deleteRoles(trx, 'rowLevel', plan.rowLevel.remove)
  const changed =
    plan.resource.save.length +
      plan.rowLevel.save.length +
      plan.resource.remove.length +
      plan.rowLevel.remove.length >
    0
  if (changed) await rolesChanged(trx)
  return changed
}

export async function exportRoles(client: QueryClientContract) {
  return {
    resourceRoles: await loadResourceRoles(client),
    rowLevelRoles: await loadRowLevelRoles(client),
  }
}
