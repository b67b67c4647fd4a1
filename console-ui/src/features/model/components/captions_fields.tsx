import { Field } from '../../../components/ui/field'
import type { Captions } from '../../../lib/model'

interface CaptionsFieldsProps {
  value: Captions | undefined
  locales: string[]
  onChange: (next: Captions) => void
  /** Error of the `caption` path, if any. */
  error?: string
  label?: string
  testId?: string
}

/** One caption input per available locale (svc.core.available-locales). */
export function CaptionsFields({
  value,
  locales,
  onChange,
  error,
  label = 'Caption',
  testId,
}: CaptionsFieldsProps) {
  const captions = value ?? {}
  return (
    <div className="captions" data-testid={testId}>
      {locales.map((locale, i) => (
        <Field
          key={locale}
          label={
            <>
              {label} <span className="badge badge--outline">{locale}</span>
            </>
          }
          error={i === 0 ? error : undefined}
        >
          <input
            value={captions[locale] ?? ''}
            onChange={(e) => onChange({ ...captions, [locale]: e.target.value })}
            data-testid={testId ? `${testId}-${locale}` : undefined}
          />
        </Field>
      ))}
    </div>
  )
}
