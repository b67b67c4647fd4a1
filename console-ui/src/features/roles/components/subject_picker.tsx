/*
 * Picks a user or an OAuth client: a kind switch and a searchable list (users searched on the
 * server, clients filtered here). Used by the effective permissions page and the "see as"
 * preview of row-level roles.
 */
import { useDeferredValue, useId, useState } from 'react'
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react'
import { useClients, useUserSearch, type Subject } from '../api/roles'

interface Option {
  subject: Subject
  label: string
  hint: string
}

interface SubjectPickerProps {
  value: Subject | null
  onChange: (subject: Subject) => void
  /** Prefix of test ids (two pickers may share a page). */
  testId?: string
}

export function SubjectPicker({ value, onChange, testId = 'subject' }: SubjectPickerProps) {
  const [kind, setKind] = useState<Subject['kind']>(value?.kind ?? 'user')
  const [query, setQuery] = useState('')
  const q = useDeferredValue(query.trim())
  const users = useUserSearch(q, kind === 'user')
  const clients = useClients(kind === 'client')
  const id = useId()

  const options: Option[] =
    kind === 'user'
      ? (users.data?.users ?? []).map((u) => ({
          subject: { kind: 'user', name: u.username },
          label: u.username,
          hint: [[u.firstName, u.lastName].filter(Boolean).join(' '), u.active ? '' : 'inactive', u.builtIn ? 'anonymous URLs' : '']
            .filter(Boolean)
            .join(' · '),
        }))
      : (clients.data ?? [])
          .filter((c) => !q || c.clientId.toLowerCase().includes(q.toLowerCase()))
          .map((c) => ({
            subject: { kind: 'client', name: c.clientId },
            label: c.clientId,
            hint: [(c.resourceRoles ?? []).join(', ') || 'no roles', c.active ? '' : 'inactive'].filter(Boolean).join(' · '),
          }))
  const total = kind === 'user' ? users.data?.total : options.length

  return (
    <div className="subject-picker" data-testid={`${testId}-picker`}>
      <div className="subject-picker__kinds" role="radiogroup" aria-label="User or client">
        {(['user', 'client'] as const).map((k) => (
          <label key={k} className={kind === k ? 'subject-picker__kind subject-picker__kind--on' : 'subject-picker__kind'}>
            <input
              type="radio"
              name={`${id}-kind`}
              value={k}
              checked={kind === k}
              onChange={() => {
                setKind(k)
                setQuery('')
              }}
              data-testid={`${testId}-kind-${k}`}
            />
            {k === 'user' ? 'User' : 'Client'}
          </label>
        ))}
      </div>
      <Combobox<Option | null>
        value={value && value.kind === kind ? (options.find((o) => o.subject.name === value.name) ?? { subject: value, label: value.name, hint: '' }) : null}
        onChange={(option) => option && onChange(option.subject)}
        by={(a, b) => a?.subject.kind === b?.subject.kind && a?.subject.name === b?.subject.name}
      >
        <div className="subject-picker__box">
          <ComboboxInput
            className="input"
            aria-label={kind === 'user' ? 'Search users' : 'Search clients'}
            placeholder={kind === 'user' ? 'Search users by name or e-mail…' : 'Search clients…'}
            displayValue={(o: Option | null) => o?.label ?? ''}
            onChange={(e) => setQuery(e.target.value)}
            data-testid={`${testId}-search`}
          />
          <ComboboxOptions anchor="bottom start" className="subject-picker__options" data-testid={`${testId}-options`}>
            {options.length === 0 && <div className="subject-picker__none">Nothing found</div>}
            {options.map((o) => (
              <ComboboxOption key={o.label} value={o} className="subject-picker__option">
                <span className="mono">{o.label}</span>
                {o.hint && <span className="muted"> {o.hint}</span>}
              </ComboboxOption>
            ))}
            {total !== undefined && total > options.length && (
              <div className="subject-picker__none">{total - options.length} more: type to narrow</div>
            )}
          </ComboboxOptions>
        </div>
      </Combobox>
    </div>
  )
}
