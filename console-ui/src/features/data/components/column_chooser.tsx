import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import type { ModelAttribute } from '../../../lib/model'

interface ColumnChooserProps {
  attributes: ModelAttribute[]
  columns: string[]
  onChange: (columns: string[] | null) => void
  captions: Record<string, string>
  customised: boolean
}

/** Which attributes the table shows (kept per entity in this browser). */
export function ColumnChooser({
  attributes,
  columns,
  onChange,
  captions,
  customised,
}: ColumnChooserProps) {
  const shown = new Set(columns)
  const toggle = (name: string) => {
    const next = attributes
      .map((a) => a.name)
      .filter((n) => (n === name ? !shown.has(n) : shown.has(n)))
    onChange(next)
  }
  return (
    <Popover className="data-popover">
      <PopoverButton className="btn" data-testid="columns-button">
        Columns <span className="badge">{columns.length}</span>
      </PopoverButton>
      <PopoverPanel anchor="bottom end" className="data-popover__panel" data-testid="columns-panel">
        <fieldset className="data-columns">
          <legend className="data-columns__legend">Columns shown</legend>
          {attributes.map((a) => (
            <label key={a.name} className="check data-columns__item">
              <input
                type="checkbox"
                checked={shown.has(a.name)}
                onChange={() => toggle(a.name)}
                data-testid={`column-${a.name}`}
              />
              <span>{captions[a.name] ?? a.name}</span>
              {captions[a.name] && captions[a.name] !== a.name && (
                <span className="mono muted data-small">{a.name}</span>
              )}
            </label>
          ))}
        </fieldset>
        <div className="data-columns__actions">
          <button
            type="button"
            className="btn btn--small"
            onClick={() => onChange(attributes.map((a) => a.name))}
          >
            All
          </button>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => onChange(null)}
            disabled={!customised}
          >
            Default
          </button>
        </div>
      </PopoverPanel>
    </Popover>
  )
}
