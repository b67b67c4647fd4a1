/*
 * Templates: code, output type, the default (one), the output-name pattern, CSV options, and
 * the file: a stored template's file is uploaded at once (PUT .../templates/:code/file) and can
 * be downloaded; a template not saved yet carries its file in the definition (`base64:`).
 */
import { useState } from 'react'
import { toast } from 'sonner'
import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import { errorText } from '../../../lib/admin'
import { downloadTemplate, fileAsBase64, saveDocument, uploadTemplate } from '../api/reports'
import { OUTPUT_TYPES, RENDERED_OUTPUTS, type OutputType, type ReportDefinition, type ReportTemplate } from '../api/types'
import { formatBytes } from '../lib/format'

interface Props {
  report: ReportDefinition
  /** The report as stored (undefined for a new one). */
  stored?: ReportDefinition
  onChange: (templates: ReportTemplate[]) => void
  /** A stored template's new file is stored (the definition changed). */
  onUploaded: (code: string, fileName: string, size: number) => void
  errors: Record<string, string>
}

const ACCEPT: Partial<Record<OutputType, string>> = {
  XLSX: '.xlsx',
  DOCX: '.docx',
  HTML: '.html,.htm,.hbs',
  PDF: '.html,.htm,.hbs,.docx,.xlsx',
  CSV: '.csv,.txt',
  JSON: '.json',
}

export function TemplatesEditor({ report, stored, onChange, onUploaded, errors }: Props) {
  const [busy, setBusy] = useState<string | null>(null)
  const set = (i: number, patch: Partial<ReportTemplate>) => onChange(report.templates.map((t, j) => (j === i ? { ...t, ...patch } : t)))
  const isStored = (code: string) => Boolean(stored?.templates.some((t) => t.code === code))

  const upload = async (i: number, t: ReportTemplate, file: File) => {
    setBusy(t.code)
    try {
      if (stored && isStored(t.code)) {
        await uploadTemplate(report.id, t.code, file)
        onUploaded(t.code, file.name, file.size)
        toast.success(`Uploaded ${file.name}`, { description: `Template ${t.code} of ${report.name}` })
      } else {
        set(i, { fileName: file.name, size: file.size, file: await fileAsBase64(file) })
      }
    } catch (e) {
      toast.error(`Upload failed: ${errorText(e)}`)
    } finally {
      setBusy(null)
    }
  }
  const download = async (code: string) => {
    try {
      saveDocument(await downloadTemplate(report.id, code))
    } catch (e) {
      toast.error(`Download failed: ${errorText(e)}`)
    }
  }

  return (
    <Panel title="Templates" testId="report-templates">
      <p className="muted rp-lead">
        One template per output. XLSX: named ranges are bands, cells hold <code>{'${field}'}</code>; DOCX: <code>##band=Name</code> tables and <code>{'${Band.field}'}</code>; HTML and PDF:
        Handlebars. A template without a file renders a plain table per band (XLSX, CSV, JSON, HTML).
      </p>
      {report.templates.length === 0 && <p className="empty">No template: the report cannot run yet.</p>}
      {report.templates.map((t, i) => {
        const e = (k: string) => errors[`[${i}].${k}`]
        const pending = Boolean(t.file)
        return (
          <div className="rp-card" key={i} data-testid={`template-${i}`}>
            <div className="form-grid">
              <Field label="Code" error={e('code')}>
                <input value={t.code} onChange={(ev) => set(i, { code: ev.target.value })} className="mono" data-testid="template-code" />
              </Field>
              <Field label="Output type" error={e('outputType')}>
                <select value={t.outputType} onChange={(ev) => set(i, { outputType: ev.target.value as OutputType })} data-testid="template-output">
                  {OUTPUT_TYPES.filter((o) => RENDERED_OUTPUTS.includes(o) || o === t.outputType).map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              </Field>
              <Field label="Output name" error={e('outputNamePattern')} hint="A name, or ${Band.field}; the extension follows the type.">
                <input value={t.outputNamePattern ?? ''} onChange={(ev) => set(i, { outputNamePattern: ev.target.value })} className="mono" data-testid="template-name-pattern" />
              </Field>
              {t.outputType === 'CSV' && (
                <>
                  <Field label="Delimiter" error={e('options.delimiter')}>
                    <select value={t.options?.delimiter ?? ','} onChange={(ev) => set(i, { options: { ...t.options, delimiter: ev.target.value } })}>
                      <option value=",">Comma ,</option>
                      <option value=";">Semicolon ;</option>
                      <option value={'\t'}>Tab</option>
                    </select>
                  </Field>
                  <label className="check rp-check-field">
                    <input type="checkbox" checked={Boolean(t.options?.bom)} onChange={(ev) => set(i, { options: { ...t.options, bom: ev.target.checked } })} />
                    Byte order mark (Excel)
                  </label>
                </>
              )}
            </div>
            <div className="rp-file" data-testid="template-file">
              <span className="rp-file__name">
                {t.fileName ? (
                  <>
                    <span className="mono">{t.fileName}</span> {t.size !== undefined && <span className="muted">{formatBytes(t.size)}</span>}
                    {pending && <span className="badge badge--warn">uploaded with the next save</span>}
                  </>
                ) : (
                  <span className="muted">No file</span>
                )}
              </span>
              {t.fileName && !pending && isStored(t.code) && (
                <button type="button" className="btn btn--small btn--link" onClick={() => void download(t.code)} data-testid="template-download">
                  Download
                </button>
              )}
              <label className="btn btn--small rp-upload">
                {busy === t.code ? 'Uploading…' : t.fileName ? 'Replace file…' : 'Upload file…'}
                <input
                  type="file"
                  className="rp-sr-only"
                  accept={ACCEPT[t.outputType]}
                  disabled={busy !== null || !t.code.trim()}
                  onChange={(ev) => {
                    const file = ev.target.files?.[0]
                    ev.target.value = ''
                    if (file) void upload(i, t, file)
                  }}
                  data-testid="template-upload"
                />
              </label>
              {e('file') && (
                <span className="field__error" role="alert">
                  {e('file')}
                </span>
              )}
            </div>
            <div className="rp-card__foot">
              <label className="check">
                <input type="radio" name="default-template" checked={Boolean(t.default)} onChange={() => onChange(report.templates.map((x, j) => ({ ...x, default: j === i })))} data-testid="template-default" />
                Default template
              </label>
              <span className="rp-spacer" />
              <button type="button" className="btn btn--small" onClick={() => onChange(report.templates.filter((_, j) => j !== i))} data-testid="template-remove">
                Remove
              </button>
            </div>
          </div>
        )
      })}
      <button
        type="button"
        className="btn"
        onClick={() => {
          const used = new Set(report.templates.map((t) => t.code))
          const code = used.has('DEFAULT') ? `T${report.templates.length + 1}` : 'DEFAULT'
          onChange([...report.templates, { code, outputType: 'XLSX', default: report.templates.length === 0 }])
        }}
        data-testid="template-add"
      >
        + Add template
      </button>
    </Panel>
  )
}
