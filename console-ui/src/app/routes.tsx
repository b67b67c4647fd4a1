import { createBrowserRouter, type RouteObject } from 'react-router'
import { CallbackPage, RequireAdmin, SignedOutPage } from '../lib/auth/auth_pages'
import { Shell } from './shell'
import { NotFoundPage } from './not_found'
import { routes as overview } from '../features/status/routes'
import { routes as model } from '../features/model/routes'
import { routes as er } from '../features/er/routes'
import { routes as data } from '../features/data/routes'
import { routes as transfer } from '../features/transfer/routes'
import { routes as history } from '../features/history/routes'
import { routes as roles } from '../features/roles/routes'
import { routes as users } from '../features/users/routes'
import { routes as clients } from '../features/clients/routes'
import { routes as settings } from '../features/settings/routes'
import { routes as translations } from '../features/translations/routes'
import { routes as apidocs } from '../features/apidocs/routes'
import { routes as queries } from '../features/queries/routes'
import { routes as reports } from '../features/reports/routes'

/** Pages inside the shell: each feature contributes its routes (lazily loaded pages). */
const pages: RouteObject[] = [
  ...overview,
  ...model,
  ...er,
  ...data,
  ...transfer,
  ...history,
  ...roles,
  ...users,
  ...clients,
  ...settings,
  ...translations,
  ...apidocs,
  ...queries,
  ...reports,
  { path: '*', element: <NotFoundPage /> },
]

export const routeTree: RouteObject[] = [
  { path: '/callback', element: <CallbackPage /> },
  { path: '/signed-out', element: <SignedOutPage /> },
  {
    element: (
      <RequireAdmin>
        <Shell />
      </RequireAdmin>
    ),
    children: pages,
  },
]

export const router = createBrowserRouter(routeTree, { basename: '/console' })
