import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import { useModelEntities, useModelEnums } from '../../../lib/model'
import { PARAMETER_TYPES, type ParameterType, type ReportParameter } from '../api/types'

interface Props {
  params: ReportParameter[]
  onChange: (params: ReportParameter[]) => void
  /** Problems under inputParameters (`[0].alias`). */
  errors: Record<string, string>
}

const DEFAULT_HINT: Partial<Record<ParameterType, string>> = {
  DATE: 'yyyy-MM-dd',
  DATETIME: 'yyyy-MM-ddTHH:mm:ss',
  TIME: 'HH:mm:ss',
  BOOLEAN: 'true or false',
  NUMERIC: 'a number with .',
  ENUMERATION: 'the constant name',
  ENTITY: 'an id',
}

/** Input parameters: caption, alias (the run key and `:alias`), type, required, hidden, default. */
export function ParametersEditor({ params, onChange, errors }: Props) {
  const entities = useModelEntities()
  const enums = useModelEnums()
  const set = (i: number, patch: Partial<ReportParameter>) => onChange(params.map((p, j) => (j === i ? { ...p, ...patch } : p)))
  const entityNames = (entities.data ?? []).map((e) => e.name).sort()
  return (
    <Panel title="Input parameters" testId="report-parameters">
      <p className="muted rp-lead">
        What the report asks for when it runs. Datasets use a parameter as <code>:alias</code> (query filters) or <code>{'${alias}'}</code> (SQL); the REST run body names it by its alias.
      </p>
      {params.length === 0 && <p className="empty">No parameter: the report runs as it is.</p>}
      {params.map((p, i) => {
        const e = (k: string) => errors[`[${i}].${k}`]
        return (
          <div className="rp-card" key={i} data-testid={`param-${i}`}>
            <div className="form-grid">
              <Field label="Caption" error={e('name')}>
                <input value={p.name} onChange={(ev) => set(i, { name: ev.target.value })} data-testid="param-caption" />
              </Field>
              <Field label="Alias" error={e('alias')}>
                <input value={p.alias} onChange={(ev) => set(i, { alias: ev.target.value })} className="mono" data-testid="param-alias" />
              </Field>
              <Field label="Type" error={e('type')}>
                <select value={p.type} onChange={(ev) => set(i, { type: ev.target.value as ParameterType })} data-testid="param-type">
                  {PARAMETER_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
              </Field>
              {p.type === 'ENUMERATION' && (
                <Field label="Enum" error={e('enumerationClass')}>
                  <select value={p.enumerationClass ?? ''} onChange={(ev) => set(i, { enumerationClass: ev.target.value })} data-testid="param-enum">
                    <option value="">Choose…</option>
                    {(enums.data ?? []).map((x) => (
                      <option key={x.name}>{x.name}</option>
                    ))}
                  </select>
                </Field>
              )}
              {(p.type === 'ENTITY' || p.type === 'ENTITY_LIST') && (
                <Field label="Entity" error={e('entityMetaClass')}>
                  <select value={p.entityMetaClass ?? ''} onChange={(ev) => set(i, { entityMetaClass: ev.target.value })} data-testid="param-entity">
                    <option value="">Choose…</option>
                    {entityNames.map((n) => (
                      <option key={n}>{n}</option>
                    ))}
                  </select>
                </Field>
              )}
              {p.type !== 'ENTITY_LIST' && (
                <Field label="Default" error={e('defaultValue')} hint={DEFAULT_HINT[p.type]}>
                  <input value={p.defaultValue ?? ''} onChange={(ev) => set(i, { defaultValue: ev.target.value })} data-testid="param-default" />
                </Field>
              )}
            </div>
            <div className="rp-card__foot">
              <label className="check">
                <input type="checkbox" checked={Boolean(p.required)} onChange={(ev) => set(i, { required: ev.target.checked })} data-testid="param-required" />
                Required
              </label>
              <label className="check">
                <input type="checkbox" checked={Boolean(p.hidden)} onChange={(ev) => set(i, { hidden: ev.target.checked })} data-testid="param-hidden" />
                Hidden (its default is used)
              </label>
              <span className="rp-spacer" />
              <button type="button" className="btn btn--small" onClick={() => onChange(params.filter((_, j) => j !== i))} data-testid="param-remove">
                Remove
              </button>
            </div>
          </div>
        )
      })}
      <button type="button" className="btn" onClick={() => onChange([...params, { name: '', alias: '', type: 'TEXT', required: false, hidden: false }])} data-testid="param-add">
        + Add parameter
      </button>
    </Panel>
  )
}
