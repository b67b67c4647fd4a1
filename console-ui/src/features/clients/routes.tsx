import type { RouteObject } from 'react-router'

/** Routes of this area (pages are loaded lazily). */
export const routes: RouteObject[] = [
  {
    path: 'clients',
    lazy: () => import('./components/clients_page').then((m) => ({ Component: m.ClientsPage })),
  },
  {
    path: 'clients/new',
    lazy: () =>
      import('./components/new_client_page').then((m) => ({ Component: m.NewClientPage })),
  },
  {
    path: 'clients/:clientId',
    lazy: () => import('./components/client_page').then((m) => ({ Component: m.ClientPage })),
  },
]
