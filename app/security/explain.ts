/**
 * Effective permissions explained, for the admin API (`GET /admin/api/permissions`): which of a
 * subject's roles grants each permission it holds, and which row-level rules apply to it.
 *
 * The permissions themselves always come from the compiled index (`permissionsFor`), so this
 * module can only explain what the subject really gets, never invent a grant: every granted
 * entity operation, attribute level and specific policy is listed (the same set
 * `describePermissions` answers), with the roles whose policies give it. Role resolution
 * mirrors compiler.ts: child roles are followed transitively from each assigned role, skipping
 * unknown codes and roles without the `API` scope (and what lies below them).
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Model } from '#engine/metadata/model'
import { BUILT_IN_ROLES } from './builtins.js'
import type { RoleAssignment } from './compiler.js'
import { EXPLICIT_ONLY_POLICIES, type EntityOperation, type Permissions } from './policy_index.js'
import { compileRowRule, type CallerValues } from './row_rules.js'
import {
  loadResourceRoles,
  loadRowLevelRoles,
  SPECIFIC_POLICIES,
  type ResourceRole,
  type RowLevelRole,
} from './roles_store.js'

/**
 * A role a permission comes from: `role` is the role the subject was assigned, `via` the chain
 * of child roles down to the one whose policy grants it (empty: `role` grants it itself).
 */
export interface RoleGrant {
  role: string
  via: string[]
}

export interface Grants {
  entities: { entity: string; operation: EntityOperation; roles: RoleGrant[] }[]
  attributes: { entity: string; attribute: string; level: 'VIEW' | 'MODIFY'; roles: RoleGrant[] }[]
  specifics: { name: string; roles: RoleGrant[] }[]
}

export interface AppliedRowRule {
  entity: string
  action: string
  role: string
  type: string
  /** The filter as stored (placeholders not substituted). */
  filter: unknown
  /** The rule no longer compiles against the model (an attribute was removed): no row passes. */
  invalid: boolean
  /** Placeholders this subject has no value for: the conditions using them match no row. */
  missingValues: string[]
}

const PLACEHOLDERS = new Map<unknown, keyof CallerValues>([
  [':current_user_id', 'userId'],
  [':current_user_username', 'username'],
  [':current_client_id', 'clientId'],
])

/** The placeholders of `filter` whose value `caller` lacks (row_rules.ts `substitute`). */
function missingValues(filter: unknown, caller: CallerValues): string[] {
  const found = new Set<string>()
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!node || typeof node !== 'object') return
    const object = node as Record<string, unknown>
    if (Array.isArray(object.conditions)) return object.conditions.forEach(walk)
    const values = Array.isArray(object.value) ? object.value : [object.value]
    for (const v of values) {
      const key = PLACEHOLDERS.get(v)
      if (key && caller[key] === null) found.add(v as string)
    }
  }
  walk(filter)
  return [...found].sort()
}

/** A role reachable from an assigned role, with the chain of child roles leading to it. */
interface Holder {
  assigned: string
  via: string[]
  role: ResourceRole
}

const OPERATIONS: readonly EntityOperation[] = ['create', 'read', 'update', 'delete']

/** The stored roles keyed by code (the catalogue the compiler uses, read afresh). */
export async function loadRoleCatalogue(client: QueryClientContract) {
  const [resource, rowLevel] = await Promise.all([
    loadResourceRoles(client),
    loadRowLevelRoles(client),
  ])
  return {
    resource: new Map(resource.map((r) => [r.code, r])),
    rowLevel: new Map(rowLevel.map((r) => [r.code, r])),
  }
}

export type StoredRoles = Awaited<ReturnType<typeof loadRoleCatalogue>>

