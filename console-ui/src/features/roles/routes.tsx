import type { RouteObject } from 'react-router'

const resourceRole = () => import('./components/resource_role_page').then((m) => ({ Component: m.ResourceRolePage }))
const rowLevelRole = () => import('./components/row_level_role_page').then((m) => ({ Component: m.RowLevelRolePage }))

/** Routes of this area (pages are loaded lazily: `lazy: () => import(...)`). */
export const routes: RouteObject[] = [
  { path: 'roles', lazy: () => import('./components/roles_page').then((m) => ({ Component: m.RolesPage })) },
  { path: 'roles/new', lazy: resourceRole },
  { path: 'roles/:code', lazy: resourceRole },
  { path: 'row-level-roles', lazy: () => import('./components/row_level_roles_page').then((m) => ({ Component: m.RowLevelRolesPage })) },
  { path: 'row-level-roles/new', lazy: rowLevelRole },
  { path: 'row-level-roles/:code', lazy: rowLevelRole },
  { path: 'permissions', lazy: () => import('./components/permissions_page').then((m) => ({ Component: m.PermissionsPage })) },
]
