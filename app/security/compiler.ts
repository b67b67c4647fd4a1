/**
 * Roles -> PolicyIndex, pure (no database). The effective resource roles are the assigned ones
 * plus their child roles (transitively, cycles ignored), keeping only roles whose scopes contain
 * `API` (every request here is a REST request, reference 9.2 [2.8]). Unknown codes grant
 * nothing. Row-level policies are compiled with the caller's placeholder values
 * (row_rules.ts); `filter` policies restrict reads, `predicate` policies the actions they list.
 */
import type { Model } from '#engine/metadata/model'
import type { ResourceRole, RowLevelRole } from './roles_store.js'
import { BUILT_IN_ROLES } from './builtins.js'
import {
  PolicyIndex,
  type AttributeLevel,
  type EntityOperation,
  type PolicyData,
  type RowRule,
} from './policy_index.js'
import { compileRowRule, type CallerValues } from './row_rules.js'

export interface RoleCatalogue {
  version: number
  resource: Map<string, ResourceRole>
  rowLevel: Map<string, RowLevelRole>
}

export interface RoleAssignment {
  resourceRoles: readonly string[]
  rowLevelRoles: readonly string[]
}

const OPERATIONS: readonly EntityOperation[] = ['create', 'read', 'update', 'delete']

function resourceRole(catalogue: RoleCatalogue, code: string): ResourceRole | undefined {
  return BUILT_IN_ROLES.get(code) ?? catalogue.resource.get(code)
}

/** The assigned roles and their children that apply to API requests, sorted by code. */
export function effectiveResourceRoles(
  catalogue: RoleCatalogue,
  codes: readonly string[]
): ResourceRole[] {
  const seen = new Map<string, ResourceRole>()
  const visit = (code: string) => {
    if (seen.has(code)) return
    const role = resourceRole(catalogue, code)
    if (!role || !role.scopes.includes('API')) return
    seen.set(code, role)
    for (const child of role.childRoles) visit(child)
  }
  for (const code of codes) visit(code)
  return [...seen.values()].sort((a, b) => a.code.localeCompare(b.code))
}

function resourceData(roles: ResourceRole[]): Omit<PolicyData, 'rows'> {
  const entities = new Map<string, Set<EntityOperation>>()
  const attributes = new Map<string, Map<string, AttributeLevel>>()
  const specifics = new Set<string>()
  for (const role of roles) {
    for (const p of role.entityPolicies) {
      const set = entities.get(p.entity) ?? new Set()
      for (const action of p.actions) {
        const a = action.toLowerCase()
        if (a === 'all' || a === '*') OPERATIONS.forEach((op) => set.add(op))
        else if ((OPERATIONS as string[]).includes(a)) set.add(a as EntityOperation)
      }
      entities.set(p.entity, set)
    }
    for (const p of role.attributePolicies) {
      const level: AttributeLevel = p.action.toUpperCase() === 'MODIFY' ? 2 : 1
      const map = attributes.get(p.entity) ?? new Map<string, AttributeLevel>()
      for (const name of p.attributes) map.set(name, Math.max(map.get(name) ?? 0, level) as any)
      attributes.set(p.entity, map)
    }
    for (const name of role.specificPolicies) specifics.add(name)
  }
  return { entities, attributes, specifics }
}

function rowData(
  model: Model,
  catalogue: RoleCatalogue,
  codes: readonly string[],
  caller: CallerValues
): Map<string, RowRule[]> {
  const rows = new Map<string, RowRule[]>()
  const add = (key: string, rule: RowRule) => rows.set(key, [...(rows.get(key) ?? []), rule])
  for (const code of [...new Set(codes)].sort()) {
    const role = catalogue.rowLevel.get(code)
    if (!role) continue
    for (const policy of role.policies) {
      // A policy of an entity the model no longer has restricts nothing that exists.
      if (!model.entities.has(policy.entity)) continue
      const rule = compileRowRule(model, policy.entity, policy.filter, caller)
      const actions = policy.type === 'filter' ? ['read'] : policy.actions
      for (const action of actions) add(`${policy.entity}:${action.toLowerCase()}`, rule)
    }
  }
  return rows
}

/** The subject's compiled permissions. */
export function compilePermissions(
  model: Model,
  catalogue: RoleCatalogue,
  assignment: RoleAssignment,
  caller: CallerValues
): PolicyIndex {
  const effective = effectiveResourceRoles(catalogue, assignment.resourceRoles)
  const key = `${catalogue.version}:${effective.map((r) => r.code).join(',')}`
  const authorities = [
    ...[...new Set(assignment.resourceRoles)].sort().map((c) => `ROLE_${c}`),
    ...[...new Set(assignment.rowLevelRoles)].sort().map((c) => `ROW_LEVEL_ROLE_${c}`),
  ]
  return new PolicyIndex(key, authorities, {
    ...resourceData(effective),
    rows: rowData(model, catalogue, assignment.rowLevelRoles, caller),
  })
}
