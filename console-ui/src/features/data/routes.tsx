import type { RouteObject } from 'react-router'

/** Routes of this area (pages are loaded lazily: `lazy: () => import(...)`). */
export const routes: RouteObject[] = [
  {
    path: 'data',
    lazy: () =>
      import('./components/entity_picker_page').then((m) => ({ Component: m.EntityPickerPage })),
  },
  {
    path: 'data/:entity',
    lazy: () => import('./components/table_page').then((m) => ({ Component: m.TablePage })),
  },
  {
    path: 'data/:entity/new',
    lazy: () => import('./components/row_page').then((m) => ({ Component: m.RowPage })),
  },
  {
    path: 'data/:entity/:id',
    lazy: () => import('./components/row_page').then((m) => ({ Component: m.RowPage })),
  },
]
