import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Dialog } from '../../../components/ui/dialog'
import { Field } from '../../../components/ui/field'
import { ApiError } from '../../../lib/api'
import { errorText, problemsOf } from '../../../lib/admin'
import { storeAvailableLocales } from '../api/messages'

interface AddLocaleDialogProps {
  open: boolean
  onClose: () => void
  /** The available locales now. */
  locales: string[]
  version: number | null
}

/** `de-at` -> `de_AT` (Java's form, as the server stores translations). */
export function javaForm(tag: string): string {
  const [language, country, ...rest] = tag.trim().split(/[-_]/)
  if (!language) return ''
  const parts = [language.toLowerCase()]
  if (country) parts.push(country.length === 2 ? country.toUpperCase() : country)
  return [...parts, ...rest].join('_')
}

/**
 * Adds a locale to svc.core.available-locales (stored: wins over the file and the environment).
 * The server validates the code; its message shows at the field.
 */
export function AddLocaleDialog({ open, onClose, locales, version }: AddLocaleDialogProps) {
  const queryClient = useQueryClient()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const locale = javaForm(code)
  const close = () => {
    setCode('')
    setError(undefined)
    onClose()
  }

  async function submit() {
    if (!locale) return setError('Enter a locale code such as de or pt_BR.')
    if (locales.includes(locale)) return setError(`${locale} is already available.`)
    setBusy(true)
    try {
      await storeAvailableLocales([...locales, locale], version)
      toast.success(`Locale ${locale} added`, { description: 'Its column is empty until texts are entered' })
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      close()
    } catch (e) {
      if (e instanceof ApiError && e.status === 422)
        setError(problemsOf(e).map((p) => p.message.replace(/^svc\.core\.available-locales: /, '')).join('; ') || errorText(e))
      else if (e instanceof ApiError && e.status === 412) {
        setError('Someone else changed the definition meanwhile; the page now shows their change. Try again.')
        await queryClient.invalidateQueries({ queryKey: ['admin'] })
      } else setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add a locale"
      testId="add-locale-dialog"
      actions={
        <>
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type="submit" form="add-locale-form" className="btn btn--primary" disabled={busy || !code.trim()} data-testid="add-locale-submit">
            {busy ? 'Adding…' : 'Add locale'}
          </button>
        </>
      }
    >
      <form
        id="add-locale-form"
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <Field
          label="Locale code"
          error={error}
          hint={
            <>
              As Java writes it: <span className="mono">de</span>, <span className="mono">pt_BR</span>,{' '}
              <span className="mono">es_419</span>.
              {locale && locale !== code.trim() && (
                <>
                  {' '}
                  Added as <strong className="mono">{locale}</strong>.
                </>
              )}{' '}
              Now available: <span className="mono">{locales.join(', ')}</span>.
            </>
          }
        >
          <input
            className="input mono"
            value={code}
            onChange={(e) => {
              setCode(e.target.value)
              setError(undefined)
            }}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            data-testid="add-locale-code"
          />
        </Field>
        <p className="muted">
          Adds it to <span className="mono">svc.core.available-locales</span>, stored in the database (it wins over
          config/application.properties and the environment). /rest/messages then answers it for a matching
          Accept-Language.
        </p>
      </form>
    </Dialog>
  )
}
