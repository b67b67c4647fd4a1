import { Link } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { queryHref, useNamedQueries } from '../api/queries'

/** /queries: every named query with its entity and parameters. */
export function QueriesPage() {
  const queries = useNamedQueries()
  return (
    <Page
      title="Queries"
      description="Named queries served at /rest/queries/{entity}/{name}: a filter with typed parameters, run with the caller's permissions."
      actions={
        <Link className="btn btn--primary" to="/queries/new" data-testid="new-query">
          New query
        </Link>
      }
      testId="queries-page"
    >
      {queries.isError && <ErrorMessage error={queries.error} />}
      {queries.isPending && <Loading />}
      {queries.data && queries.data.length === 0 && (
        <EmptyState title="No named queries yet">Every entity has the built-in query all; define others here.</EmptyState>
      )}
      {queries.data && queries.data.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="queries-table">
            <thead>
              <tr>
                <th scope="col">Entity</th>
                <th scope="col">Query</th>
                <th scope="col">Parameters</th>
                <th scope="col">Sort</th>
              </tr>
            </thead>
            <tbody>
              {queries.data.map((q) => (
                <tr key={`${q.entity}/${q.name}`} data-testid={`query-${q.entity}-${q.name}`}>
                  <td className="mono">{q.entity}</td>
                  <th scope="row">
                    <Link to={queryHref(q)} className="mono">
                      {q.name}
                    </Link>
                  </th>
                  <td>{q.params.length ? q.params.map((p) => `${p.name}: ${p.type}`).join(', ') : <span className="muted">none</span>}</td>
                  <td className="mono">{q.sort ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}
