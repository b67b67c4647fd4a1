import type { RouteObject } from 'react-router'

/** Routes of this area (pages are loaded lazily: `lazy: () => import(...)`). */
export const routes: RouteObject[] = [
  {
    path: 'translations',
    lazy: () => import('./components/translations_page').then((m) => ({ Component: m.TranslationsPage })),
  },
]
