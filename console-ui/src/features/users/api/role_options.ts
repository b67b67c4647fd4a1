/*
 * The roles an admin can assign (GET /admin/api/resource-roles and /row-level-roles), for the
 * role pickers of users and OAuth clients.
 */
import { useQuery } from '@tanstack/react-query'
import { adminGet } from '../../../lib/admin'
import { usersKeys } from './keys'

export interface RoleOption {
  code: string
  name: string
  description?: string
  builtIn?: boolean
}

export type RoleKind = 'resource' | 'row-level'

export function useRoleOptions(kind: RoleKind) {
  return useQuery({
    queryKey: usersKeys.roleOptions(kind),
    queryFn: async ({ signal }) =>
      (await adminGet<{ roles: RoleOption[] }>(`${kind}-roles`, signal)).roles.map((r) => ({
        code: r.code,
        name: r.name,
        description: r.description,
        builtIn: r.builtIn,
      })),
    staleTime: 30_000,
  })
}

/** The role that opens the console and the admin API (policy admin.api). */
export const ADMIN_ROLE = 'system-admin'
