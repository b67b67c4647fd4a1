import { Link, useSearchParams } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { useExecutions, useReports } from '../api/reports'
import { formatBytes, formatDuration, outcomeClass } from '../lib/format'
import './reports.css'

const paramText = (p: unknown) => {
  if (p === null || p === undefined) return ''
  if (Array.isArray(p)) return p.map((x: { name?: string; value?: unknown; values?: unknown[] }) => `${x.name}=${x.values ? x.values.join('|') : String(x.value)}`).join(', ')
  if (typeof p === 'object') return Object.entries(p as Record<string, unknown>).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : String(v)}`).join(', ')
  return String(p)
}

/** /reports/history: the runs, newest first (who, when, what, how long, how big, outcome). */
export function HistoryPage() {
  const [params, setParams] = useSearchParams()
  const report = params.get('report') ?? ''
  const reports = useReports()
  const executions = useExecutions(report)
  return (
    <Page
      title="Report runs"
      description="Every run through the console and /rest/reports: who ran which report with which parameters, how long it took, how large the document was."
      actions={
        <Link className="btn" to="/reports" data-testid="history-back">
          ← Reports
        </Link>
      }
      testId="report-history-page"
    >
      <div className="toolbar">
        <select
          className="input"
          aria-label="Report"
          value={report}
          onChange={(e) => setParams(e.target.value ? { report: e.target.value } : {}, { replace: true })}
          data-testid="history-report-filter"
        >
          <option value="">All reports</option>
          {(reports.data?.reports ?? []).map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
        {executions.data && <span className="muted">{executions.data.length === 1 ? '1 run' : `${executions.data.length} runs`}</span>}
      </div>
      {executions.isError && <ErrorMessage error={executions.error} />}
      {executions.isPending && <Loading />}
      {executions.data && executions.data.length === 0 && <EmptyState title="No runs yet">Runs appear here once a report is run.</EmptyState>}
      {executions.data && executions.data.length > 0 && (
        <div className="table-wrap">
          <table className="table rp-table" data-testid="executions-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Report</th>
                <th scope="col">User</th>
                <th scope="col" className="rp-narrow-hide">Output</th>
                <th scope="col" className="rp-num rp-narrow-hide">Duration</th>
                <th scope="col" className="rp-num rp-narrow-hide">Size</th>
                <th scope="col" className="rp-num rp-narrow-hide">Rows</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {executions.data.map((x) => (
                <tr key={x.id} data-testid="execution-row">
                  <td className="rp-nowrap" title={x.startedAt}>
                    {new Date(x.startedAt).toLocaleDateString()}
                    <div className="muted rp-small">{new Date(x.startedAt).toLocaleTimeString()}</div>
                  </td>
                  <td>
                    <Link to={`/reports/${x.reportId}`}>{x.reportName}</Link>
                    {paramText(x.parameters) && <div className="muted rp-small mono">{paramText(x.parameters)}</div>}
                  </td>
                  <td>{x.user ?? <span className="muted">—</span>}</td>
                  <td className="rp-nowrap rp-narrow-hide">
                    {x.outputType && <span className="badge badge--outline">{x.outputType}</span>} <span className="muted mono">{x.template ?? ''}</span>
                  </td>
                  <td className="rp-num rp-narrow-hide">{formatDuration(x.durationMs)}</td>
                  <td className="rp-num rp-narrow-hide">{formatBytes(x.sizeBytes)}</td>
                  <td className="rp-num rp-narrow-hide">{x.rows ?? ''}</td>
                  <td>
                    <span className={outcomeClass(x.outcome)} data-testid="execution-outcome">
                      {x.outcome}
                    </span>
                    {x.error && <div className="rp-error-text rp-small">{x.error}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}
