/**
 * A subject an administrator inspects (admin API `GET /admin/api/permissions`, `row-preview`),
 * built without a token exactly as the resource server builds it for one: a user as the
 * subject of a token of that user (token_verifier.ts), a client as the subject of its
 * client-credentials token (roles from its row), `anonymous` as anonymous URLs run. Then what
 * that subject may do: the `GET /rest/permissions` document, which roles grant each permission,
 * and the row-level rules that apply (explain.ts).
 */
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Model } from '#engine/metadata/model'
import { dbBoolean } from '#changes/db_values'
import { ANONYMOUS, type Subject } from './subject.js'
import { compilePermissions, type RoleAssignment } from './compiler.js'
import type { CallerValues } from './row_rules.js'
import { describePermissions } from './describe.js'
import { appliedRowRules, explainGrants, loadRoleCatalogue } from './explain.js'
import type { Permissions } from './policy_index.js'
import type { RowLevelRole } from './roles_store.js'

export type InspectTarget = { user: string; tokenClient?: string } | { client: string }

/** Who is inspected, as the admin API shows it. */
export interface SubjectInfo {
  kind: Subject['kind']
  name: string
  /** An inactive user or client gets no token: the resource server refuses it. */
  active: boolean
  /** Users: the client the token is taken to be issued to (`:current_client_id`). */
  tokenClient?: string
  resourceRoles: string[]
  rowLevelRoles: string[]
}

export interface InspectedSubject {
  subject: Subject
  info: SubjectInfo
  assignment: RoleAssignment
  /** The placeholder values, as permission_cache.ts derives them from the subject. */
  caller: CallerValues
}

const ANONYMOUS_USERNAME = 'anonymous'

const parseList = (v: unknown): string[] =>
  Array.isArray(v) ? v : JSON.parse(String(v ?? '[]') || '[]')

interface Assigned {
  resourceRoles: string[]
  rowLevelRoles: string[]
}

async function userRoles(client: QueryClientContract, userId: string): Promise<Assigned> {
  const codes = async (table: string) =>
    (
      await client.from(table).where('user_id', userId).orderBy('role_code').select('role_code')
    ).map((r: { role_code: string }) => r.role_code)
  return {
    resourceRoles: await codes('mg_user_resource_roles'),
    rowLevelRoles: await codes('mg_user_row_level_roles'),
  }
}

const findClient = (client: QueryClientContract, clientId: string) =>
  client.from('oauth_clients').where('client_id', clientId).first()

/**
 * The subject `target` names, or `{missing}` naming what does not exist. A user's token client
 * is `target.tokenClient` (which must exist) or `defaultTokenClient` (taken as it is).
 */
export async function resolveSubject(
  client: QueryClientContract,
  target: InspectTarget,
  defaultTokenClient: string
): Promise<InspectedSubject | { missing: string }> {
  if ('client' in target) {
    const row = await findClient(client, target.client)
    if (!row) return { missing: `client '${target.client}'` }
    const assignment = {
      resourceRoles: parseList(row.resource_roles),
      rowLevelRoles: parseList(row.row_level_roles),
    }
    const subject: Subject = { kind: 'client', clientId: row.client_id, ...assignment, tokenId: '' }
    return {
      subject,
      info: { kind: 'client', name: row.client_id, active: dbBoolean(row.active), ...assignment },
      assignment,
      caller: { userId: null, username: null, clientId: row.client_id },
    }
  }
  const row = await client.from('users').where('username', target.user).first()
  if (target.user === ANONYMOUS_USERNAME) {
    // Anonymous URLs run as ANONYMOUS, with the roles of the `anonymous` user when it exists.
    const id = row ? String(row.id) : null
    const assignment: Assigned = id
      ? await userRoles(client, id)
      : { resourceRoles: [], rowLevelRoles: [] }
    return {
      subject: ANONYMOUS,
      info: { kind: 'anonymous', name: ANONYMOUS_USERNAME, active: true, ...assignment },
      assignment,
      caller: { userId: id, username: ANONYMOUS_USERNAME, clientId: null },
    }
  }
  if (!row) return { missing: `user '${target.user}'` }
  let tokenClient = defaultTokenClient
  if (target.tokenClient !== undefined) {
    const found = await findClient(client, target.tokenClient)
    if (!found) return { missing: `client '${target.tokenClient}'` }
    tokenClient = found.client_id
  }
  const subject: Subject = {
    kind: 'user',
    userId: row.id,
    username: row.username,
    locale: row.locale ?? null,
    timeZone: row.time_zone ?? null,
    clientId: tokenClient,
    tokenId: '',
  }
  const assignment = await userRoles(client, row.id)
  return {
    subject,
    info: {
      kind: 'user',
      name: row.username,
      active: dbBoolean(row.active),
      tokenClient,
      ...assignment,
    },
    assignment,
    caller: { userId: row.id, username: row.username, clientId: tokenClient },
  }
}

/**
 * What the subject may do: `permissions` is the `GET /rest/permissions` document for it,
 * `grants` which assigned role grants each entry, `rowLevel` the row rules that apply.
 */
export async function inspectPermissions(
  client: QueryClientContract,
  model: Model,
  inspected: InspectedSubject,
  permissions: Permissions
) {
  const roles = await loadRoleCatalogue(client)
  return {
    subject: inspected.info,
    permissions: describePermissions(model, permissions),
    grants: explainGrants(model, roles, inspected.assignment, permissions),
    rowLevel: appliedRowRules(model, roles, inspected.assignment.rowLevelRoles, inspected.caller),
  }
}

/**
 * The subject's permissions as if it held `draft` too (an unsaved, valid row-level role), in
 * place of the stored role with the same code: what saving the role and assigning it would give
 * (the row-level preview of the console's rule editor). Compiled like permissionsFor, not cached.
 */
export async function permissionsWithDraft(
  client: QueryClientContract,
  model: Model,
  rolesVersion: number,
  inspected: InspectedSubject,
  draft: RowLevelRole
): Promise<Permissions> {
  const roles = await loadRoleCatalogue(client)
  roles.rowLevel.set(draft.code, draft)
  const assignment: RoleAssignment = {
    resourceRoles: inspected.assignment.resourceRoles,
    rowLevelRoles: [...new Set([...inspected.assignment.rowLevelRoles, draft.code])],
  }
  return compilePermissions(
    model,
    { version: rolesVersion, ...roles },
    assignment,
    inspected.caller
  )
}
