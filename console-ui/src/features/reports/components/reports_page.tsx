import { useMemo, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { useReports, useRestToggle } from '../api/reports'
import { formatWhen, outcomeClass } from '../lib/format'
import { RestSwitch } from './rest_switch'
import { RunDialog } from './run_dialog'
import '../../users/components/users.css'
import '../../data/components/data.css'
import './reports.css'

/** /reports: every report with its group, outputs, parameters, last run and REST flag. */
export function ReportsPage() {
  const reports = useReports()
  const toggle = useRestToggle()
  const [params, setParams] = useSearchParams()
  const [running, setRunning] = useState<string | null>(null)
  const text = params.get('q') ?? ''
  const group = params.get('group') ?? ''
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params)
    if (value) next.set(key, value)
    else next.delete(key)
    setParams(next, { replace: true })
  }
  const shown = useMemo(() => {
    const q = text.trim().toLowerCase()
    return (reports.data?.reports ?? [])
      .filter((r) => !group || r.group?.id === group)
      .filter((r) => !q || [r.name, r.code, r.description, r.group?.title].some((s) => s?.toLowerCase().includes(q)))
      .sort((a, b) => (a.group?.title ?? '').localeCompare(b.group?.title ?? '') || a.name.localeCompare(b.name))
  }, [reports.data, text, group])
  const total = reports.data?.reports.length ?? 0

  return (
    <Page
      title="Reports"
      description="Documents from bands of data: XLSX, DOCX, HTML, PDF, CSV and JSON, run by the console or through /rest/reports when the REST flag is on."
      actions={
        <>
          <Link className="btn" to="/reports/history" data-testid="reports-history-link">
            Execution history
          </Link>
          <Link className="btn btn--primary" to="/reports/new" data-testid="new-report">
            New report
          </Link>
        </>
      }
      testId="reports-page"
    >
      {reports.isError && <ErrorMessage error={reports.error} />}
      {reports.isPending && <Loading />}
      {reports.data && total === 0 && (
        <EmptyState title="No reports yet">Create one: parameters, bands of data, and a template per output type.</EmptyState>
      )}
      {reports.data && total > 0 && (
        <>
          <div className="toolbar">
            <input className="input" type="search" placeholder="Filter by name, code, group…" aria-label="Filter reports" value={text} onChange={(e) => set('q', e.target.value)} data-testid="reports-filter" />
            <select className="input" aria-label="Group" value={group} onChange={(e) => set('group', e.target.value)} data-testid="reports-group-filter">
              <option value="">All groups</option>
              {reports.data.groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.title}
                </option>
              ))}
            </select>
            <span className="muted" data-testid="reports-count">
              {shown.length === total ? `${total} report${total === 1 ? '' : 's'}` : `${shown.length} of ${total}`}
            </span>
          </div>
          <div className="table-wrap">
            <table className="table rp-table" data-testid="reports-table">
              <thead>
                <tr>
                  <th scope="col">Report</th>
                  <th scope="col" className="rp-narrow-hide">Group</th>
                  <th scope="col">Outputs</th>
                  <th scope="col" className="rp-num rp-narrow-hide">Parameters</th>
                  <th scope="col" className="rp-narrow-hide">Last run</th>
                  <th scope="col">REST API</th>
                  <th scope="col">
                    <span className="rp-sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((r) => (
                  <tr key={r.id} data-testid="report-row" data-report={r.code ?? r.id}>
                    <th scope="row" className="rp-name-cell">
                      <Link to={`/reports/${r.id}`} className="rp-name">
                        {r.name}
                      </Link>
                      {r.code && <span className="mono muted rp-code"> {r.code}</span>}
                      {r.description && <div className="muted rp-desc">{r.description}</div>}
                    </th>
                    <td className="rp-narrow-hide">{r.group?.title ?? <span className="muted">—</span>}</td>
                    <td>
                      <span className="rp-outputs">
                        {r.templates.map((t) => (
                          <span key={t.code} className={t.default ? 'badge badge--accent' : 'badge badge--outline'} title={`${t.code}${t.default ? ' (default)' : ''}`}>
                            {t.outputType}
                          </span>
                        ))}
                      </span>
                    </td>
                    <td className="rp-num rp-narrow-hide">{r.parameters}</td>
                    <td className="rp-narrow-hide">
                      {r.lastRun ? (
                        <span className="rp-last">
                          <span className={outcomeClass(r.lastRun.outcome)}>{r.lastRun.outcome}</span>{' '}
                          <span className="muted">{formatWhen(r.lastRun.startedAt)}</span>
                        </span>
                      ) : (
                        <span className="muted">never</span>
                      )}
                    </td>
                    <td>
                      <RestSwitch
                        checked={r.restAccess}
                        onChange={(restAccess) => toggle.mutate({ id: r.id, restAccess })}
                        label={`${r.name}: available through the REST API`}
                        testId="report-rest"
                      />
                    </td>
                    <td className="rp-actions">
                      <button type="button" className="btn btn--small" onClick={() => setRunning(r.id)} disabled={r.templates.length === 0} data-testid="report-run">
                        Run…
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {shown.length === 0 && <p className="muted rp-none">No report matches.</p>}
          </div>
        </>
      )}
      {running && <RunDialog id={running} onClose={() => setRunning(null)} />}
    </Page>
  )
}
