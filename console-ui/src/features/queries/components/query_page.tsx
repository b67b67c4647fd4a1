import { Link, useNavigate, useParams } from 'react-router'
import { Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { adminChange } from '../../../lib/admin'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { queryPath, useNamedQuery } from '../api/queries'
import { QueryForm } from './query_form'

function DeleteQueryButton({ entity, name, version }: { entity: string; name: string; version: number | null }) {
  const navigate = useNavigate()
  const change = usePlannedChange({ title: `Delete query ${entity}/${name}`, success: 'Query deleted', onApplied: () => navigate('/queries', { replace: true }) })
  return (
    <>
      <button
        type="button"
        className="btn btn--danger"
        disabled={change.busy}
        onClick={() => void change.start((opts) => adminChange('DELETE', queryPath(entity, name), undefined, { ...opts, ifMatch: version ?? undefined }))}
        data-testid="query-delete"
      >
        Delete
      </button>
      {change.dialog}
    </>
  )
}

/** /queries/new and /queries/:entity/:name: the editor of one named query, with its preview. */
export function QueryPage() {
  const { entity, name } = useParams()
  const query = useNamedQuery(entity, name)
  if (entity === undefined || name === undefined) {
    return (
      <Page title="New query" description="A filter over one entity with typed :parameters, served at /rest/queries." testId="query-page">
        <QueryForm key="new" version={null} />
      </Page>
    )
  }
  if (query.isError) {
    return (
      <Page title={`Query ${entity}/${name}`}>
        <ErrorMessage error={query.error} testId="query-error" />
        <Link to="/queries">All queries</Link>
      </Page>
    )
  }
  if (!query.data) return <Loading />
  return (
    <Page
      title={`Query ${name}`}
      description={
        <>
          <code>GET /rest/queries/{entity}/{name}</code>
        </>
      }
      actions={<DeleteQueryButton entity={entity} name={name} version={query.data.version} />}
      testId="query-page"
    >
      <QueryForm key={`${entity}/${name}`} query={query.data.data} version={query.data.version} />
    </Page>
  )
}
