import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { adminChange } from '../../../lib/admin'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { reportPath, useReport } from '../api/reports'
import { ReportForm } from './report_form'
import { RunDialog } from './run_dialog'
import '../../users/components/users.css'
import '../../data/components/data.css'
import './reports.css'
import './editor.css'

function DeleteReportButton({ id, name, version }: { id: string; name: string; version: number | null }) {
  const navigate = useNavigate()
  const change = usePlannedChange({ title: `Delete report ${name}`, success: 'Report deleted', onApplied: () => navigate('/reports', { replace: true }) })
  return (
    <>
      <button
        type="button"
        className="btn btn--danger"
        disabled={change.busy}
        onClick={() => void change.start((opts) => adminChange('DELETE', reportPath(id), undefined, { ...opts, ifMatch: version ?? undefined }))}
        data-testid="report-delete"
      >
        Delete
      </button>
      {change.dialog}
    </>
  )
}

/** /reports/new and /reports/:id: the editor of one report. */
export function ReportPage() {
  const { id } = useParams()
  const report = useReport(id)
  const [running, setRunning] = useState(false)
  const crumbs = (
    <Link to="/reports" className="rp-crumb">
      ← Reports
    </Link>
  )
  if (id === undefined) {
    return (
      <Page title="New report" description={<>{crumbs} Parameters, bands of data and templates; saved into the application definition.</>} testId="report-page">
        <ReportForm key="new" version={null} />
      </Page>
    )
  }
  if (report.isError) {
    return (
      <Page title="Report" description={crumbs}>
        <ErrorMessage error={report.error} testId="report-error" />
      </Page>
    )
  }
  if (!report.data) return <Loading />
  const r = report.data.data
  return (
    <Page
      title={r.name}
      description={
        <>
          {crumbs} {r.group && <span className="badge">{r.group.title}</span>} {r.code && <code>{r.code}</code>}{' '}
          {r.restAccess ? <span className="badge badge--ok">REST</span> : <span className="badge">Console only</span>}
        </>
      }
      actions={
        <>
          <Link className="btn" to={`/reports/history?report=${encodeURIComponent(r.id)}`} data-testid="report-history">
            Runs
          </Link>
          <button type="button" className="btn btn--primary" onClick={() => setRunning(true)} disabled={r.templates.length === 0} data-testid="report-run-open">
            Run…
          </button>
          <DeleteReportButton id={r.id} name={r.name} version={report.data.version} />
        </>
      }
      testId="report-page"
    >
      <ReportForm key={r.id} report={r} version={report.data.version} />
      {running && <RunDialog id={r.id} onClose={() => setRunning(false)} />}
    </Page>
  )
}
