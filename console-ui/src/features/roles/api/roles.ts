/*
 * The admin API of roles, users/clients (for pickers), effective permissions and the row-level
 * preview (README "Admin API": roles, permissions, row-preview). Server state only through
 * TanStack Query; changes go through usePlannedChange in the pages.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { adminGet, adminGetVersioned } from '../../../lib/admin'
import { api } from '../../../lib/api'
import { rolesKeys } from './keys'

export type Operation = 'create' | 'read' | 'update' | 'delete'
export type Level = 'VIEW' | 'MODIFY'
export const OPERATIONS: readonly Operation[] = ['create', 'read', 'update', 'delete']

export interface EntityPolicy {
  entity: string
  actions: string[]
}

export interface AttributePolicy {
  entity: string
  attributes: string[]
  action: string
}

export interface ResourceRole {
  code: string
  name: string
  description: string
  scopes: string[]
  childRoles: string[]
  entityPolicies: EntityPolicy[]
  attributePolicies: AttributePolicy[]
  specificPolicies: string[]
  builtIn?: boolean
  /** Shown roles: the usernames holding it; lists: how many. */
  users?: string[]
  userCount?: number
}

export interface RowLevelPolicy {
  entity: string
  type: 'filter' | 'predicate'
  actions: string[]
  filter: unknown
}

export interface RowLevelRole {
  code: string
  name: string
  description: string
  policies: RowLevelPolicy[]
  builtIn?: boolean
  users?: string[]
  userCount?: number
}

export interface UserSummary {
  username: string
  firstName?: string | null
  lastName?: string | null
  email?: string | null
  active: boolean
  resourceRoles: string[]
  rowLevelRoles: string[]
  builtIn?: boolean
}

export interface ClientSummary {
  clientId: string
  resourceRoles?: string[]
  rowLevelRoles?: string[]
  active: boolean
  readOnly?: boolean
  public?: boolean
  grantTypes?: string[]
}

/**
 * Specific policies the server knows (app/security/roles_store.ts SPECIFIC_POLICIES): a role
 * may name only these. `*` grants all but `admin.api`, which is granted only by name.
 */
export const SPECIFIC_POLICIES: { name: string; label: string; hint: string }[] = [
  { name: 'rest.enabled', label: 'REST API', hint: 'May call the generic REST API at all (/rest/entities, metadata, files…)' },
  { name: 'rest.fileUpload.enabled', label: 'File upload', hint: 'May upload files (POST /rest/files)' },
  { name: 'rest.fileDownload.enabled', label: 'File download', hint: 'May download any file (otherwise only files of rows it can read)' },
  { name: 'admin.api', label: 'Administration', hint: 'The admin API and this console; never granted by *' },
  { name: '*', label: 'All (*)', hint: 'Every specific policy except admin.api' },
]

export type Subject = { kind: 'user'; name: string } | { kind: 'client'; name: string }

export interface RoleGrant {
  role: string
  via: string[]
}

export interface AppliedRowRule {
  entity: string
  action: string
  role: string
  type: string
  filter: unknown
  invalid: boolean
  missingValues: string[]
}

export interface EffectivePermissions {
  subject: {
    kind: 'user' | 'client' | 'anonymous'
    name: string
    active: boolean
    tokenClient?: string
    resourceRoles: string[]
    rowLevelRoles: string[]
  }
  permissions: { authorities: string[] }
  grants: {
    entities: { entity: string; operation: Operation; roles: RoleGrant[] }[]
    attributes: { entity: string; attribute: string; level: Level; roles: RoleGrant[] }[]
    specifics: { name: string; roles: RoleGrant[] }[]
  }
  rowLevel: AppliedRowRule[]
}

export interface RowPreview {
  entity: string
  canRead: boolean
  reason?: string
  sql: { text: string; bindings: unknown[] } | null
  count: number
  rows: Record<string, unknown>[]
}

export const roleKindPath = { resource: 'resource-roles', rowLevel: 'row-level-roles' } as const

export function useResourceRoles() {
  return useQuery({
    queryKey: rolesKeys.resourceList(),
    queryFn: ({ signal }) => adminGet<{ roles: ResourceRole[] }>('resource-roles', signal).then((r) => r.roles),
  })
}

export function useRowLevelRoles() {
  return useQuery({
    queryKey: rolesKeys.rowLevelList(),
    queryFn: ({ signal }) => adminGet<{ roles: RowLevelRole[] }>('row-level-roles', signal).then((r) => r.roles),
  })
}

/** One role with the definition version it was read at (the If-Match of its editor). */
export function useResourceRole(code: string | undefined) {
  return useQuery({
    queryKey: rolesKeys.resource(code ?? ''),
    queryFn: ({ signal }) => adminGetVersioned<ResourceRole>(`resource-roles/${encodeURIComponent(code!)}`, signal),
    enabled: code !== undefined,
  })
}

export function useRowLevelRole(code: string | undefined) {
  return useQuery({
    queryKey: rolesKeys.rowLevel(code ?? ''),
    queryFn: ({ signal }) => adminGetVersioned<RowLevelRole>(`row-level-roles/${encodeURIComponent(code!)}`, signal),
    enabled: code !== undefined,
  })
}

/** Users matching `q` (first 50), for pickers. */
export function useUserSearch(q: string, enabled = true) {
  return useQuery({
    queryKey: rolesKeys.users(q),
    queryFn: ({ signal }) =>
      adminGet<{ total: number; users: UserSummary[] }>(`users?q=${encodeURIComponent(q)}&limit=50`, signal),
    placeholderData: keepPreviousData,
    enabled,
  })
}

export function useClients(enabled = true) {
  return useQuery({
    queryKey: rolesKeys.clients(),
    queryFn: ({ signal }) => adminGet<ClientSummary[]>('clients', signal),
    enabled,
  })
}

export const subjectQuery = (s: Subject) => `${s.kind}=${encodeURIComponent(s.name)}`

export function useEffectivePermissions(subject: Subject | null) {
  return useQuery({
    queryKey: rolesKeys.permissions(subject?.kind ?? '', subject?.name ?? ''),
    queryFn: ({ signal }) => adminGet<EffectivePermissions>(`permissions?${subjectQuery(subject!)}`, signal),
    enabled: subject !== null,
  })
}

/** How many clients hold each role code (resource or row-level). */
export function clientCounts(clients: ClientSummary[] | undefined, kind: 'resource' | 'rowLevel') {
  const counts = new Map<string, string[]>()
  for (const client of clients ?? []) {
    const codes = (kind === 'resource' ? client.resourceRoles : client.rowLevelRoles) ?? []
    for (const code of codes) counts.set(code, [...(counts.get(code) ?? []), client.clientId])
  }
  return counts
}

export interface PreviewRequest {
  entity: string
  subject: Subject
  limit: number
  /** An unsaved row-level role: the preview runs as if the subject held it. */
  rowLevelRole?: unknown
}

/** POST /admin/api/row-preview: what the subject reads of the entity (with the draft role). */
export function fetchPreview(request: PreviewRequest, signal?: AbortSignal) {
  const body = {
    entity: request.entity,
    [request.subject.kind]: request.subject.name,
    limit: request.limit,
    ...(request.rowLevelRole === undefined ? {} : { rowLevelRole: request.rowLevelRole }),
  }
  return api.send<RowPreview>('/admin/api/row-preview', { method: 'POST', body, signal }).then((r) => r.data)
}

export function useRowPreview(request: PreviewRequest | null) {
  return useQuery({
    queryKey: rolesKeys.preview(request),
    queryFn: ({ signal }) => fetchPreview(request!, signal),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  })
}
