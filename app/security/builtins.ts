/**
 * The built-in resource roles (app/security/README.md): defined here, never stored, never
 * exported, not definable by a document. `anonymous` grants nothing: an administrator gives the
 * anonymous user what anonymous URLs may do by assigning stored roles to it.
 */
import type { ResourceRole } from './roles_store.js'

const role = (code: string, name: string, scopes: string[], rest: Partial<ResourceRole>) => ({
  code,
  name,
  description: name,
  scopes,
  childRoles: [],
  entityPolicies: [],
  attributePolicies: [],
  specificPolicies: [],
  ...rest,
})

export const BUILT_IN_ROLES: ReadonlyMap<string, ResourceRole> = new Map(
  [
    role('system-full-access', 'Full access', ['API', 'UI'], {
      entityPolicies: [{ entity: '*', actions: ['create', 'read', 'update', 'delete'] }],
      attributePolicies: [{ entity: '*', attributes: ['*'], action: 'MODIFY' }],
      specificPolicies: ['*'],
    }),
    // Reference 9.2: general REST access only; entity access comes from other roles.
    role('rest-minimal', 'REST: minimal access', ['API'], { specificPolicies: ['rest.enabled'] }),
    // The admin API (/admin/api) and the console; `*` does not include it (policy_index.ts).
    role('system-admin', 'Administration', ['API', 'UI'], { specificPolicies: ['admin.api'] }),
    role('anonymous', 'Anonymous: no permissions', ['API', 'UI'], {}),
  ].map((r) => [r.code, r])
)
