import type { RouteObject } from 'react-router'

const editor = () => import('./components/report_page').then((m) => ({ Component: m.ReportPage }))

/** Routes of this area (pages are loaded lazily). */
export const routes: RouteObject[] = [
  { path: 'reports', lazy: () => import('./components/reports_page').then((m) => ({ Component: m.ReportsPage })) },
  { path: 'reports/history', lazy: () => import('./components/history_page').then((m) => ({ Component: m.HistoryPage })) },
  { path: 'reports/new', lazy: editor },
  { path: 'reports/:id', lazy: editor },
]
