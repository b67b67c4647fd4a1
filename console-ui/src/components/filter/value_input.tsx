/*
 * The value editors of one filter condition: one input per value kind (text, number, decimal
 * text, date/time pickers, boolean and enum selects, reference ids), a list editor for in/notIn,
 * and the placeholder choice (`:current_user_username`, …) for row-level rules.
 */
import type { ReactNode } from 'react'
import type { ResolvedPath, ValueKind } from './filter'
import { referenceIdKind } from './filter'
import { captionOf } from '../../lib/model'

/** What a custom reference input (a searchable picker) receives. */
export interface ReferenceInputProps {
  /** The target entity's name. */
  target: string
  /** The id (string) or '' when none. */
  value: string
  onChange: (id: string) => void
  label: string
  invalid?: boolean
}

export interface ValueInputProps {
  resolved: ResolvedPath | null
  value: unknown
  onChange: (value: unknown) => void
  label: string
  invalid?: boolean
  referenceInput?: (props: ReferenceInputProps) => ReactNode
}

/** `2024-05-01T10:00:00Z` -> `2024-05-01T12:00:00` in the browser's zone (datetime-local). */
export function isoToLocalInput(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

export function localInputToIso(local: string): string {
  if (!local) return ''
  const d = new Date(local)
  return Number.isNaN(d.getTime()) ? local : d.toISOString()
}

const asText = (v: unknown) => (v === undefined || v === null ? '' : String(v))

/** One value of the attribute's kind. */
export function ScalarInput({
  resolved,
  value,
  onChange,
  label,
  invalid,
  referenceInput,
}: ValueInputProps) {
  const kind: ValueKind = resolved?.kind ?? 'string'
  const common = {
    'aria-label': label,
    'aria-invalid': invalid || undefined,
    'className': 'input filter__value',
    'data-testid': 'filter-value',
  }
  if (kind === 'boolean') {
    return (
      <select
        {...common}
        value={asText(value)}
        onChange={(e) => onChange(e.target.value === '' ? '' : e.target.value === 'true')}
      >
        <option value="">Choose…</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    )
  }
  if (kind === 'enum' && resolved?.enumDef) {
    return (
      <select {...common} value={asText(value)} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose…</option>
        {resolved.enumDef.values.map((v) => (
          <option key={v.name} value={v.name}>
            {captionOf(v)} ({v.name})
          </option>
        ))}
      </select>
    )
  }
  if (kind === 'reference' && resolved?.target && referenceInput) {
    return (
      <span className="filter__value" data-testid="filter-value">
        {referenceInput({
          target: resolved.target.name,
          value: asText(value),
          onChange,
          label,
          invalid,
        })}
      </span>
    )
  }
  const effective: ValueKind = kind === 'reference' && resolved ? referenceIdKind(resolved) : kind
  switch (effective) {
    case 'number':
      return (
        <input
          {...common}
          type="number"
          step="any"
          value={asText(value)}
          onChange={(e) => {
            const raw = e.target.value
            onChange(raw === '' || Number.isNaN(Number(raw)) ? raw : Number(raw))
          }}
        />
      )
    case 'decimal':
      return (
        <input
          {...common}
          type="text"
          inputMode="decimal"
          value={asText(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      )
    case 'date':
      return (
        <input
          {...common}
          type="date"
          value={asText(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      )
    case 'time':
      return (
        <input
          {...common}
          type="time"
          step="1"
          value={asText(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      )
    case 'dateTime':
      return (
        <input
          {...common}
          type="datetime-local"
          step="1"
          value={asText(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      )
    case 'offsetDateTime':
      return (
        <input
          {...common}
          type="datetime-local"
          step="1"
          value={typeof value === 'string' && value ? isoToLocalInput(value) : ''}
          onChange={(e) => onChange(localInputToIso(e.target.value))}
        />
      )
    default:
      return (
        <input
          {...common}
          type="text"
          placeholder={
            kind === 'reference' ? 'id' : kind === 'uuid' ? '00000000-0000-…' : undefined
          }
          value={asText(value)}
          onChange={(e) => onChange(e.target.value)}
        />
      )
  }
}

/** The values of an in / notIn list: one input per value, add and remove. */
export function ListInput(props: ValueInputProps) {
  const values = Array.isArray(props.value) ? props.value : []
  const set = (next: unknown[]) => props.onChange(next)
  return (
    <div className="filter__list" data-testid="filter-list">
      {values.map((v, i) => (
        <span key={i} className="filter__list-item">
          <ScalarInput
            {...props}
            label={`${props.label} ${i + 1}`}
            value={v}
            onChange={(x) => set(values.map((old, j) => (j === i ? x : old)))}
          />
          <button
            type="button"
            className="btn btn--small btn--icon"
            aria-label={`Remove value ${i + 1}`}
            onClick={() => set(values.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </span>
      ))}
      <button
        type="button"
        className="btn btn--small"
        onClick={() => set([...values, ''])}
        data-testid="filter-list-add"
      >
        + Value
      </button>
    </div>
  )
}

/** A literal value, or (when placeholders are offered) one of them. */
export function PlaceholderOrValue({
  placeholders,
  ...props
}: ValueInputProps & { placeholders: string[] }) {
  const chosen =
    typeof props.value === 'string' && placeholders.includes(props.value) ? props.value : ''
  return (
    <span className="filter__placeholder">
      <select
        className="input"
        aria-label={`${props.label}: fixed value or placeholder`}
        value={chosen}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid="filter-placeholder"
      >
        <option value="">a fixed value</option>
        {placeholders.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
      {!chosen && <ScalarInput {...props} />}
    </span>
  )
}
