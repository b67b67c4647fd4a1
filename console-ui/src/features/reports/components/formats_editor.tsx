import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import type { ValueFormat } from '../api/types'

/** Value formats: a field (`Band.field` or `field`) and a Java-style pattern. */
export function FormatsEditor({ formats, onChange, errors }: { formats: ValueFormat[]; onChange: (f: ValueFormat[]) => void; errors: Record<string, string> }) {
  const set = (i: number, patch: Partial<ValueFormat>) => onChange(formats.map((f, j) => (j === i ? { ...f, ...patch } : f)))
  return (
    <Panel title="Value formats" testId="report-formats">
      <p className="muted rp-lead">
        How a field is printed: numbers <code>#,##0.00</code>, dates <code>dd.MM.yyyy HH:mm</code>, booleans <code>Yes|No</code>. A band-qualified name (<code>Orders.total</code>) wins over a bare one.
      </p>
      {formats.map((f, i) => (
        <div className="rp-row" key={i} data-testid="format-row">
          <Field label="Field" error={errors[`[${i}].name`]}>
            <input value={f.name} onChange={(e) => set(i, { name: e.target.value })} className="mono" placeholder="Band.field" />
          </Field>
          <Field label="Format" error={errors[`[${i}].format`]}>
            <input value={f.format} onChange={(e) => set(i, { format: e.target.value })} className="mono" placeholder="#,##0.00" />
          </Field>
          <button type="button" className="btn btn--small rp-row__remove" onClick={() => onChange(formats.filter((_, j) => j !== i))} aria-label={`Remove format ${f.name || i + 1}`}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="btn" onClick={() => onChange([...formats, { name: '', format: '' }])} data-testid="format-add">
        + Add format
      </button>
    </Panel>
  )
}
