import { useId } from 'react'
import { Field } from '../../../components/ui/field'
import { ADMIN_ROLE, useRoleOptions } from '../../users/api/role_options'
import { RolePicker } from '../../users/components/role_picker'
import { listErrors } from '../../users/components/form_errors'
import { GRANT_TYPES } from '../api/clients'
import { advice, isPublic, type ClientDraft } from './client_draft'
import { AuthenticationSection } from './client_auth_section'
import { RedirectUrisEditor } from './redirect_uris_editor'

const GRANT_HELP: Record<string, string> = {
  client_credentials: 'The client acts as itself (server to server), with the roles below.',
  authorization_code:
    'Users sign in on the login form; the app gets tokens for them. Needs a redirect URI.',
  refresh_token:
    'New access tokens without signing in again (with authorization_code or password).',
  password: 'Legacy: the app collects the user’s password itself. Avoid.',
}
const CONFIDENTIAL_ONLY = ['client_credentials', 'password']
const DURATIONS = ['30s', '5m', '15m', '1h', '8h', '24h', '7d', '30d']

interface ClientFieldsProps {
  draft: ClientDraft
  onChange: (draft: ClientDraft) => void
  errors: Record<string, string>
  isNew: boolean
  readOnly: boolean
  /** After a save attempt: local problems of every row are shown. */
  showAll: boolean
}

/** Every field of a client entry, grouped as an admin thinks about them. */
export function ClientFields({
  draft,
  onChange,
  errors,
  isNew,
  readOnly,
  showAll,
}: ClientFieldsProps) {
  const id = useId()
  const resourceOptions = useRoleOptions('resource')
  const rowLevelOptions = useRoleOptions('row-level')
  const pub = isPublic(draft)
  const set = <K extends keyof ClientDraft>(key: K, value: ClientDraft[K]) =>
    onChange({ ...draft, [key]: value })
  const toggle = (list: string[], value: string, on: boolean) =>
    on ? [...list, value] : list.filter((v) => v !== value)
  const grantErrors = listErrors(errors, 'grantTypes')
  const uriErrors = listErrors(errors, 'redirectUris')
  const resourceErrors = listErrors(errors, 'resourceRoles')
  const rowLevelErrors = listErrors(errors, 'rowLevelRoles')
  const tips = readOnly ? [] : advice(draft)

  return (
    <fieldset className="client-fields" disabled={readOnly}>
      <legend className="sr-only-legend">Client settings</legend>
      <AuthenticationSection draft={draft} onChange={onChange} errors={errors} isNew={isNew} />

      <section className="panel">
        <h2 className="panel__title">Grants and redirects</h2>
        <fieldset
          className={grantErrors.error ? 'choice field--invalid' : 'choice'}
          data-testid="grant-types"
        >
          <legend className="field__label">Grant types</legend>
          {GRANT_TYPES.map((grant, i) => {
            const unavailable = pub && CONFIDENTIAL_ONLY.includes(grant)
            const index = draft.grantTypes.indexOf(grant)
            const problem = index >= 0 ? grantErrors.items[index] : undefined
            return (
              <label key={grant} className={unavailable ? 'check check--off' : 'check'}>
                <input
                  type="checkbox"
                  checked={draft.grantTypes.includes(grant)}
                  disabled={unavailable}
                  onChange={(e) =>
                    set('grantTypes', toggle(draft.grantTypes, grant, e.target.checked))
                  }
                  data-testid={`grant-${grant}`}
                  aria-describedby={`${id}-grant-${i}`}
                />
                <span>
                  <span className="mono">{grant}</span>
                  <span id={`${id}-grant-${i}`} className="field__hint choice__help">
                    {unavailable ? 'Not for public clients.' : GRANT_HELP[grant]}
                  </span>
                  {problem && (
                    <span className="field__error" data-testid="field-error">
                      {problem}
                    </span>
                  )}
                </span>
              </label>
            )
          })}
          {grantErrors.error && (
            <div className="field__error" data-testid="field-error">
              {grantErrors.error}
            </div>
          )}
        </fieldset>
        <RedirectUrisEditor
          value={draft.redirectUris}
          onChange={(uris) => set('redirectUris', uris)}
          itemErrors={uriErrors.items}
          error={uriErrors.error}
          showAll={showAll}
          disabled={readOnly}
        />
        <label className="check">
          <input
            type="checkbox"
            checked={draft.requireProofKey}
            disabled={pub}
            onChange={(e) => set('requireProofKey', e.target.checked)}
            data-testid="client-pkce"
          />
          Require PKCE (S256) for authorization codes{' '}
          {pub && <span className="muted">— always, for public clients</span>}
        </label>
        {errors.requireProofKey && (
          <div className="field__error" data-testid="field-error">
            {errors.requireProofKey}
          </div>
        )}
      </section>

      <section className="panel">
        <h2 className="panel__title">Tokens</h2>
        <div className="form-grid">
          <Field
            label="Access token format"
            error={errors.accessTokenFormat}
            hint={
              draft.accessTokenFormat === 'reference'
                ? 'Opaque; checked by this server on every request.'
                : 'A signed JWT (RS256); keys at /oauth2/jwks.'
            }
          >
            <select
              value={draft.accessTokenFormat}
              onChange={(e) =>
                set('accessTokenFormat', e.target.value as ClientDraft['accessTokenFormat'])
              }
              data-testid="client-token-format"
            >
              <option value="reference">reference (opaque)</option>
              <option value="self-contained">self-contained (JWT)</option>
            </select>
          </Field>
          <Field
            label="Access token lifetime"
            error={errors.accessTokenTimeToLive}
            hint="30s, 5m, 1h, 7d (at most 366d)."
          >
            <input
              value={draft.accessTokenTimeToLive}
              onChange={(e) => set('accessTokenTimeToLive', e.target.value)}
              list={`${id}-durations`}
              data-testid="client-access-ttl"
            />
          </Field>
          <Field
            label="Refresh token lifetime"
            error={errors.refreshTokenTimeToLive}
            hint="Used with refresh_token."
          >
            <input
              value={draft.refreshTokenTimeToLive}
              onChange={(e) => set('refreshTokenTimeToLive', e.target.value)}
              list={`${id}-durations`}
              data-testid="client-refresh-ttl"
            />
          </Field>
        </div>
        <datalist id={`${id}-durations`}>
          {DURATIONS.map((d) => (
            <option key={d} value={d} />
          ))}
        </datalist>
      </section>

      <section className="panel">
        <h2 className="panel__title">Roles of the client’s own tokens</h2>
        <p className="muted users__note">
          Used by client_credentials tokens. Tokens issued for a signed-in user carry that user’s
          roles.
        </p>
        <div className="grid-2">
          <RolePicker
            label="Resource roles"
            options={resourceOptions.data}
            value={draft.resourceRoles}
            onChange={(v) => set('resourceRoles', v)}
            itemErrors={resourceErrors.items}
            error={resourceErrors.error}
            emphasize={[ADMIN_ROLE]}
            disabled={readOnly}
            testId="resource-roles"
          />
          <RolePicker
            label="Row-level roles"
            options={rowLevelOptions.data}
            value={draft.rowLevelRoles}
            onChange={(v) => set('rowLevelRoles', v)}
            itemErrors={rowLevelErrors.items}
            error={rowLevelErrors.error}
            disabled={readOnly}
            testId="row-level-roles"
          />
        </div>
      </section>
      {tips.length > 0 && (
        <ul className="notice client-advice" data-testid="client-advice">
          {tips.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      )}
    </fieldset>
  )
}
