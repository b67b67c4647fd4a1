import type { RouteObject } from 'react-router'

/** Routes of this area (pages are loaded lazily: `lazy: () => import(...)`). */
export const routes: RouteObject[] = [
  {
    path: 'settings',
    lazy: () => import('./components/settings_page').then((m) => ({ Component: m.SettingsPage })),
  },
]
