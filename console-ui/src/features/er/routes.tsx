import type { RouteObject } from 'react-router'
import { prefetchEntities } from './api/entities'

/** The ER diagram (React Flow and dagre are loaded only with this page; the model meanwhile). */
export const routes: RouteObject[] = [
  {
    path: 'er',
    lazy: () => {
      prefetchEntities()
      return import('./components/er_page').then((m) => ({ Component: m.ErPage }))
    },
  },
]
