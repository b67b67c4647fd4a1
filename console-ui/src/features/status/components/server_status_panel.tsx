import { Panel } from '../../../components/ui/panel'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { useHealth, type Health } from '../api/health'

const dialectNames: Record<string, string> = { sqlite: 'SQLite', pg: 'PostgreSQL' }

/** "Server status" panel: live GET /health. */
export function ServerStatusPanel() {
  const { data, error, isPending, isFetching, refetch } = useHealth()
  return (
    <ServerStatusView
      data={data}
      error={error}
      isPending={isPending}
      isFetching={isFetching}
      onRetry={() => void refetch()}
    />
  )
}

interface ServerStatusViewProps {
  data: Health | undefined
  error: unknown
  isPending: boolean
  isFetching?: boolean
  onRetry?: () => void
}

/**
 * Stateless rendering, separate from the query so it can be tested without a server.
 * Elements with data-testid hold the raw values (e.g. "ok", "sqlite") for browser tests.
 */
export function ServerStatusView({ data, error, isPending, isFetching, onRetry }: ServerStatusViewProps) {
  return (
    <Panel title="Server status" testId="server-status-panel">
      {data ? (
        <dl className="facts">
          <dt>Status</dt>
          <dd>
            <span
              className={`badge ${data.status === 'ok' ? 'badge--ok' : 'badge--bad'}`}
              data-testid="server-status"
            >
              {data.status}
            </span>
          </dd>
          <dt>Version</dt>
          <dd data-testid="server-version">{data.version}</dd>
          <dt>Database</dt>
          <dd>
            <span data-testid="database">{data.database}</span>
            {dialectNames[data.database] && (
              <span className="muted"> ({dialectNames[data.database]})</span>
            )}
          </dd>
          <dt>Model version</dt>
          <dd>
            <span data-testid="model-version">{data.modelVersion}</span>
            <span className="muted mono" title={data.modelChecksum} data-testid="model-checksum">
              {' '}
              {data.modelChecksum.slice(0, 12)}
            </span>
          </dd>
        </dl>
      ) : isPending && !error ? (
        <Loading label="Contacting the server…" />
      ) : null}
      {error != null && (
        <>
          <ErrorMessage error={error} testId="server-error" />
          {onRetry && (
            <button type="button" className="btn" onClick={onRetry} disabled={isFetching}>
              {isFetching ? 'Retrying…' : 'Retry'}
            </button>
          )}
        </>
      )}
    </Panel>
  )
}
