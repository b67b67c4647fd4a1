import { useId } from 'react'
import { Field } from '../../../components/ui/field'
import { listErrors } from '../../users/components/form_errors'
import { isPublic, withType, type ClientDraft } from './client_draft'

interface AuthenticationSectionProps {
  draft: ClientDraft
  onChange: (draft: ClientDraft) => void
  errors: Record<string, string>
  isNew: boolean
}

/** Client id (new clients), confidential or public, how the secret is sent, the first secret. */
export function AuthenticationSection({
  draft,
  onChange,
  errors,
  isNew,
}: AuthenticationSectionProps) {
  const id = useId()
  const pub = isPublic(draft)
  const set = <K extends keyof ClientDraft>(key: K, value: ClientDraft[K]) =>
    onChange({ ...draft, [key]: value })
  const toggle = (list: string[], value: string, on: boolean) =>
    on ? [...list, value] : list.filter((v) => v !== value)
  const methodErrors = listErrors(errors, 'authenticationMethods')
  return (
    <section className="panel">
      <h2 className="panel__title">Identity and authentication</h2>
      {isNew && (
        <Field
          label="Client id"
          error={errors.clientId}
          hint="Letters, digits and . _ ~ @ - (up to 100). Cannot be changed later."
        >
          <input
            value={draft.clientId}
            onChange={(e) => set('clientId', e.target.value)}
            autoComplete="off"
            data-testid="client-id-input"
          />
        </Field>
      )}
      <fieldset className="choice" aria-describedby={`${id}-type`}>
        <legend className="field__label">Client type</legend>
        <label className="check">
          <input
            type="radio"
            name={`${id}-type`}
            checked={!pub}
            onChange={() => onChange(withType(draft, false))}
            data-testid="client-confidential"
          />
          <span>
            <strong>Confidential</strong> — a server that can keep a secret
          </span>
        </label>
        <label className="check">
          <input
            type="radio"
            name={`${id}-type`}
            checked={pub}
            onChange={() => onChange(withType(draft, true))}
            data-testid="client-public"
          />
          <span>
            <strong>Public</strong> — a browser or mobile app: no secret, PKCE always
          </span>
        </label>
      </fieldset>
      {!pub && (
        <fieldset
          className={
            methodErrors.error || Object.keys(methodErrors.items).length
              ? 'choice field--invalid'
              : 'choice'
          }
        >
          <legend className="field__label">The client sends its secret</legend>
          {(['client_secret_basic', 'client_secret_post'] as const).map((m, i) => (
            <label key={m} className="check">
              <input
                type="checkbox"
                checked={draft.authenticationMethods.includes(m)}
                onChange={(e) =>
                  set(
                    'authenticationMethods',
                    toggle(draft.authenticationMethods, m, e.target.checked)
                  )
                }
              />
              <span>
                {m === 'client_secret_basic'
                  ? 'in an Authorization: Basic header'
                  : 'in the form body'}{' '}
                <span className="mono muted">{m}</span>
              </span>
              {methodErrors.items[i] && (
                <span className="field__error">{methodErrors.items[i]}</span>
              )}
            </label>
          ))}
          {methodErrors.error && (
            <div className="field__error" data-testid="field-error">
              {methodErrors.error}
            </div>
          )}
        </fieldset>
      )}
      {isNew && !pub && (
        <fieldset className="choice">
          <legend className="field__label">Secret</legend>
          <label className="check">
            <input
              type="radio"
              name={`${id}-secret`}
              checked={draft.secretMode === 'generate'}
              onChange={() => set('secretMode', 'generate')}
            />
            <span>
              Generate a strong secret <span className="muted">(shown once, after saving)</span>
            </span>
          </label>
          <label className="check">
            <input
              type="radio"
              name={`${id}-secret`}
              checked={draft.secretMode === 'set'}
              onChange={() => set('secretMode', 'set')}
              data-testid="client-secret-set"
            />
            <span>Use my own secret</span>
          </label>
          {draft.secretMode === 'set' && (
            <Field
              label="Client secret"
              error={errors.clientSecret}
              hint="At least 16 characters; only its digest is stored."
            >
              <input
                type="password"
                value={draft.secret}
                onChange={(e) => set('secret', e.target.value)}
                autoComplete="new-password"
                data-testid="client-secret-input"
              />
            </Field>
          )}
        </fieldset>
      )}
    </section>
  )
}
