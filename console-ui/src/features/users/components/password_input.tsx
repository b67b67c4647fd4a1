import { useId, useState } from 'react'

export type PasswordMode = 'generate' | 'set'

interface PasswordChoiceProps {
  mode: PasswordMode
  onMode: (mode: PasswordMode) => void
  password: string
  onPassword: (password: string) => void
  error?: string
  /** Prefix of the test ids. */
  testId: string
  /** The group's legend. */
  legend?: string
}

/**
 * Generate a password (the server answers it once) or type one (at least 8 characters), with a
 * show/hide toggle.
 */
export function PasswordChoice({
  mode,
  onMode,
  password,
  onPassword,
  error,
  testId,
  legend = 'Password',
}: PasswordChoiceProps) {
  const id = useId()
  const [visible, setVisible] = useState(false)
  return (
    <fieldset className={error ? 'password-choice field--invalid' : 'password-choice'}>
      <legend className="field__label">{legend}</legend>
      <label className="check">
        <input
          type="radio"
          name={`${id}-mode`}
          checked={mode === 'generate'}
          onChange={() => onMode('generate')}
          data-testid={`${testId}-generate`}
        />
        <span>
          Generate a strong password <span className="muted">(shown once, after saving)</span>
        </span>
      </label>
      <label className="check">
        <input
          type="radio"
          name={`${id}-mode`}
          checked={mode === 'set'}
          onChange={() => onMode('set')}
          data-testid={`${testId}-set`}
        />
        <span>Type a password</span>
      </label>
      {mode === 'set' && (
        <div className="password-choice__input">
          <input
            id={`${id}-password`}
            className="input"
            type={visible ? 'text' : 'password'}
            value={password}
            onChange={(e) => onPassword(e.target.value)}
            autoComplete="new-password"
            aria-label="New password"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            data-testid={`${testId}-input`}
          />
          <button
            type="button"
            className="btn btn--small"
            onClick={() => setVisible((v) => !v)}
            aria-pressed={visible}
          >
            {visible ? 'Hide' : 'Show'}
          </button>
        </div>
      )}
      <div id={`${id}-hint`} className="field__hint">
        At least 8 characters. Only a hash is stored.
      </div>
      {error && (
        <div id={`${id}-error`} className="field__error" role="alert" data-testid="field-error">
          {error}
        </div>
      )}
    </fieldset>
  )
}
