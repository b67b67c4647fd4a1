import { useId, useRef, useState, type ReactNode } from 'react'
import { toast } from 'sonner'

interface ShownOnceProps {
  /** Heading, e.g. "Password of alice". */
  title: string
  /** What the value is, for the input's label ("Password", "Client secret"). */
  label: string
  value: string
  /** Prefix of the test ids: `<testId>`, `<testId>-value`, `<testId>-copy`. */
  testId: string
  /** More to say under the warning (what to do with it). */
  children?: ReactNode
  /** Shows an "I have stored it" button that hides the panel. */
  onDone?: () => void
}

/** Puts `text` on the clipboard; false when the browser refuses (then the text is selected). */
export async function copyText(text: string, fallback?: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    fallback?.select()
    try {
      return document.execCommand('copy')
    } catch {
      return false
    }
  }
}

/**
 * A secret the server answers exactly once (a generated password, a client secret): shown in
 * full with a copy button and a plain warning that it cannot be shown again.
 */
export function ShownOnce({ title, label, value, testId, children, onDone }: ShownOnceProps) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState(false)

  async function copy() {
    const ok = await copyText(value, input.current)
    setCopied(ok)
    if (ok) toast.success(`${label} copied`)
    else toast.error('The browser refused the clipboard: the value is selected, press Ctrl+C')
  }

  return (
    <section className="shown-once" aria-labelledby={`${id}-title`} data-testid={testId}>
      <h2 className="shown-once__title" id={`${id}-title`}>
        <span className="badge badge--warn shown-once__tag">Shown once</span> {title}
      </h2>
      <p className="shown-once__warning" data-testid={`${testId}-warning`}>
        <strong>Shown only this once.</strong> Only a hash is stored, so nobody can show it again —
        not even here. Copy it now and hand it over through a safe channel.
      </p>
      <div className="shown-once__row">
        <input
          ref={input}
          aria-label={label}
          className="input mono shown-once__value"
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          data-testid={`${testId}-value`}
          spellCheck={false}
        />
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => void copy()}
          data-testid={`${testId}-copy`}
        >
          {copied ? 'Copied ✓' : 'Copy'}
        </button>
      </div>
      {children}
      {onDone && (
        <button
          type="button"
          className="btn btn--small shown-once__done"
          onClick={onDone}
          data-testid={`${testId}-done`}
        >
          I have stored it — hide
        </button>
      )}
    </section>
  )
}
