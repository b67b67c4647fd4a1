import { useId } from 'react'

/** The fields of a dataset: chips in order, and a list of property paths to add from. */
export function FieldsPicker({ value, options, onChange, error, testId }: { value: string[]; options: string[]; onChange: (v: string[]) => void; error?: string; testId: string }) {
  const id = useId()
  const left = options.filter((o) => !value.includes(o))
  return (
    <div className={error ? 'field field--invalid' : 'field'} data-testid={testId}>
      <label className="field__label" htmlFor={id}>
        Fields
      </label>
      {value.length > 0 ? (
        <ul className="chips" aria-label="Chosen fields">
          {value.map((f) => (
            <li key={f} className="chip mono">
              {f}
              <button type="button" className="chip__remove" aria-label={`Remove field ${f}`} onClick={() => onChange(value.filter((x) => x !== f))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted rp-small rp-flush">None chosen: the band shows the fetch plan's (or every local) attribute.</p>
      )}
      <select
        id={id}
        value=""
        onChange={(e) => {
          if (e.target.value === '*') onChange([...value, ...left.filter((p) => !p.includes('.'))])
          else if (e.target.value) onChange([...value, e.target.value])
        }}
        data-testid={`${testId}-add`}
      >
        <option value="">Add a field…</option>
        {left.some((p) => !p.includes('.')) && <option value="*">All direct attributes</option>}
        {left.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
      {error && (
        <div className="field__error" role="alert" data-testid="field-error">
          {error}
        </div>
      )}
    </div>
  )
}
