/** Query keys of the users area (under 'admin': every admin change invalidates them). */
export const usersKeys = {
  all: ['admin', 'users'] as const,
  list: (q: string, offset: number, limit: number) =>
    [...usersKeys.all, 'list', q, offset, limit] as const,
  user: (username: string) => [...usersKeys.all, 'user', username] as const,
  roleOptions: (kind: 'resource' | 'row-level') =>
    [...usersKeys.all, 'role-options', kind] as const,
  anonymousPatterns: () => [...usersKeys.all, 'anonymous-patterns'] as const,
}
