import type { RouteObject } from 'react-router'

/** Routes of this area (pages are loaded lazily). */
export const routes: RouteObject[] = [
  {
    path: 'users',
    lazy: () => import('./components/users_page').then((m) => ({ Component: m.UsersPage })),
  },
  {
    path: 'users/new',
    lazy: () => import('./components/new_user_page').then((m) => ({ Component: m.NewUserPage })),
  },
  {
    path: 'users/:username',
    lazy: () => import('./components/user_page').then((m) => ({ Component: m.UserPage })),
  },
]
