import type { RouteObject } from 'react-router'

const editor = () => import('./components/query_page').then((m) => ({ Component: m.QueryPage }))

/** Routes of this area (pages are loaded lazily). */
export const routes: RouteObject[] = [
  { path: 'queries', lazy: () => import('./components/queries_page').then((m) => ({ Component: m.QueriesPage })) },
  { path: 'queries/new', lazy: editor },
  { path: 'queries/:entity/:name', lazy: editor },
]
