import { useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { ApiError } from '../../../lib/api'
import { errorText, fieldErrors } from '../../../lib/admin'
import { patchUser, type User } from '../api/users'
import { ADMIN_ROLE, useRoleOptions } from '../api/role_options'
import { changedProfile, profileOf, ProfileFields, type ProfileDraft } from './profile_fields'
import { RolePicker } from './role_picker'
import { listErrors, otherErrors } from './form_errors'

interface UserFormProps {
  user: User
  /** The definition version the user was read at (If-Match). */
  version: number | null
  onReload: () => Promise<{ data?: { version: number | null } }>
}

const LABELS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'e-mail',
  locale: 'locale',
  timeZone: 'time zone',
  resourceRoles: 'resource roles',
  rowLevelRoles: 'row-level roles',
}
const SHOWN = [
  'firstName',
  'lastName',
  'email',
  'locale',
  'timeZone',
  'resourceRoles',
  'rowLevelRoles',
]
const same = (a: string[], b: string[]) =>
  JSON.stringify([...a].sort()) === JSON.stringify([...b].sort())

/** Profile and roles of a user, saved together as one PATCH of the fields that changed. */
export function UserForm({ user, version, onReload }: UserFormProps) {
  const queryClient = useQueryClient()
  const resourceOptions = useRoleOptions('resource')
  const rowLevelOptions = useRoleOptions('row-level')
  const [profile, setProfile] = useState<ProfileDraft>(() => profileOf(user))
  const [resourceRoles, setResourceRoles] = useState(user.resourceRoles)
  const [rowLevelRoles, setRowLevelRoles] = useState(user.rowLevelRoles)
  const [baseVersion, setBaseVersion] = useState(version)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [stale, setStale] = useState(false)
  const [busy, setBusy] = useState(false)

  const body: Record<string, unknown> = { ...changedProfile(user, profile) }
  if (!same(resourceRoles, user.resourceRoles)) body.resourceRoles = resourceRoles
  if (!same(rowLevelRoles, user.rowLevelRoles)) body.rowLevelRoles = rowLevelRoles
  const dirty = Object.keys(body).length > 0

  function reset() {
    setProfile(profileOf(user))
    setResourceRoles(user.resourceRoles)
    setRowLevelRoles(user.rowLevelRoles)
    setErrors({})
  }

  async function save(e: FormEvent) {
    e.preventDefault()
    if (!dirty) return
    setBusy(true)
    setErrors({})
    setStale(false)
    try {
      const result = await patchUser(user.username, body, baseVersion ?? undefined)
      toast.success(result.status === 'unchanged' ? 'Nothing changed' : `${user.username} saved`, {
        description: result.changes.join('; ') || undefined,
      })
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(fieldErrors(error))
      else if (error instanceof ApiError && error.status === 412) setStale(true)
      else toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  async function reload() {
    const next = await onReload()
    setBaseVersion(next.data?.version ?? null)
    setStale(false)
  }

  const resourceErrors = listErrors(errors, 'resourceRoles')
  const rowLevelErrors = listErrors(errors, 'rowLevelRoles')
  const rest = otherErrors(errors, SHOWN)
  const losesAdmin = user.resourceRoles.includes(ADMIN_ROLE) && !resourceRoles.includes(ADMIN_ROLE)
  return (
    <form
      className="user-layout__main"
      onSubmit={(e) => void save(e)}
      noValidate
      data-testid="user-form"
    >
      {stale && (
        <div className="notice" role="alert" data-testid="user-stale">
          Someone changed the application definition since this page was loaded. Reload to continue:
          your edits stay unless {user.username} was changed meanwhile.{' '}
          <button type="button" className="btn btn--small" onClick={() => void reload()}>
            Reload
          </button>
        </div>
      )}
      {rest.length > 0 && (
        <div className="error" role="alert" data-testid="form-error">
          {rest.join('; ')}
        </div>
      )}
      <section className="panel">
        <h2 className="panel__title">Profile</h2>
        <ProfileFields draft={profile} onChange={setProfile} errors={errors} />
      </section>
      <section className="panel">
        <h2 className="panel__title">Roles</h2>
        <RolePicker
          label="Resource roles"
          options={resourceOptions.data}
          value={resourceRoles}
          onChange={setResourceRoles}
          itemErrors={resourceErrors.items}
          error={resourceErrors.error}
          emphasize={[ADMIN_ROLE]}
          hint={
            losesAdmin
              ? `Without ${ADMIN_ROLE}, ${user.username} can no longer open this console or the admin API.`
              : `What ${user.username} may do with entities and attributes. ${ADMIN_ROLE} opens this console.`
          }
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
        <p className="muted users__note">
          Role changes take effect on the user's next request, on every instance.
        </p>
      </section>
      <div className="form-actions form-actions--sticky">
        <button
          type="submit"
          className="btn btn--primary"
          disabled={!dirty || busy}
          data-testid="user-save"
        >
          {busy ? 'Saving…' : 'Save changes'}
        </button>
        <button
          type="button"
          className="btn"
          disabled={!dirty || busy}
          onClick={reset}
          data-testid="user-discard"
        >
          Discard
        </button>
        {dirty && (
          <span className="muted">
            Unsaved:{' '}
            {Object.keys(body)
              .map((k) => LABELS[k] ?? k)
              .join(', ')}
          </span>
        )}
      </div>
    </form>
  )
}
