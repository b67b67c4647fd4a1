import { useMemo, useState } from 'react'
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react'

interface ErSearchProps {
  names: string[]
  focus: string | null
  onFocus: (name: string | null) => void
  onlyRelated: boolean
  onOnlyRelated: (value: boolean) => void
  onFit: () => void
}

/** Find an entity by name: the diagram zooms to it and its neighbours, the rest is dimmed. */
export function ErSearch({ names, focus, onFocus, onlyRelated, onOnlyRelated, onFit }: ErSearchProps) {
  const [query, setQuery] = useState('')
  const hits = useMemo(() => {
    const q = query.trim().toLowerCase()
    const matching = q ? names.filter((n) => n.toLowerCase().includes(q)) : names
    return [...matching]
      .sort((a, b) => Number(!a.toLowerCase().startsWith(q)) - Number(!b.toLowerCase().startsWith(q)) || a.localeCompare(b))
      .slice(0, 40)
  }, [names, query])

  return (
    <div className="toolbar er-toolbar" data-testid="er-toolbar">
      <Combobox<string | null>
        value={focus}
        onChange={(name) => {
          setQuery('')
          onFocus(name)
        }}
        onClose={() => setQuery('')}
      >
        <div className="er-search">
          <ComboboxInput
            className="input"
            aria-label="Focus an entity"
            placeholder="Focus an entity…"
            displayValue={(name: string | null) => name ?? ''}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="er-search"
          />
          <ComboboxOptions anchor="bottom start" className="er-search__options" data-testid="er-search-options">
            {hits.length === 0 && <div className="er-search__none">No entity matches “{query}”.</div>}
            {hits.map((name) => (
              <ComboboxOption key={name} value={name} className="er-search__option">
                {name}
              </ComboboxOption>
            ))}
          </ComboboxOptions>
        </div>
      </Combobox>
      {focus && (
        <>
          <label className="check">
            <input
              type="checkbox"
              checked={onlyRelated}
              onChange={(e) => onOnlyRelated(e.target.checked)}
              data-testid="er-only-related"
            />
            Only related entities
          </label>
          <button type="button" className="btn btn--small" onClick={() => onFocus(null)} data-testid="er-clear">
            Show all
          </button>
        </>
      )}
      <button type="button" className="btn btn--small" onClick={onFit} data-testid="er-fit">
        Fit to screen
      </button>
      <span className="er-legend muted">
        <span className="er-legend__item">
          <svg width="34" height="10" aria-hidden="true">
            <line x1="0" y1="5" x2="24" y2="5" className="er-legend__assoc" />
            <path d="M22 1 L32 5 L22 9" className="er-legend__arrow" />
          </svg>
          association
        </span>
        <span className="er-legend__item">
          <svg width="34" height="10" aria-hidden="true">
            <path d="M1 5 L8 1 L15 5 L8 9 Z" className="er-legend__diamond" />
            <line x1="15" y1="5" x2="34" y2="5" className="er-legend__comp" />
          </svg>
          composition (◆ at the parent)
        </span>
        <span className="er-legend__item">1 · 0..1 · * cardinality</span>
      </span>
    </div>
  )
}
