import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Page } from '../../../components/ui/page'
import { Field } from '../../../components/ui/field'
import { ApiError } from '../../../lib/api'
import { errorText, fieldErrors } from '../../../lib/admin'
import { createUser, type User } from '../api/users'
import { ADMIN_ROLE, useRoleOptions } from '../api/role_options'
import { emptyProfile, profileBody, ProfileFields, type ProfileDraft } from './profile_fields'
import { PasswordChoice, type PasswordMode } from './password_input'
import { RolePicker } from './role_picker'
import { ShownOnce } from './shown_once'
import { listErrors, otherErrors } from './form_errors'
import './users.css'

const SHOWN = [
  'username',
  'firstName',
  'lastName',
  'email',
  'locale',
  'timeZone',
  'password',
  'generatePassword',
  'resourceRoles',
  'rowLevelRoles',
  'active',
]

/** Creates a user: profile, active, a password typed or generated (shown once), roles. */
export function NewUserPage() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const resourceOptions = useRoleOptions('resource')
  const rowLevelOptions = useRoleOptions('row-level')
  const [username, setUsername] = useState('')
  const [profile, setProfile] = useState<ProfileDraft>(emptyProfile)
  const [active, setActive] = useState(true)
  const [mode, setMode] = useState<PasswordMode>('generate')
  const [password, setPassword] = useState('')
  const [resourceRoles, setResourceRoles] = useState<string[]>([])
  const [rowLevelRoles, setRowLevelRoles] = useState<string[]>([])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const [created, setCreated] = useState<{ user: User; password: string } | null>(null)

  async function submit(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setErrors({})
    try {
      const body = {
        username: username.trim(),
        ...profileBody(profile),
        active,
        resourceRoles,
        rowLevelRoles,
        ...(mode === 'generate' ? { generatePassword: true } : { password }),
      }
      const result = await createUser(body)
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      toast.success(`User ${body.username} created`)
      if (result.password && result.user)
        setCreated({ user: result.user, password: result.password })
      else navigate(`/users/${encodeURIComponent(body.username)}`)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409)
        setErrors({ username: error.details ?? 'This user exists already' })
      else if (error instanceof ApiError && error.status === 422) setErrors(fieldErrors(error))
      else toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  if (created)
    return (
      <Page
        title={`User ${created.user.username} created`}
        description="Give the password to the user now."
        testId="user-created"
      >
        <ShownOnce
          title={`Password of ${created.user.username}`}
          label="Generated password"
          value={created.password}
          testId="generated-password"
        >
          <p className="muted">
            {created.user.username} signs in with it on the login page. You can generate a new one
            at any time on the user's page (that stops their tokens).
          </p>
        </ShownOnce>
        <div className="toolbar">
          <Link
            className="btn btn--primary"
            to={`/users/${encodeURIComponent(created.user.username)}`}
            data-testid="open-created-user"
          >
            Open {created.user.username}
          </Link>
          <Link className="btn" to="/users">
            Back to users
          </Link>
        </div>
      </Page>
    )

  const resourceErrors = listErrors(errors, 'resourceRoles')
  const rowLevelErrors = listErrors(errors, 'rowLevelRoles')
  const rest = otherErrors(errors, SHOWN)
  return (
    <Page
      title="New user"
      description="An account that signs in on the login form and gets tokens."
      testId="user-new-page"
    >
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="user-form">
        {rest.length > 0 && (
          <div className="error" role="alert" data-testid="form-error">
            {rest.join('; ')}
          </div>
        )}
        <section className="panel">
          <h2 className="panel__title">Account</h2>
          <div className="form-grid">
            <Field
              label="Username"
              error={errors.username}
              hint="Letters, digits and . _ @ + - (up to 100). Cannot be changed later."
            >
              <input
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                required
                autoComplete="off"
                data-testid="user-username"
              />
            </Field>
            <div className="field">
              <span className="field__label">Status</span>
              <label className="check">
                <input
                  type="checkbox"
                  checked={active}
                  onChange={(e) => setActive(e.target.checked)}
                  data-testid="user-active"
                />
                <span>Active — may sign in</span>
              </label>
            </div>
          </div>
          <ProfileFields draft={profile} onChange={setProfile} errors={errors} />
        </section>
        <section className="panel">
          <h2 className="panel__title">Password</h2>
          <PasswordChoice
            mode={mode}
            onMode={setMode}
            password={password}
            onPassword={setPassword}
            error={errors.password ?? errors.generatePassword}
            testId="new-password"
            legend="How the first password is set"
          />
        </section>
        <section className="panel">
          <h2 className="panel__title">Roles</h2>
          <div className="grid-2">
            <RolePicker
              label="Resource roles"
              options={resourceOptions.data}
              value={resourceRoles}
              onChange={setResourceRoles}
              itemErrors={resourceErrors.items}
              error={resourceErrors.error}
              emphasize={[ADMIN_ROLE]}
              hint={`What the user may do with entities and attributes. ${ADMIN_ROLE} opens this console.`}
              testId="resource-roles"
            />
            <RolePicker
              label="Row-level roles"
              options={rowLevelOptions.data}
              value={rowLevelRoles}
              onChange={setRowLevelRoles}
              itemErrors={rowLevelErrors.items}
              error={rowLevelErrors.error}
              hint="Which rows the user sees and may change."
              testId="row-level-roles"
            />
          </div>
        </section>
        <div className="form-actions">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={busy}
            data-testid="user-create"
          >
            {busy ? 'Creating…' : 'Create user'}
          </button>
          <Link className="btn" to="/users">
            Cancel
          </Link>
        </div>
      </form>
    </Page>
  )
}
