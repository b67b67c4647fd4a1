/*
 * The rows of one band for chosen parameter values, from the draft as it stands (saved or not):
 * POST /admin/api/reports/:id/preview with the unsaved definition as `report`, run as the admin.
 */
import { useState } from 'react'
import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import { ErrorMessage } from '../../../components/ui/error_message'
import { problemsOf } from '../../../lib/admin'
import { parameterOfError, previewBand } from '../api/reports'
import type { PreviewAnswer, ReportDefinition } from '../api/types'
import { flattenBands, reportBody, runParameters } from '../lib/draft'
import { initialValues, ParamInput, type ParamValue } from './param_input'

/** A row as a record of fields (a band instance carries them under `fields`). */
const fieldsOf = (r: Record<string, unknown>) => (r.fields && typeof r.fields === 'object' && !Array.isArray(r.fields) ? (r.fields as Record<string, unknown>) : r)
const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

export function BandPreview({ report, selected }: { report: ReportDefinition; saved: boolean; selected?: string }) {
  const [values, setValues] = useState<Record<string, ParamValue>>(() => initialValues(report.inputParameters))
  const [band, setBand] = useState('')
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<{ answer?: PreviewAnswer; error?: unknown; alias?: string } | null>(null)
  const names = flattenBands(report.bands).map((b) => b.band.name).filter(Boolean)
  const chosen = band && names.includes(band) ? band : (selected ?? names[0] ?? '')

  const run = async () => {
    setBusy(true)
    try {
      const answer = await previewBand(report.id, { band: chosen, parameters: runParameters(report.inputParameters, values), report: reportBody(report) })
      setResult({ answer })
    } catch (error) {
      setResult({ error, alias: parameterOfError(error, report.inputParameters.map((p) => p.alias)) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Panel title="Preview" testId="band-preview">
      <p className="muted rp-lead">The rows of a band for these values, from the draft as it stands (unsaved changes included), read as you. The first 50 rows of every instance.</p>
      <div className="form-grid">
        {report.inputParameters.map((p) => (
          <ParamInput
            key={p.alias}
            param={p}
            value={values[p.alias]}
            onChange={(v) => setValues({ ...values, [p.alias]: v })}
            error={result?.alias === p.alias ? String((result.error as Error).message) : undefined}
            testId={`preview-param-${p.alias}`}
          />
        ))}
        <Field label="Band">
          <select value={chosen} onChange={(e) => setBand(e.target.value)} data-testid="preview-band">
            {names.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </Field>
      </div>
      <button type="button" className="btn" disabled={busy || !chosen} onClick={() => void run()} data-testid="preview-run">
        {busy ? 'Reading…' : 'Preview rows'}
      </button>
      {result?.error !== undefined && !result.alias && (
        <div data-testid="preview-error">
          <ErrorMessage error={result.error} />
          {problemsOf(result.error).length > 0 && (
            <ul className="rp-problems">
              {problemsOf(result.error).map((p, i) => (
                <li key={i}>
                  <code>{p.path.replace(/^\$\.?(report\.?|reports\[0\]\.?)?/, '') || 'report'}</code> {p.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {result?.answer && (
        <div className="rp-preview" data-testid="preview-result">
          <p className="muted rp-small">
            Band <span className="mono">{result.answer.band}</span>: <strong data-testid="preview-total">{result.answer.total}</strong> row{result.answer.total === 1 ? '' : 's'}
            {result.answer.rows.length < result.answer.total ? `, the first ${result.answer.rows.length} shown` : ''}
          </p>
          {result.answer.rows.length > 0 && (
            <div className="table-wrap rp-preview__table">
              <table className="table">
                <thead>
                  <tr>
                    {result.answer.fields.map((f) => (
                      <th key={f} scope="col" className="mono">
                        {f}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {result.answer.rows.map((r, i) => (
                    <tr key={i} data-testid="preview-row">
                      {result.answer!.fields.map((f) => (
                        <td key={f}>{cell(fieldsOf(r)[f])}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </Panel>
  )
}
