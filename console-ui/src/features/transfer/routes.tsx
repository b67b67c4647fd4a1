import type { RouteObject } from 'react-router'

/** Import/export of the application definition. */
export const routes: RouteObject[] = [
  {
    path: 'import-export',
    lazy: () => import('./components/import_export_page').then((m) => ({ Component: m.ImportExportPage })),
  },
]
