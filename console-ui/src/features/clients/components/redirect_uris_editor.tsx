import { useEffect, useId, useRef, useState } from 'react'

/**
 * The local check of one redirect URI: present and absolute (`https://…`, `myapp:/cb`). The
 * server checks the rest (no fragment, no javascript:/data:/file:… schemes) and answers a 422
 * at `$.redirectUris[i]`, shown at the same row.
 */
export function redirectUriProblem(uri: string): string | undefined {
  const text = uri.trim()
  if (text === '') return 'Enter a URI, or remove this row'
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text))
    return 'Must be an absolute URI, e.g. https://app.example.com/callback'
  try {
    new URL(text)
  } catch {
    return 'Not a valid URI'
  }
  return undefined
}

export const redirectUriProblems = (uris: string[]) =>
  Object.fromEntries(
    uris.flatMap((uri, i) => {
      const problem = redirectUriProblem(uri)
      return problem ? [[i, problem] as const] : []
    })
  ) as Record<number, string>

interface RedirectUrisEditorProps {
  value: string[]
  onChange: (uris: string[]) => void
  /** The server's problems by row (`$.redirectUris[1]`). */
  itemErrors?: Record<number, string>
  /** The server's problem with the list itself (`$.redirectUris`). */
  error?: string
  /** Show the local problems of rows not yet left (after a save attempt). */
  showAll?: boolean
  disabled?: boolean
}

/** An editable list of redirect URIs: one input per row, its problem under it, add and remove. */
export function RedirectUrisEditor({
  value,
  onChange,
  itemErrors = {},
  error,
  showAll,
  disabled,
}: RedirectUrisEditorProps) {
  const id = useId()
  const [touched, setTouched] = useState<Set<number>>(new Set())
  const [focusRow, setFocusRow] = useState<number | null>(null)
  const inputs = useRef<(HTMLInputElement | null)[]>([])

  useEffect(() => {
    if (focusRow !== null) inputs.current[focusRow]?.focus()
    setFocusRow(null)
  }, [focusRow])

  const set = (i: number, uri: string) => onChange(value.map((u, j) => (j === i ? uri : u)))
  const remove = (i: number) => {
    onChange(value.filter((_, j) => j !== i))
    setTouched(new Set([...touched].filter((j) => j !== i).map((j) => (j > i ? j - 1 : j))))
  }
  const add = () => {
    onChange([...value, ''])
    setFocusRow(value.length)
  }

  return (
    <fieldset
      className={error ? 'uri-list field--invalid' : 'uri-list'}
      disabled={disabled}
      data-testid="redirect-uris"
    >
      <legend className="field__label">Redirect URIs</legend>
      <p className="field__hint" id={`${id}-hint`}>
        Where the login sends users back with a code. Matched exactly (loopback{' '}
        <span className="mono">127.0.0.1</span> may change port). Needed for authorization_code.
      </p>
      {value.length === 0 && <p className="muted uri-list__none">No redirect URI.</p>}
      <ol className="uri-list__rows">
        {value.map((uri, i) => {
          const local = touched.has(i) || showAll ? redirectUriProblem(uri) : undefined
          const problem = itemErrors[i] ?? local
          return (
            <li
              key={i}
              className={problem ? 'uri-list__row field--invalid' : 'uri-list__row'}
              data-testid="redirect-uri-row"
            >
              <div className="uri-list__line">
                <input
                  ref={(el) => {
                    inputs.current[i] = el
                  }}
                  className="input mono"
                  value={uri}
                  onChange={(e) => set(i, e.target.value)}
                  onBlur={() => setTouched(new Set(touched).add(i))}
                  placeholder="https://app.example.com/callback"
                  aria-label={`Redirect URI ${i + 1}`}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-error-${i}` : `${id}-hint`}
                  spellCheck={false}
                  autoComplete="off"
                  data-testid="redirect-uri-input"
                />
                {!disabled && (
                  <button
                    type="button"
                    className="btn btn--small"
                    onClick={() => remove(i)}
                    aria-label={`Remove redirect URI ${i + 1}`}
                  >
                    Remove
                  </button>
                )}
              </div>
              {problem && (
                <div
                  id={`${id}-error-${i}`}
                  className="field__error"
                  role="alert"
                  data-testid="field-error"
                  data-row={i}
                >
                  {problem}
                </div>
              )}
            </li>
          )
        })}
      </ol>
      {!disabled && (
        <button
          type="button"
          className="btn btn--small"
          onClick={add}
          data-testid="redirect-uri-add"
        >
          + Add redirect URI
        </button>
      )}
      {error && (
        <div className="field__error" role="alert" data-testid="field-error">
          {error}
        </div>
      )}
    </fieldset>
  )
}
