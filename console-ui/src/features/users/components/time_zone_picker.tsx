import { useId, useMemo, useState } from 'react'
import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
} from '@headlessui/react'

const MAX_SHOWN = 80
const offsets = new Map<string, string>()

/** Every IANA zone the browser knows (Intl), `UTC` first. */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] }
  const zones = intl.supportedValuesOf?.('timeZone') ?? []
  return ['UTC', ...zones.filter((z) => z !== 'UTC')]
}

/** "UTC+01:00" for a zone (now), cached; '' when the browser cannot tell. */
export function offsetOf(zone: string): string {
  if (!offsets.has(zone)) {
    let text = ''
    try {
      const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
        .formatToParts(new Date())
        .find((p) => p.type === 'timeZoneName')
      text = part?.value.replace('GMT', 'UTC') ?? ''
      if (text === 'UTC') text = 'UTC+00:00'
    } catch {
      text = ''
    }
    offsets.set(zone, text)
  }
  return offsets.get(zone)!
}

/** Zones whose name contains every word of the query ("new york", "berlin", "utc+1" by offset). */
export function matchZones(zones: string[], query: string): string[] {
  const words = query.trim().toLowerCase().replace(/_/g, ' ').split(/\s+/).filter(Boolean)
  if (!words.length) return zones
  return zones.filter((zone) => {
    const text = `${zone.toLowerCase().replace(/_/g, ' ')} ${offsetOf(zone).toLowerCase()}`
    return words.every((w) => text.includes(w))
  })
}

interface TimeZonePickerProps {
  value: string | null
  onChange: (zone: string | null) => void
  error?: string
  disabled?: boolean
}

/** A searchable list of the IANA time zones, with the current UTC offset of each. */
export function TimeZonePicker({ value, onChange, error, disabled }: TimeZonePickerProps) {
  const id = useId()
  const zones = useMemo(timeZones, [])
  const [query, setQuery] = useState('')
  const matches = matchZones(zones, query)
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={`${id}-input`}>
        Time zone
      </label>
      <Combobox
        value={value}
        onChange={onChange}
        onClose={() => setQuery('')}
        disabled={disabled}
        immediate
      >
        <div className="combo">
          <ComboboxInput
            id={`${id}-input`}
            className="input"
            placeholder="Search: Berlin, New York, UTC+2…"
            displayValue={(zone: string | null) => zone ?? ''}
            onChange={(e) => setQuery(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            data-testid="user-timezone"
            autoComplete="off"
          />
          <ComboboxButton className="combo__toggle" aria-label="Show the time zones">
            ▾
          </ComboboxButton>
          {value && !disabled && (
            <button
              type="button"
              className="combo__clear"
              aria-label="Clear the time zone"
              onClick={() => onChange(null)}
            >
              ×
            </button>
          )}
          <ComboboxOptions className="combo__options" modal={false}>
            {matches.length === 0 && (
              <div className="combo__empty">No time zone matches “{query}”.</div>
            )}
            {matches.slice(0, MAX_SHOWN).map((zone) => (
              <ComboboxOption
                key={zone}
                value={zone}
                className="combo__option"
                data-testid="timezone-option"
              >
                <span>{zone.replace(/_/g, ' ')}</span>
                <span className="combo__meta mono">{offsetOf(zone)}</span>
              </ComboboxOption>
            ))}
            {matches.length > MAX_SHOWN && (
              <div className="combo__empty">
                {matches.length - MAX_SHOWN} more — type to narrow the list.
              </div>
            )}
          </ComboboxOptions>
        </div>
      </Combobox>
      {error ? (
        <div id={`${id}-error`} className="field__error" role="alert" data-testid="field-error">
          {error}
        </div>
      ) : (
        <div id={`${id}-hint`} className="field__hint">
          Optional. {zones.length} IANA zones, with their offset today.
        </div>
      )}
    </div>
  )
}
