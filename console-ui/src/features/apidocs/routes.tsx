import type { RouteObject } from 'react-router'

/** Routes of this area (the page is loaded lazily: `lazy: () => import(...)`). */
export const routes: RouteObject[] = [
  {
    path: 'api-docs',
    lazy: () => import('./components/api_docs_page').then((m) => ({ Component: m.ApiDocsPage })),
  },
]
