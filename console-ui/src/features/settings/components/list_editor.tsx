import { useRef } from 'react'

interface ListEditorProps {
  /** Accessible name of the list; rows are "<label> 1", "<label> 2"… */
  label: string
  values: string[]
  onChange: (values: string[]) => void
  /** The server's message per row index. */
  rowErrors?: Record<number, string>
  placeholder?: string
  /** Prefix of the rows' data-testids (`<testId>-row`, `<testId>-add`…). */
  testId: string
  addLabel?: string
}

/**
 * A list edited row by row: one input per entry, a remove button per row, an add button; Enter
 * in a row adds the next one. A row the server refused shows its message under it.
 */
export function ListEditor({
  label,
  values,
  onChange,
  rowErrors = {},
  placeholder,
  testId,
  addLabel = 'Add',
}: ListEditorProps) {
  const list = useRef<HTMLOListElement>(null)
  const focusRow = (index: number) =>
    requestAnimationFrame(() =>
      list.current?.querySelectorAll<HTMLInputElement>('input')[index]?.focus()
    )
  const add = (at = values.length) => {
    onChange([...values.slice(0, at), '', ...values.slice(at)])
    focusRow(at)
  }
  const remove = (index: number) => {
    onChange(values.filter((_, i) => i !== index))
    focusRow(Math.max(0, index - 1))
  }
  return (
    <div className="list-editor" data-testid={testId}>
      {values.length === 0 && <p className="muted list-editor__empty">No entries.</p>}
      <ol className="list-editor__rows" ref={list} aria-label={label}>
        {values.map((value, i) => {
          const error = rowErrors[i]
          const errorId = `${testId}-error-${i}`
          return (
            <li key={i} className={error ? 'list-editor__row list-editor__row--invalid' : 'list-editor__row'} data-testid={`${testId}-row`}>
              <div className="list-editor__line">
                <input
                  className="input mono"
                  value={value}
                  placeholder={placeholder}
                  aria-label={`${label} ${i + 1}`}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? errorId : undefined}
                  onChange={(e) => onChange(values.map((v, j) => (j === i ? e.target.value : v)))}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault()
                      add(i + 1)
                    }
                  }}
                  data-testid={`${testId}-input`}
                />
                <button
                  type="button"
                  className="btn btn--icon"
                  aria-label={`Remove ${label.toLowerCase()} ${i + 1}`}
                  title="Remove"
                  onClick={() => remove(i)}
                  data-testid={`${testId}-remove`}
                >
                  ×
                </button>
              </div>
              {error && (
                <div id={errorId} className="field__error" role="alert" data-testid="field-error">
                  {error}
                </div>
              )}
            </li>
          )
        })}
      </ol>
      <button type="button" className="btn btn--small" onClick={() => add()} data-testid={`${testId}-add`}>
        + {addLabel}
      </button>
    </div>
  )
}
