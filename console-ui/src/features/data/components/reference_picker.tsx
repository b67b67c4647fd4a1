/*
 * A searchable picker over the rows of a target entity (`POST /rest/entities/{target}/search`,
 * `contains` over the string attributes of its instance name), showing `_instanceName`.
 */
import { useEffect, useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
} from '@headlessui/react'
import { api } from '../../../lib/api'
import { useModelEntities } from '../../../lib/model'
import type { ReferenceInputProps } from '../../../components/filter/filter_builder'
import { dataKeys } from '../api/keys'
import { searchOptions } from '../api/rest'
import { searchPaths, type EntityRow } from '../api/schema'

export interface RefValue {
  id: string
  _instanceName?: string
  _entityName?: string
}

export interface ReferencePickerProps {
  'target': string
  'value': RefValue | null
  'onChange': (value: RefValue | null) => void
  /** From Field (label association) or given. */
  'id'?: string
  'aria-label'?: string
  'aria-invalid'?: boolean
  'aria-describedby'?: string
  'testId'?: string
  'disabled'?: boolean
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return v
}

export function ReferencePicker({
  target,
  value,
  onChange,
  testId,
  disabled,
  ...aria
}: ReferencePickerProps) {
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const needle = useDebounced(text.trim(), 200)
  const model = useModelEntities()
  const paths = useMemo(() => {
    const byName = new Map((model.data ?? []).map((e) => [e.name, e]))
    const entity = byName.get(target)
    return entity ? searchPaths(entity, byName) : []
  }, [model.data, target])
  const options = useQuery({
    queryKey: dataKeys.options(target, needle),
    queryFn: ({ signal }) => searchOptions(target, paths, needle, signal),
    enabled: open && model.isSuccess,
    staleTime: 10_000,
  })
  // A value known by id only (a filter from the URL): read its instance name.
  const named = useQuery({
    queryKey: [...dataKeys.row(target, value?.id ?? ''), 'name'],
    queryFn: ({ signal }) =>
      api.get<EntityRow>(
        `/rest/entities/${encodeURIComponent(target)}/${encodeURIComponent(value!.id)}?fetchPlan=_instance_name`,
        signal
      ),
    enabled: !!value?.id && !value._instanceName,
    retry: false,
  })
  const shown: RefValue | null =
    value && !value._instanceName && named.data
      ? { ...value, _instanceName: named.data._instanceName }
      : value

  return (
    <div className="ref-picker" data-testid={testId}>
      <Combobox
        value={shown}
        by={(a: RefValue | null, b: RefValue | null) => a?.id === b?.id}
        onChange={(v: RefValue | null) => {
          onChange(v ? { id: v.id, _instanceName: v._instanceName, _entityName: target } : null)
          setText('')
        }}
        onClose={() => {
          setText('')
          setOpen(false)
        }}
        disabled={disabled}
      >
        <div className="ref-picker__control">
          <ComboboxInput
            className="input ref-picker__input"
            {...aria}
            displayValue={(v: RefValue | null) => (v ? (v._instanceName ?? v.id) : '')}
            onChange={(e) => {
              setText(e.target.value)
              setOpen(true)
            }}
            onFocus={() => setOpen(true)}
            placeholder={`Search ${target}…`}
            autoComplete="off"
          />
          <ComboboxButton
            className="btn btn--icon ref-picker__toggle"
            aria-label="Show choices"
            onClick={() => setOpen(true)}
          >
            ▾
          </ComboboxButton>
          {value && !disabled && (
            <button
              type="button"
              className="btn btn--icon ref-picker__clear"
              aria-label="Clear"
              onClick={() => onChange(null)}
            >
              ×
            </button>
          )}
        </div>
        <ComboboxOptions
          anchor="bottom start"
          className="ref-picker__options"
          data-testid="ref-options"
        >
          {options.isPending && <div className="ref-picker__note">Searching…</div>}
          {options.error && (
            <div className="ref-picker__note">
              Cannot list {target}: {(options.error as Error).message}
            </div>
          )}
          {options.data?.length === 0 && <div className="ref-picker__note">No match</div>}
          {options.data?.map((row) => (
            <ComboboxOption
              key={row.id}
              value={{ id: row.id, _instanceName: row._instanceName }}
              className="ref-picker__option"
              data-testid="ref-option"
            >
              <span>{row._instanceName || row.id}</span>
              <span className="mono muted data-small">{row.id}</span>
            </ComboboxOption>
          ))}
        </ComboboxOptions>
      </Combobox>
    </div>
  )
}

/** The filter builder's reference input: the picker, with the id as the filter value. */
export function FilterReferenceInput({
  target,
  value,
  onChange,
  label,
  invalid,
}: ReferenceInputProps) {
  return (
    <ReferencePicker
      target={target}
      value={value ? { id: value } : null}
      onChange={(v) => onChange(v?.id ?? '')}
      aria-label={label}
      aria-invalid={invalid || undefined}
    />
  )
}
