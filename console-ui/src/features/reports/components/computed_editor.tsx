import { useState } from 'react'

/** Computed fields of a band: name -> filtrex expression over the row's fields. */
export function ComputedEditor({ value, onChange, errors }: { value: Record<string, string>; onChange: (v: Record<string, string>) => void; errors: Record<string, string> }) {
  // Rows keep their order and allow a blank name while typing.
  const [rows, setRows] = useState<[string, string][]>(() => Object.entries(value))
  const commit = (next: [string, string][]) => {
    setRows(next)
    onChange(Object.fromEntries(next.filter(([k]) => k.trim())))
  }
  return (
    <div data-testid="computed-fields">
      {rows.length === 0 && <p className="muted rp-small">None. A computed field is an expression over the row, e.g. <code>price * quantity</code>.</p>}
      {rows.map(([name, expr], i) => {
        const error = errors[name] ?? errors[`["${name}"]`]
        return (
          <div className="rp-row" key={i}>
            <div className={error ? 'field field--invalid' : 'field'}>
              <input className="input mono" aria-label={`Computed field ${i + 1} name`} value={name} onChange={(e) => commit(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))} placeholder="total" />
            </div>
            <span className="rp-eq" aria-hidden="true">
              =
            </span>
            <div className={error ? 'field field--invalid' : 'field'}>
              <input className="input mono" aria-label={`Computed field ${i + 1} expression`} value={expr} onChange={(e) => commit(rows.map((r, j) => (j === i ? [r[0], e.target.value] : r)))} placeholder="price * quantity" />
              {error && (
                <div className="field__error" role="alert">
                  {error}
                </div>
              )}
            </div>
            <button type="button" className="btn btn--small rp-row__remove" aria-label={`Remove computed field ${name || i + 1}`} onClick={() => commit(rows.filter((_, j) => j !== i))}>
              Remove
            </button>
          </div>
        )
      })}
      <button type="button" className="btn btn--small" onClick={() => setRows([...rows, ['', '']])} data-testid="computed-add">
        + Computed field
      </button>
    </div>
  )
}
