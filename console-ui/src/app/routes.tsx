import type { ReactNode } from 'react'
import { ServerStatusPanel } from '../features/status/components/server_status_panel'

export interface RouteDef {
  path: string
  title: string
  render: () => ReactNode
}

/** Pages reachable from the navigation. A feature adds its page here with one line. */
export const routes: RouteDef[] = [
  {
    path: '/',
    title: 'Overview',
    render: () => <ServerStatusPanel />,
  },
]

/** Navigation placeholders for areas that do not exist yet (shown disabled). */
export const upcomingAreas: string[] = [
  'Data model',
  'Users & roles',
  'OAuth clients',
  'Reports',
  'Translations',
]
