/*
 * The input of one report parameter by its type: text, number, a switch-like select for
 * BOOLEAN, date/time inputs in the wire formats, the enum's values, and the data browser's
 * searchable reference picker for ENTITY (one id) and ENTITY_LIST (several ids).
 */
import { useState } from 'react'
import { Field } from '../../../components/ui/field'
import { useModelEnums } from '../../../lib/model'
import { ReferencePicker, type RefValue } from '../../data/components/reference_picker'
import type { ReportParameter } from '../api/types'

export type ParamValue = string | string[]

interface Props {
  param: ReportParameter
  value: ParamValue | undefined
  onChange: (value: ParamValue) => void
  error?: string
  testId: string
}

/** `2024-01-31T10:00` (datetime-local) and the wire's `2024-01-31T10:00:00`. */
const toWireDateTime = (v: string) => (/^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(v) ? `${v}:00` : v)
const toWireTime = (v: string) => (/^\d\d:\d\d$/.test(v) ? `${v}:00` : v)

function EntityList({ target, value, onChange, testId, label }: { target: string; value: string[]; onChange: (v: string[]) => void; testId: string; label: string }) {
  const [names, setNames] = useState<Record<string, string>>({})
  return (
    <div className="rp-entity-list" data-testid={testId}>
      {value.length > 0 && (
        <ul className="chips" aria-label={`Chosen ${label}`}>
          {value.map((id) => (
            <li key={id} className="chip">
              {names[id] ?? id}
              <button type="button" className="chip__remove" aria-label={`Remove ${names[id] ?? id}`} onClick={() => onChange(value.filter((x) => x !== id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <ReferencePicker
        target={target}
        value={null}
        aria-label={`Add to ${label}`}
        onChange={(v: RefValue | null) => {
          if (!v || value.includes(v.id)) return
          setNames({ ...names, [v.id]: v._instanceName ?? v.id })
          onChange([...value, v.id])
        }}
      />
    </div>
  )
}

export function ParamInput({ param, value, onChange, error, testId }: Props) {
  const enums = useModelEnums()
  const text = typeof value === 'string' ? value : ''
  const label = (
    <>
      {param.name || param.alias} {param.required && <span aria-hidden="true">*</span>}
      <span className="muted rp-param-type"> {param.type.toLowerCase().replace('_', ' ')}</span>
    </>
  )
  const common = { 'data-testid': testId, 'required': param.required }
  let control
  switch (param.type) {
    case 'NUMERIC':
      control = <input type="number" step="any" inputMode="decimal" value={text} onChange={(e) => onChange(e.target.value)} {...common} />
      break
    case 'BOOLEAN':
      control = (
        <select value={text} onChange={(e) => onChange(e.target.value)} {...common}>
          <option value="">—</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      )
      break
    case 'DATE':
      control = <input type="date" value={text} onChange={(e) => onChange(e.target.value)} {...common} />
      break
    case 'DATETIME':
      control = <input type="datetime-local" step="1" value={text.slice(0, 19)} onChange={(e) => onChange(toWireDateTime(e.target.value))} {...common} />
      break
    case 'TIME':
      control = <input type="time" step="1" value={text} onChange={(e) => onChange(toWireTime(e.target.value))} {...common} />
      break
    case 'ENUMERATION': {
      const e = (enums.data ?? []).find((x) => x.name === param.enumerationClass || x.name === param.enumerationClass?.split('.').pop())
      control = (
        <select value={text} onChange={(ev) => onChange(ev.target.value)} {...common}>
          <option value="">—</option>
          {(e?.values ?? []).map((v) => (
            <option key={v.name} value={v.name}>
              {v.caption?.en ?? v.name}
            </option>
          ))}
        </select>
      )
      break
    }
    case 'ENTITY':
      control = (
        <ReferencePicker
          target={param.entityMetaClass ?? ''}
          value={text ? { id: text } : null}
          onChange={(v) => onChange(v?.id ?? '')}
          testId={testId}
        />
      )
      break
    case 'ENTITY_LIST':
      return (
        <fieldset className={error ? 'field rp-fieldset field--invalid' : 'field rp-fieldset'}>
          <legend className="field__label">{label}</legend>
          <EntityList target={param.entityMetaClass ?? ''} value={Array.isArray(value) ? value : []} onChange={onChange} testId={testId} label={param.name || param.alias} />
          {error && (
            <div className="field__error" role="alert" data-testid="field-error">
              {error}
            </div>
          )}
        </fieldset>
      )
    default:
      control = <input value={text} onChange={(e) => onChange(e.target.value)} {...common} />
  }
  return (
    <Field label={label} error={error} hint={param.defaultValue ? `Default: ${param.defaultValue}` : undefined}>
      {control}
    </Field>
  )
}

/** The typed values to start from: the parameters' defaults. */
export const initialValues = (params: ReportParameter[]): Record<string, ParamValue> =>
  Object.fromEntries(params.filter((p) => p.defaultValue !== undefined && p.type !== 'ENTITY_LIST').map((p) => [p.alias, p.defaultValue!]))
