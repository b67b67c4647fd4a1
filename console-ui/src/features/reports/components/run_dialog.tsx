/*
 * The run form of a report: one input per visible parameter (by type), the template, then
 * POST /admin/api/reports/:id/run and the document downloaded under the server's file name.
 * A parameter error of the server (`{error, details}` naming the alias) shows at that input.
 */
import { useState } from 'react'
import { toast } from 'sonner'
import { Dialog } from '../../../components/ui/dialog'
import { Field } from '../../../components/ui/field'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { errorText } from '../../../lib/admin'
import { parameterOfError, runReport, saveDocument, useReport } from '../api/reports'
import type { ReportDefinition } from '../api/types'
import { runParameters } from '../lib/draft'
import { formatBytes } from '../lib/format'
import { initialValues, ParamInput, type ParamValue } from './param_input'

export function RunForm({ report, onDone, onClose }: { report: ReportDefinition; onDone?: () => void; onClose?: () => void }) {
  const [values, setValues] = useState<Record<string, ParamValue>>(() => initialValues(report.inputParameters))
  const defaultTemplate = report.templates.find((t) => t.default) ?? report.templates[0]
  const [template, setTemplate] = useState(defaultTemplate?.code ?? '')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<{ alias?: string; error: unknown } | null>(null)
  const visible = report.inputParameters.filter((p) => !p.hidden)

  const run = async () => {
    setBusy(true)
    setError(null)
    try {
      const doc = await runReport(report.id, { template: template || undefined, attachment: true, parameters: runParameters(report.inputParameters, values) })
      saveDocument(doc)
      toast.success(`Downloaded ${doc.fileName}`, { description: `${doc.contentType.split(';')[0]}, ${formatBytes(doc.blob.size)}` })
      onDone?.()
    } catch (e) {
      const alias = parameterOfError(e, report.inputParameters.map((p) => p.alias))
      setError({ alias, error: e })
      if (!alias) toast.error(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      id={`run-${report.id}`}
      onSubmit={(e) => {
        e.preventDefault()
        void run()
      }}
      data-testid="run-form"
    >
      {visible.length === 0 && <p className="muted">This report takes no parameters.</p>}
      {visible.map((p) => (
        <ParamInput
          key={p.alias}
          param={p}
          value={values[p.alias]}
          onChange={(v) => setValues({ ...values, [p.alias]: v })}
          error={error?.alias === p.alias ? errorText(error.error) : undefined}
          testId={`run-param-${p.alias}`}
        />
      ))}
      <Field label="Template" hint={report.templates.length === 0 ? 'The report has no template yet.' : undefined}>
        <select value={template} onChange={(e) => setTemplate(e.target.value)} data-testid="run-template">
          {report.templates.map((t) => (
            <option key={t.code} value={t.code}>
              {t.code} — {t.outputType}
              {t.default ? ' (default)' : ''}
            </option>
          ))}
        </select>
      </Field>
      {error && !error.alias && <ErrorMessage error={error.error} testId="run-error" />}
      <div className="rp-run-actions">
        {onClose && (
          <button type="button" className="btn" onClick={onClose} data-testid="run-close">
            Close
          </button>
        )}
        <button type="submit" className="btn btn--primary" disabled={busy || report.templates.length === 0} data-testid="run-submit">
          {busy ? 'Running…' : 'Run and download'}
        </button>
      </div>
      {busy && <div className="progress" role="progressbar" aria-label="Running the report" />}
    </form>
  )
}

/** The run form in a dialog (from the list and the editor). */
export function RunDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const report = useReport(id)
  return (
    <Dialog open onClose={onClose} title={report.data ? `Run ${report.data.data.name}` : 'Run report'} testId="run-dialog">
      {report.isError && <ErrorMessage error={report.error} />}
      {report.isPending && <Loading />}
      {report.data && <RunForm report={report.data.data} onClose={onClose} />}
      {!report.data && (
        <div className="rp-run-actions">
          <button type="button" className="btn" onClick={onClose} data-testid="run-close">
            Close
          </button>
        </div>
      )}
    </Dialog>
  )
}
