/**
 * Storage of resource roles, row-level roles and their assignment to users (tables of migration
 * 1732500000000). Storage only: nothing here grants or refuses anything yet (app/security/
 * README.md). Roles are read and written whole, in the normalized form the definition document
 * exports, so that comparing a stored role with a document entry tells whether importing it
 * changes anything.
 */
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { bumpVersion } from '#changes/versions'
import { BUILT_IN_ROLES } from './builtins.js'

export const ENTITY_ACTIONS = ['create', 'read', 'update', 'delete'] as const
export const ATTRIBUTE_ACTIONS = ['VIEW', 'MODIFY'] as const
export const ROLE_SCOPES = ['API', 'UI'] as const
export const ROW_LEVEL_TYPES = ['filter', 'predicate'] as const
/** Specific policies this server knows; later capabilities add theirs here. */
export const SPECIFIC_POLICIES = [
  '*',
  'rest.enabled',
  'rest.fileUpload.enabled',
  'rest.fileDownload.enabled',
  'admin.api',
  'reports.rest.enabled',
  'reports.sql.enabled',
]

/**
 * Built-in resource roles: defined by the server, never stored, never exported, and not
 * definable by a document. `anonymous` grants nothing.
 */
export const BUILT_IN_RESOURCE_ROLES: readonly string[] = [...BUILT_IN_ROLES.keys()]

export interface ResourceRole {
  code: string
  name: string
  description: string
  scopes: string[]
  childRoles: string[]
  entityPolicies: { entity: string; actions: string[] }[]
  attributePolicies: { entity: string; attributes: string[]; action: string }[]
  specificPolicies: string[]
}

export interface RowLevelPolicy {
  entity: string
  type: string
  actions: string[]
  filter: unknown
}

export interface RowLevelRole {
  code: string
  name: string
  description: string
  policies: RowLevelPolicy[]
}

/** Role codes of one user, by kind. */
export interface Assignment {
  resourceRoles: string[]
  rowLevelRoles: string[]
}

const list = (v: string): any[] => JSON.parse(v)

function grouped<T>(rows: any[], map: (row: any) => T): Map<number, T[]> {
  const out = new Map<number, T[]>()
  for (const row of rows) {
    if (!out.has(row.role_id)) out.set(row.role_id, [])
    out.get(row.role_id)!.push(map(row))
  }
  return out
}

const byRolePosition = (client: QueryClientContract, table: string) =>
  client.from(table).select('*').orderBy('role_id').orderBy('position')

export async function loadResourceRoles(client: QueryClientContract): Promise<ResourceRole[]> {
  const roles = await client.from('mg_resource_roles').select('*').orderBy('code')
  const entity = grouped(await byRolePosition(client, 'mg_resource_entity_policies'), (r) => ({
    entity: r.entity as string,
    actions: list(r.actions),
  }))
  const attribute = grouped(
    await byRolePosition(client, 'mg_resource_attribute_policies'),
    (r) => ({
      entity: r.entity as string,
      attributes: list(r.attributes),
      action: r.action as string,
    })
  )
  const specific = grouped(
    await byRolePosition(client, 'mg_resource_specific_policies'),
    (r) => r.resource as string
  )
  return roles.map((r) => ({
    code: r.code,
    name: r.name,
    description: r.description,
    scopes: list(r.scopes),
    childRoles: list(r.child_roles),
    entityPolicies: entity.get(r.id) ?? [],
    attributePolicies: attribute.get(r.id) ?? [],
    specificPolicies: specific.get(r.id) ?? [],
  }))
}

export async function loadRowLevelRoles(client: QueryClientContract): Promise<RowLevelRole[]> {
  const roles = await client.from('mg_row_level_roles').select('*').orderBy('code')
  const policies = grouped(await byRolePosition(client, 'mg_row_level_policies'), (r) => ({
    entity: r.entity as string,
    type: r.type as string,
    actions: list(r.actions),
    filter: JSON.parse(r.filter),
  }))
  return roles.map((r) => ({
    code: r.code,
    name: r.name,
    description: r.description,
    policies: policies.get(r.id) ?? [],
  }))
}

/** Every user's role codes by user id (users without assignments are absent). */
export async function loadAssignments(
  client: QueryClientContract
): Promise<Map<string, Assignment>> {
  const out = new Map<string, Assignment>()
  const get = (id: string) => {
    if (!out.has(id)) out.set(id, { resourceRoles: [], rowLevelRoles: [] })
    return out.get(id)!
  }
  const kinds = [
    ['mg_user_resource_roles', 'resourceRoles'],
    ['mg_user_row_level_roles', 'rowLevelRoles'],
  ] as const
  for (const [table, field] of kinds) {
    const rows = await client.from(table).select('*').orderBy('user_id').orderBy('role_code')
    for (const row of rows) get(row.user_id)[field].push(row.role_code)
  }
  return out
}

