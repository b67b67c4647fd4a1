import { useId, useState, type ReactNode } from 'react'
import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
} from '@headlessui/react'
import type { RoleOption } from '../api/role_options'

interface RolePickerProps {
  label: string
  options: RoleOption[] | undefined
  value: string[]
  onChange: (codes: string[]) => void
  /** Errors of single entries by index (the server's `$.resourceRoles[1]`). */
  itemErrors?: Record<number, string>
  /** An error of the whole list (`$.resourceRoles`). */
  error?: string
  hint?: ReactNode
  disabled?: boolean
  /** Codes shown with an accent (e.g. system-admin). */
  emphasize?: string[]
  testId: string
}

const MAX_SHOWN = 60

/**
 * The roles assigned to a user or a client: chips that can be removed, and a searchable
 * combobox (name or code) to add one. Unknown codes and the server's per-entry problems are
 * marked on their chip.
 */
export function RolePicker(props: RolePickerProps) {
  const {
    label,
    options,
    value,
    onChange,
    itemErrors = {},
    error,
    hint,
    disabled,
    emphasize = [],
    testId,
  } = props
  const id = useId()
  const [query, setQuery] = useState('')
  const byCode = new Map((options ?? []).map((o) => [o.code, o]))
  const q = query.trim().toLowerCase()
  const candidates = (options ?? []).filter(
    (o) =>
      !value.includes(o.code) &&
      (!q || o.code.toLowerCase().includes(q) || o.name.toLowerCase().includes(q))
  )
  const messages = [
    ...Object.entries(itemErrors).map(
      ([i, message]) => `${value[Number(i)] ?? `#${Number(i) + 1}`}: ${message}`
    ),
    ...(error ? [error] : []),
  ]
  const describedBy = [hint ? `${id}-hint` : '', messages.length ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ')

  return (
    <fieldset
      className={messages.length ? 'role-picker field--invalid' : 'role-picker'}
      disabled={disabled}
      data-testid={testId}
      aria-describedby={describedBy || undefined}
    >
      <legend className="field__label">{label}</legend>
      {value.length === 0 ? (
        <p className="role-picker__none muted">None assigned.</p>
      ) : (
        <ul className="chips" aria-label={`Assigned ${label.toLowerCase()}`}>
          {value.map((code, i) => {
            const option = byCode.get(code)
            const problem = itemErrors[i] ?? (options && !option ? 'unknown role' : undefined)
            const cls = [
              'chip',
              problem ? 'chip--bad' : '',
              emphasize.includes(code) ? 'chip--accent' : '',
            ]
            return (
              <li
                key={code}
                className={cls.join(' ').trim()}
                data-testid={`${testId}-chip`}
                data-code={code}
              >
                <span className="chip__label" title={option?.description ?? option?.name}>
                  <span className="mono">{code}</span>
                  {option && option.name !== code && (
                    <span className="chip__name"> · {option.name}</span>
                  )}
                </span>
                {!disabled && (
                  <button
                    type="button"
                    className="chip__remove"
                    aria-label={`Remove ${code}`}
                    onClick={() => onChange(value.filter((c) => c !== code))}
                  >
                    ×
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {!disabled && (
        <Combobox
          value={null}
          onChange={(option: RoleOption | null) => {
            if (option && !value.includes(option.code)) onChange([...value, option.code])
            setQuery('')
          }}
          onClose={() => setQuery('')}
          immediate
        >
          <div className="combo">
            <ComboboxInput
              className="input"
              aria-label={`Add ${label.toLowerCase()}`}
              placeholder={options ? 'Add a role: type a name or code…' : 'Loading roles…'}
              displayValue={() => query}
              onChange={(e) => setQuery(e.target.value)}
              data-testid={`${testId}-input`}
            />
            <ComboboxButton
              className="combo__toggle"
              aria-label={`Show the ${label.toLowerCase()}`}
            >
              ▾
            </ComboboxButton>
            <ComboboxOptions className="combo__options" modal={false}>
              {candidates.length === 0 && (
                <div className="combo__empty">
                  {options ? 'No other role matches.' : 'Loading…'}
                </div>
              )}
              {candidates.slice(0, MAX_SHOWN).map((option) => (
                <ComboboxOption
                  key={option.code}
                  value={option}
                  className="combo__option"
                  data-testid={`${testId}-option`}
                >
                  <span className="mono">{option.code}</span>
                  <span className="combo__meta">
                    {option.name !== option.code ? option.name : ''}
                    {option.builtIn && <span className="badge badge--outline">built-in</span>}
                  </span>
                </ComboboxOption>
              ))}
            </ComboboxOptions>
          </div>
        </Combobox>
      )}
      {hint && (
        <div id={`${id}-hint`} className="field__hint">
          {hint}
        </div>
      )}
      {messages.length > 0 && (
        <div id={`${id}-error`} className="field__error" role="alert" data-testid="field-error">
          {messages.join('; ')}
        </div>
      )}
    </fieldset>
  )
}
