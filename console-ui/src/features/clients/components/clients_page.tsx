import { Link, useNavigate } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { RoleChips } from '../../users/components/user_badges'
import { ADMIN_ROLE } from '../../users/api/role_options'
import { useClients, type Client } from '../api/clients'
import '../../users/components/users.css'
import './clients.css'

/** OAuth clients: type, grants, who manages them, whether active, their roles. */
export function ClientsPage() {
  const clients = useClients()
  const navigate = useNavigate()
  return (
    <Page
      title="OAuth clients"
      description="Applications that get tokens from /oauth2/token. Secrets are stored as digests and shown once."
      actions={
        <Link to="/clients/new" className="btn btn--primary" data-testid="client-new">
          + New client
        </Link>
      }
      testId="clients-page"
    >
      {clients.error ? (
        <ErrorMessage error={clients.error} />
      ) : !clients.data ? (
        <Loading />
      ) : clients.data.length === 0 ? (
        <EmptyState title="No OAuth clients">
          <Link to="/clients/new">Register the first client</Link>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="clients-table">
            <thead>
              <tr>
                <th scope="col">Client id</th>
                <th scope="col">Type</th>
                <th scope="col">Grant types</th>
                <th scope="col">Managed by</th>
                <th scope="col">Status</th>
                <th scope="col">Roles</th>
              </tr>
            </thead>
            <tbody>
              {clients.data.map((client) => (
                <ClientRow
                  key={client.clientId}
                  client={client}
                  onOpen={() => navigate(`/clients/${encodeURIComponent(client.clientId)}`)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}

export function ClientType({ client }: { client: Pick<Client, 'public'> }) {
  return client.public ? (
    <span className="badge badge--outline" data-testid="client-type">
      Public · PKCE
    </span>
  ) : (
    <span className="badge badge--outline" data-testid="client-type">
      Confidential
    </span>
  )
}

export function ManagedBy({ client }: { client: Pick<Client, 'readOnly' | 'configName'> }) {
  return client.readOnly ? (
    <span
      className="badge badge--warn"
      title={`svc.authserver.client.${client.configName}.* properties`}
      data-testid="client-readonly"
    >
      Configuration · read-only
    </span>
  ) : (
    <span className="muted">Console / import</span>
  )
}

export function ClientStatus({ client }: { client: Pick<Client, 'active'> }) {
  return client.active ? (
    <span className="badge badge--ok" data-testid="client-status">
      Active
    </span>
  ) : (
    <span className="badge badge--bad" data-testid="client-status">
      Inactive
    </span>
  )
}

function ClientRow({ client, onOpen }: { client: Client; onOpen: () => void }) {
  return (
    <tr
      className="users__row"
      onClick={(e) => !(e.target as HTMLElement).closest('a') && onOpen()}
      data-testid="client-row"
      data-client-id={client.clientId}
    >
      <td>
        <Link
          to={`/clients/${encodeURIComponent(client.clientId)}`}
          className="users__name mono"
          data-testid="client-link"
        >
          {client.clientId}
        </Link>
        {client.configName && <div className="muted users__sub">config: {client.configName}</div>}
      </td>
      <td>
        <ClientType client={client} />
      </td>
      <td>
        <span className="role-chips">
          {client.grantTypes.map((g) => (
            <span key={g} className="badge mono">
              {g}
            </span>
          ))}
        </span>
      </td>
      <td>
        <ManagedBy client={client} />
      </td>
      <td>
        <ClientStatus client={client} />
      </td>
      <td>
        <RoleChips
          codes={[...client.resourceRoles, ...client.rowLevelRoles]}
          emphasize={[ADMIN_ROLE]}
        />
      </td>
    </tr>
  )
}