/** Bumps the 'roles' version: every instance drops what it compiled from roles. */
export function rolesChanged(trx: TransactionClientContract) {
  return bumpVersion(trx, 'roles')
}

const now = () => new Date()

/** Creates or replaces a resource role with its policies (inside `trx`). */
export async function saveResourceRole(trx: TransactionClientContract, role: ResourceRole) {
  const fields = {
    name: role.name,
    description: role.description,
    scopes: JSON.stringify(role.scopes),
    child_roles: JSON.stringify(role.childRoles),
    updated_at: now(),
  }
  const id = await upsertRole(trx, 'mg_resource_roles', role.code, fields)
  for (const table of [
    'mg_resource_entity_policies',
    'mg_resource_attribute_policies',
    'mg_resource_specific_policies',
  ])
    await trx.from(table).where('role_id', id).delete()
  const rows = (items: object[], table: string) =>
    items.length
      ? trx.table(table).multiInsert(items.map((x, position) => ({ role_id: id, position, ...x })))
      : null
  await rows(
    role.entityPolicies.map((p) => ({ entity: p.entity, actions: JSON.stringify(p.actions) })),
    'mg_resource_entity_policies'
  )
  await rows(
    role.attributePolicies.map((p) => ({
      entity: p.entity,
      attributes: JSON.stringify(p.attributes),
      action: p.action,
    })),
    'mg_resource_attribute_policies'
  )
  await rows(
    role.specificPolicies.map((resource) => ({ resource })),
    'mg_resource_specific_policies'
  )
}

/** Creates or replaces a row-level role with its policies (inside `trx`). */
export async function saveRowLevelRole(trx: TransactionClientContract, role: RowLevelRole) {
  const fields = { name: role.name, description: role.description, updated_at: now() }
  const id = await upsertRole(trx, 'mg_row_level_roles', role.code, fields)
  await trx.from('mg_row_level_policies').where('role_id', id).delete()
  if (role.policies.length)
    await trx.table('mg_row_level_policies').multiInsert(
      role.policies.map((p, position) => ({
        role_id: id,
        position,
        entity: p.entity,
        type: p.type,
        actions: JSON.stringify(p.actions),
        filter: JSON.stringify(p.filter),
      }))
    )
}

async function upsertRole(
  trx: TransactionClientContract,
  table: string,
  code: string,
  fields: Record<string, unknown>
): Promise<number> {
  const row = await trx.from(table).where('code', code).select('id').first()
  if (row) {
    await trx.from(table).where('id', row.id).update(fields)
    return Number(row.id)
  }
  await trx.table(table).insert({ code, ...fields })
  const created = await trx.from(table).where('code', code).select('id').first()
  return Number(created.id)
}

/**
 * Deletes roles by code (their policies cascade) and the users' assignments of those codes.
 * `kind` 'resource' or 'rowLevel'.
 */
export async function deleteRoles(
  trx: TransactionClientContract,
  kind: 'resource' | 'rowLevel',
  codes: string[]
) {
  if (!codes.length) return
  const [roles, policies, assignments] =
    kind === 'resource'
      ? ['mg_resource_roles', null, 'mg_user_resource_roles']
      : ['mg_row_level_roles', 'mg_row_level_policies', 'mg_user_row_level_roles']
  const ids = (await trx.from(roles).whereIn('code', codes).select('id')).map((r) => r.id)
  // Explicit deletes: SQLite enforces ON DELETE CASCADE only with foreign_keys on.
  if (policies) await trx.from(policies).whereIn('role_id', ids).delete()
  else
    for (const table of [
      'mg_resource_entity_policies',
      'mg_resource_attribute_policies',
      'mg_resource_specific_policies',
    ])
      await trx.from(table).whereIn('role_id', ids).delete()
  await trx.from(roles).whereIn('id', ids).delete()
  await trx.from(assignments).whereIn('role_code', codes).delete()
}

/** Replaces one user's role codes of one kind (inside `trx`). */
export async function setUserRoles(
  trx: TransactionClientContract,
  userId: string,
  kind: keyof Assignment,
  codes: string[]
) {
  const table = kind === 'resourceRoles' ? 'mg_user_resource_roles' : 'mg_user_row_level_roles'
  await trx.from(table).where('user_id', userId).delete()
  const unique = [...new Set(codes)]
  if (unique.length)
    await trx.table(table).multiInsert(unique.map((role_code) => ({ user_id: userId, role_code })))
}
