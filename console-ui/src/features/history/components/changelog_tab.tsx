import { EmptyState } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { kindLabel } from '../../../components/plan/plan_view'
import { useChangelog } from '../api/history'
import { Pager } from './pager'
import { when } from './format'

const LIMIT = 50

/** Every DDL statement the server applied, newest first (mg_schema_changelog). */
export function ChangelogTab({ offset, onOffset }: { offset: number; onOffset: (offset: number) => void }) {
  const log = useChangelog(offset, LIMIT)
  if (log.isPending) return <Loading label="Loading the changelog…" />
  if (log.error) return <ErrorMessage error={log.error} testId="changelog-error" />
  if (log.data.total === 0)
    return <EmptyState title="No schema changes yet">Each table or column change of the model is listed here with its SQL.</EmptyState>
  return (
    <>
      <Pager total={log.data.total} offset={offset} limit={LIMIT} onOffset={onOffset} noun="schema changes" testId="changelog-pager" />
      <div className="table-wrap">
        <table className="table history-changelog" data-testid="changelog-table">
          <caption className="history-sr">Schema changelog, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Model version</th>
              <th scope="col">Operation</th>
              <th scope="col">Target</th>
              <th scope="col">SQL</th>
              <th scope="col">Source</th>
              <th scope="col">Applied</th>
            </tr>
          </thead>
          <tbody>
            {log.data.entries.map((entry) => (
              <tr key={entry.id} data-testid="changelog-row">
                <td className="history-num">{entry.modelVersion}</td>
                <td>
                  <span className="badge">{kindLabel(entry.operation)}</span>
                </td>
                <td>
                  <code>{entry.target}</code>
                </td>
                <td className="history-sql-cell">
                  <SqlText sql={entry.sql} />
                </td>
                <td className="history-source">{entry.source}</td>
                <td className="history-time">{when(entry.appliedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

/** Short statements as they are; long ones folded to their first line. */
function SqlText({ sql }: { sql: string }) {
  const lines = sql.split('\n')
  const first = lines[0] ?? ''
  if (lines.length === 1 && first.length <= 160) return <pre className="history-sql">{sql}</pre>
  return (
    <details className="history-sql-more">
      <summary>
        <code>{first.length > 120 ? `${first.slice(0, 119)}…` : first}</code>{' '}
        <span className="muted">({lines.length} statement{lines.length === 1 ? '' : 's'})</span>
      </summary>
      <pre className="history-sql">{sql}</pre>
    </details>
  )
}
