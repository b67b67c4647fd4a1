/** Query keys of the roles area (all under 'admin': every admin change invalidates them). */
export const rolesKeys = {
  all: ['admin', 'roles'] as const,
  resourceList: () => [...rolesKeys.all, 'resource'] as const,
  resource: (code: string) => [...rolesKeys.all, 'resource', code] as const,
  rowLevelList: () => [...rolesKeys.all, 'row-level'] as const,
  rowLevel: (code: string) => [...rolesKeys.all, 'row-level', code] as const,
  users: (q: string) => [...rolesKeys.all, 'users', q] as const,
  clients: () => [...rolesKeys.all, 'clients'] as const,
  permissions: (kind: string, name: string) => [...rolesKeys.all, 'permissions', kind, name] as const,
  preview: (body: unknown) => [...rolesKeys.all, 'preview', body] as const,
}