/** Every API role reachable from each assigned role (shortest chain first, cycles ignored). */
function holders(roles: StoredRoles, assigned: readonly string[]): Holder[] {
  const out: Holder[] = []
  const find = (code: string) => BUILT_IN_ROLES.get(code) ?? roles.resource.get(code)
  for (const root of [...new Set(assigned)].sort()) {
    const seen = new Set<string>()
    const queue: { code: string; via: string[] }[] = [{ code: root, via: [] }]
    while (queue.length) {
      const { code, via } = queue.shift()!
      if (seen.has(code)) continue
      seen.add(code)
      const role = find(code)
      if (!role || !role.scopes.includes('API')) continue
      out.push({ assigned: root, via, role })
      for (const child of role.childRoles) queue.push({ code: child, via: [...via, child] })
    }
  }
  return out
}

const grantsOf = (list: Holder[], test: (role: ResourceRole) => boolean): RoleGrant[] =>
  list.filter((h) => test(h.role)).map((h) => ({ role: h.assigned, via: h.via }))

const grantsOperation = (actions: string[], operation: EntityOperation) =>
  actions.some((action) => {
    const a = action.toLowerCase()
    return a === operation || a === 'all' || a === '*'
  })

/** Which roles grant each permission `permissions` holds (for every element of `model`). */
export function explainGrants(
  model: Model,
  roles: StoredRoles,
  assignment: RoleAssignment,
  permissions: Permissions
): Grants {
  const list = holders(roles, assignment.resourceRoles)
  const grants: Grants = { entities: [], attributes: [], specifics: [] }
  for (const entity of model.entities.values()) {
    const name = entity.name
    const onEntity = (policyEntity: string) => policyEntity === name || policyEntity === '*'
    for (const operation of OPERATIONS) {
      if (!permissions.canDo(name, operation)) continue
      const by = grantsOf(list, (role) =>
        role.entityPolicies.some((p) => onEntity(p.entity) && grantsOperation(p.actions, operation))
      )
      grants.entities.push({ entity: name, operation, roles: by })
    }
    for (const attribute of entity.attributeList) {
      const level = permissions.attribute(name, attribute.name)
      if (level === 0) continue
      // The roles that give the effective (highest) level; MODIFY implies VIEW.
      const by = grantsOf(list, (role) =>
        role.attributePolicies.some(
          (p) =>
            onEntity(p.entity) &&
            (p.attributes.includes(attribute.name) || p.attributes.includes('*')) &&
            (p.action.toUpperCase() === 'MODIFY' ? 2 : 1) >= level
        )
      )
      const label = level === 2 ? 'MODIFY' : 'VIEW'
      grants.attributes.push({ entity: name, attribute: attribute.name, level: label, roles: by })
    }
  }
  for (const name of SPECIFIC_POLICIES) {
    if (name === '*' || !permissions.specific(name)) continue
    const by = grantsOf(
      list,
      (role) =>
        role.specificPolicies.includes(name) ||
        (role.specificPolicies.includes('*') && !EXPLICIT_ONLY_POLICIES.has(name))
    )
    grants.specifics.push({ name, roles: by })
  }
  return grants
}

/**
 * The row-level policies that apply to the subject, one line per entity and action, as the
 * compiler applies them (policies of entities the model no longer has restrict nothing).
 */
export function appliedRowRules(
  model: Model,
  roles: StoredRoles,
  codes: readonly string[],
  caller: CallerValues
): AppliedRowRule[] {
  const out: AppliedRowRule[] = []
  for (const code of [...new Set(codes)].sort()) {
    const role: RowLevelRole | undefined = roles.rowLevel.get(code)
    if (!role) continue
    for (const policy of role.policies) {
      if (!model.entities.has(policy.entity)) continue
      const compiled = compileRowRule(model, policy.entity, policy.filter, caller)
      const actions = policy.type === 'filter' ? ['read'] : policy.actions
      for (const action of actions) {
        out.push({
          entity: policy.entity,
          action: action.toLowerCase(),
          role: code,
          type: policy.type,
          filter: policy.filter,
          invalid: compiled.kind === 'nothing',
          missingValues: missingValues(policy.filter, caller),
        })
      }
    }
  }
  return out
}
