import { Field } from '../../../components/ui/field'
import type { User, UserProfile } from '../api/users'
import { TimeZonePicker } from './time_zone_picker'

/** The profile as a form holds it: text inputs ('' is "not set"). */
export interface ProfileDraft {
  firstName: string
  lastName: string
  email: string
  locale: string
  timeZone: string | null
}

export const emptyProfile: ProfileDraft = {
  firstName: '',
  lastName: '',
  email: '',
  locale: '',
  timeZone: null,
}

export const profileOf = (user: User): ProfileDraft => ({
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
  email: user.email ?? '',
  locale: user.locale ?? '',
  timeZone: user.timeZone,
})

const orNull = (text: string) => (text.trim() === '' ? null : text.trim())

/** The body fields: empty text clears the field (null). */
export const profileBody = (draft: ProfileDraft): UserProfile => ({
  firstName: orNull(draft.firstName),
  lastName: orNull(draft.lastName),
  email: orNull(draft.email),
  locale: orNull(draft.locale),
  timeZone: draft.timeZone,
})

/** Only the fields that differ from `user` (PATCH leaves the others alone). */
export function changedProfile(user: User, draft: ProfileDraft): Partial<UserProfile> {
  const body = profileBody(draft)
  const out: Partial<UserProfile> = {}
  for (const key of Object.keys(body) as (keyof UserProfile)[])
    if (body[key] !== user[key]) out[key] = body[key]
  return out
}

interface ProfileFieldsProps {
  draft: ProfileDraft
  onChange: (next: ProfileDraft) => void
  /** Field errors keyed by body path (`email`, `locale`…). */
  errors: Record<string, string>
  disabled?: boolean
}

/** Names, e-mail, locale and time zone of a user. */
export function ProfileFields({ draft, onChange, errors, disabled }: ProfileFieldsProps) {
  const set = (key: keyof ProfileDraft) => (e: { target: { value: string } }) =>
    onChange({ ...draft, [key]: e.target.value })
  return (
    <div className="form-grid">
      <Field label="First name" error={errors.firstName}>
        <input
          value={draft.firstName}
          onChange={set('firstName')}
          disabled={disabled}
          autoComplete="off"
          data-testid="user-first-name"
        />
      </Field>
      <Field label="Last name" error={errors.lastName}>
        <input
          value={draft.lastName}
          onChange={set('lastName')}
          disabled={disabled}
          autoComplete="off"
          data-testid="user-last-name"
        />
      </Field>
      <Field label="E-mail" error={errors.email}>
        <input
          type="email"
          value={draft.email}
          onChange={set('email')}
          disabled={disabled}
          autoComplete="off"
          data-testid="user-email"
        />
      </Field>
      <Field label="Locale" error={errors.locale} hint="A language tag: en, de, de-CH.">
        <input
          value={draft.locale}
          onChange={set('locale')}
          disabled={disabled}
          list="user-locales"
          autoComplete="off"
          data-testid="user-locale"
        />
      </Field>
      <datalist id="user-locales">
        {['en', 'en-GB', 'de', 'de-CH', 'fr', 'it', 'es', 'nl', 'pt-BR', 'ru', 'zh', 'ja'].map(
          (l) => (
            <option key={l} value={l} />
          )
        )}
      </datalist>
      <TimeZonePicker
        value={draft.timeZone}
        onChange={(timeZone) => onChange({ ...draft, timeZone })}
        error={errors.timeZone}
        disabled={disabled}
      />
    </div>
  )
}
