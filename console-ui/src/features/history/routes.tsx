import type { RouteObject } from 'react-router'

/** History: the schema changelog and the audit trail (`?tab=changelog|audit`). */
export const routes: RouteObject[] = [
  {
    path: 'history',
    lazy: () => import('./components/history_page').then((m) => ({ Component: m.HistoryPage })),
  },
]
