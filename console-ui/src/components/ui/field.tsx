import { useId, type ReactElement, type ReactNode, cloneElement } from 'react'

interface FieldProps {
  label: ReactNode
  /** The server's (or a local) error for this field, shown under it. */
  error?: string
  hint?: ReactNode
  /** One input/select/textarea; gets id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>
  className?: string
}

/** A labelled form control with its hint and its error (from a 422's problem at this path). */
export function Field({ label, error, hint, children, className }: FieldProps) {
  const id = useId()
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return (
    <div className={['field', error ? 'field--invalid' : '', className ?? ''].join(' ').trim()}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <div id={`${id}-hint`} className="field__hint">
          {hint}
        </div>
      )}
      {error && (
        <div id={`${id}-error`} className="field__error" role="alert" data-testid="field-error">
          {error}
        </div>
      )}
    </div>
  )
}
