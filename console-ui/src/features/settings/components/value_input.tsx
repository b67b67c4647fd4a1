import { useId } from 'react'
import { Switch } from '@headlessui/react'
import type { InputKind } from '../lib/settings_model'
import { parseDuration } from '../lib/settings_model'
import { ListEditor } from './list_editor'

/** The draft of a value being edited: text for scalars (sent as typed), rows for lists. */
export type Draft = string | boolean | string[]

interface ValueInputProps {
  kind: InputKind
  label: string
  value: Draft
  onChange: (value: Draft) => void
  error?: string | null
  rowErrors?: Record<number, string>
  testId: string
}

const UNITS: [string, string][] = [
  ['s', 'seconds'],
  ['m', 'minutes'],
  ['h', 'hours'],
  ['d', 'days'],
]

/** The input of one property by its kind: switch, number, duration, list rows or text. */
export function ValueInput({ kind, label, value, onChange, error, rowErrors, testId }: ValueInputProps) {
  const id = useId()
  const errorId = `${id}-error`
  const invalid = error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}
  let control
  if (kind === 'boolean') {
    control = (
      <div className="setting-switch">
        <Switch
          checked={value === true}
          onChange={onChange}
          className="switch"
          aria-label={label}
          data-testid={`${testId}-switch`}
          {...invalid}
        >
          <span className="switch__knob" aria-hidden="true" />
        </Switch>
        <span className="setting-switch__label" aria-hidden="true">
          {value === true ? 'On' : 'Off'}
        </span>
      </div>
    )
  } else if (kind === 'list') {
    control = (
      <ListEditor
        label={`${label} entry`}
        values={Array.isArray(value) ? value : []}
        onChange={onChange}
        rowErrors={rowErrors}
        testId={`${testId}-list`}
        addLabel="Add entry"
      />
    )
  } else if (kind === 'duration' && typeof value === 'string' && (value === '' || parseDuration(value))) {
    const parsed = parseDuration(value) ?? { amount: '', unit: 'm' }
    control = (
      <div className="duration-input">
        <input
          className="input"
          type="number"
          min={1}
          step={1}
          aria-label={`${label} amount`}
          value={parsed.amount}
          onChange={(e) => onChange(`${e.target.value}${parsed.unit}`)}
          data-testid={`${testId}-input`}
          {...invalid}
        />
        <select
          className="input"
          aria-label={`${label} unit`}
          value={parsed.unit}
          onChange={(e) => onChange(`${parsed.amount}${e.target.value}`)}
        >
          {UNITS.map(([unit, text]) => (
            <option key={unit} value={unit}>
              {text}
            </option>
          ))}
        </select>
      </div>
    )
  } else {
    control = (
      <input
        className="input mono"
        type={kind === 'int' ? 'number' : 'text'}
        step={kind === 'int' ? 1 : undefined}
        aria-label={label}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value)}
        data-testid={`${testId}-input`}
        {...invalid}
      />
    )
  }
  return (
    <div className={error ? 'field field--invalid setting-input' : 'field setting-input'}>
      {control}
      {error && (
        <div id={errorId} className="field__error" role="alert" data-testid="field-error">
          {error}
        </div>
      )}
    </div>
  )
}
