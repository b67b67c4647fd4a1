import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { ApiError } from '../../../lib/api'
import { ShownOnce } from '../../users/components/shown_once'
import { useClient } from '../api/clients'
import { ClientStatus, ClientType, ManagedBy } from './clients_page'
import { ClientEditor } from './client_editor'
import { ClientActions } from './client_actions'
import { TryItPanel } from './try_it_panel'
import '../../users/components/users.css'
import './clients.css'

/** One client: its settings (PUT), secret, tokens, delete, and a "try it" panel. */
export function ClientPage() {
  const clientId = useParams().clientId ?? ''
  const query = useClient(clientId)
  // A secret answered once (rotation) lives here, above the editor that reloads after it.
  const [secret, setSecret] = useState<string | null>(null)

  if (query.error)
    return (
      <Page title={clientId} description={<Link to="/clients">← All clients</Link>}>
        <ErrorMessage error={query.error} testId="client-error" />
        {query.error instanceof ApiError && query.error.status === 404 && (
          <p>
            No client has the id <span className="mono">{clientId}</span>.{' '}
            <Link to="/clients/new">Register one</Link>?
          </p>
        )}
      </Page>
    )
  if (!query.data) return <Loading />
  const { data: client, version } = query.data

  return (
    <Page
      title={client.clientId}
      description={<Link to="/clients">← All clients</Link>}
      actions={
        <span className="role-chips">
          <ClientType client={client} />
          <ManagedBy client={client} />
          <ClientStatus client={client} />
        </span>
      }
      testId="client-page"
    >
      {client.readOnly && (
        <p className="notice" data-testid="client-readonly-notice">
          <strong>Managed by configuration.</strong> This client comes from the{' '}
          <span className="mono">svc.authserver.client.{client.configName}.*</span> properties
          (file, environment or <Link to="/settings">Settings</Link>) and is read-only here: change
          those properties instead.
        </p>
      )}
      {!client.active && (
        <p className="notice">
          This client is <strong>inactive</strong>: it gets no tokens and its tokens are refused.
        </p>
      )}
      {secret && (
        <ShownOnce
          title={`New secret of ${client.clientId}`}
          label="Client secret"
          value={secret}
          testId="client-secret"
          onDone={() => setSecret(null)}
        >
          <p className="muted">The old secret and every token issued with it stopped working.</p>
        </ShownOnce>
      )}
      <div className="user-layout">
        <ClientEditor
          key={JSON.stringify(client)}
          client={client}
          version={version}
          onSecret={setSecret}
          onReload={() => query.refetch()}
        />
        <aside className="user-layout__side">
          <ClientActions client={client} onSecret={setSecret} />
          <TryItPanel key={secret ?? ''} client={client} secret={secret ?? undefined} />
        </aside>
      </div>
    </Page>
  )
}
