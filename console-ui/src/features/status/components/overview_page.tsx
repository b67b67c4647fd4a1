import { Link } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { Page } from '../../../components/ui/page'
import { ServerStatusPanel } from './server_status_panel'
import { nav } from '../../../app/nav'
import { adminGet } from '../../../lib/admin'

interface Counts {
  entities: number
  enums: number
  users: number
  roles: number
  clients: number
}

async function loadCounts(signal: AbortSignal): Promise<Counts> {
  const [entities, enums, users, roles, clients] = await Promise.all([
    adminGet<unknown[]>('entities', signal),
    adminGet<unknown[]>('enums', signal),
    adminGet<{ total: number }>('users?limit=1', signal),
    adminGet<{ roles: unknown[] }>('resource-roles', signal),
    adminGet<unknown[]>('clients', signal),
  ])
  return {
    entities: entities.length,
    enums: enums.length,
    users: users.total,
    roles: roles.roles.length,
    clients: clients.length,
  }
}

const tiles: { key: keyof Counts; label: string; to: string }[] = [
  { key: 'entities', label: 'Entities', to: '/model' },
  { key: 'enums', label: 'Enums', to: '/model/enums' },
  { key: 'users', label: 'Users', to: '/users' },
  { key: 'roles', label: 'Resource roles', to: '/roles' },
  { key: 'clients', label: 'OAuth clients', to: '/clients' },
]

/** The first page: server status, what the application holds, where to go next. */
export function OverviewPage() {
  const counts = useQuery({ queryKey: ['admin', 'overview-counts'], queryFn: ({ signal }) => loadCounts(signal) })
  return (
    <Page title="Overview" description="The application this server exposes, and the server itself.">
      <div className="tiles" data-testid="overview-counts">
        {tiles.map((tile) => (
          <Link key={tile.key} to={tile.to} className="tile">
            <span className="tile__value" data-testid={`count-${tile.key}`}>
              {counts.data ? counts.data[tile.key] : '–'}
            </span>
            <span className="tile__label">{tile.label}</span>
          </Link>
        ))}
      </div>
      <div className="grid-2">
        <ServerStatusPanel />
        <section className="panel">
          <h2 className="panel__title">Where to go</h2>
          <ul className="link-list">
            {nav
              .filter((entry) => entry.to !== '/')
              .map((entry) => (
                <li key={entry.to}>
                  <Link to={entry.to}>{entry.label}</Link> <span className="muted">— {entry.hint}</span>
                </li>
              ))}
          </ul>
        </section>
      </div>
    </Page>
  )
}
