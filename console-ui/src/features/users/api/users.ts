/*
 * Users over the admin API (README "Admin API", users): search with paging, one user, create,
 * change (PATCH: fields left out stay), activate/deactivate, password (set or generated, shown
 * once), roles. Every change answers with the change result and the user as it is now.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { adminChange, adminGet, adminGetVersioned, type ChangeResult } from '../../../lib/admin'
import { usersKeys } from './keys'

export interface User {
  username: string
  firstName: string | null
  lastName: string | null
  email: string | null
  locale: string | null
  timeZone: string | null
  active: boolean
  resourceRoles: string[]
  rowLevelRoles: string[]
  builtIn: boolean
  /** Only on the built-in `anonymous` user. */
  explanation?: string
  createdAt: string | null
  updatedAt: string | null
}

export interface UserPage {
  total: number
  offset: number
  limit: number
  users: User[]
}

/** Profile fields of a form (null clears a field on PATCH). */
export interface UserProfile {
  firstName: string | null
  lastName: string | null
  email: string | null
  locale: string | null
  timeZone: string | null
}

export interface UserChange extends ChangeResult {
  user?: User
  /** A generated password: in this one answer only. */
  password?: string
}

export const ANONYMOUS = 'anonymous'
const path = (username: string) => `users/${encodeURIComponent(username)}`

export function useUsers(q: string, offset: number, limit: number) {
  return useQuery({
    queryKey: usersKeys.list(q, offset, limit),
    queryFn: ({ signal }) =>
      adminGet<UserPage>(
        `users?${new URLSearchParams({ q, offset: String(offset), limit: String(limit) })}`,
        signal
      ),
    placeholderData: keepPreviousData,
  })
}

export function useUser(username: string) {
  return useQuery({
    queryKey: usersKeys.user(username),
    queryFn: ({ signal }) => adminGetVersioned<User>(path(username), signal),
  })
}

export const createUser = (body: Record<string, unknown>) =>
  adminChange<UserChange>('POST', 'users', body)

export const patchUser = (username: string, body: Record<string, unknown>, ifMatch?: number) =>
  adminChange<UserChange>('PATCH', path(username), body, { ifMatch })

export const setActive = (username: string, active: boolean) =>
  adminChange<UserChange>('POST', `${path(username)}/${active ? 'activate' : 'deactivate'}`)

/** Sets `password`, or generates one (answered once as `password`) when it is undefined. */
export const setPassword = (username: string, password?: string) =>
  adminChange<UserChange>(
    'POST',
    `${path(username)}/password`,
    password === undefined ? {} : { password }
  )

export const putRoles = (
  username: string,
  roles: { resourceRoles?: string[]; rowLevelRoles?: string[] },
  ifMatch?: number
) => adminChange<UserChange>('PUT', `${path(username)}/roles`, roles, { ifMatch })

export const displayName = (user: Pick<User, 'firstName' | 'lastName'>) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ')
