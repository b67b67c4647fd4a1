import { useState } from 'react'
import { Link } from 'react-router'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Page } from '../../../components/ui/page'
import { ApiError } from '../../../lib/api'
import { adminGet, errorText, fieldErrors } from '../../../lib/admin'
import { putRoles, type User } from '../api/users'
import { usersKeys } from '../api/keys'
import { useRoleOptions } from '../api/role_options'
import { RolePicker } from './role_picker'
import { listErrors } from './form_errors'
import { UserStatus } from './user_badges'
import './users.css'

const PATTERN_SETTINGS = [
  'svc.rest.anonymous-url-patterns',
  'svc.resource-server.anonymous-url-patterns',
]

/** The URL patterns that run as the anonymous user (both property names are honoured). */
function useAnonymousPatterns() {
  return useQuery({
    queryKey: usersKeys.anonymousPatterns(),
    queryFn: async ({ signal }) => {
      const settings = await Promise.all(
        PATTERN_SETTINGS.map((name) => adminGet<{ value: unknown }>(`settings/${name}`, signal))
      )
      const values = settings.flatMap((s) => (Array.isArray(s.value) ? (s.value as string[]) : []))
      return [...new Set(values)]
    },
  })
}

interface AnonymousUserProps {
  user: User
  version: number | null
}

/**
 * The built-in `anonymous` user: what it is for, which URLs run as it, and its roles (the only
 * thing that can be changed: no profile, no password, always active).
 */
export function AnonymousUser({ user, version }: AnonymousUserProps) {
  const queryClient = useQueryClient()
  const patterns = useAnonymousPatterns()
  const resourceOptions = useRoleOptions('resource')
  const rowLevelOptions = useRoleOptions('row-level')
  const [resourceRoles, setResourceRoles] = useState(user.resourceRoles)
  const [rowLevelRoles, setRowLevelRoles] = useState(user.rowLevelRoles)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  const dirty =
    JSON.stringify(resourceRoles) !== JSON.stringify(user.resourceRoles) ||
    JSON.stringify(rowLevelRoles) !== JSON.stringify(user.rowLevelRoles)

  async function save() {
    setBusy(true)
    setErrors({})
    try {
      await putRoles(user.username, { resourceRoles, rowLevelRoles }, version ?? undefined)
      toast.success('Roles of anonymous requests saved')
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(fieldErrors(error))
      else toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  const list = patterns.data ?? []
  const resourceErrors = listErrors(errors, 'resourceRoles')
  const rowLevelErrors = listErrors(errors, 'rowLevelRoles')
  return (
    <Page
      title="anonymous"
      description={
        <>
          <Link to="/users">← All users</Link> · requests without a token
        </>
      }
      actions={<UserStatus user={user} />}
      testId="anonymous-page"
    >
      <section className="panel anonymous__about" data-testid="anonymous-explanation">
        <h2 className="panel__title">What this user is for</h2>
        <p>{user.explanation}</p>
        <ul className="anonymous__facts">
          <li>It has no password and can never sign in; it cannot be deactivated or deleted.</li>
          <li>
            It matters only for URLs matched by an anonymous URL pattern. Everything else still
            needs a token, whatever roles are given here.
          </li>
        </ul>
        <h3 className="users__subhead">Anonymous URL patterns</h3>
        {patterns.isPending ? (
          <p className="muted">Loading…</p>
        ) : list.length === 0 ? (
          <p data-testid="anonymous-patterns">
            <strong>None</strong> — no request runs as anonymous today, so these roles have no
            effect yet.
          </p>
        ) : (
          <ul className="anonymous__patterns" data-testid="anonymous-patterns">
            {list.map((p) => (
              <li key={p} className="mono">
                {p}
              </li>
            ))}
          </ul>
        )}
        <Link to="/settings">Change the patterns in Settings →</Link>
      </section>
      <section className="panel" data-testid="anonymous-roles">
        <h2 className="panel__title">Roles of anonymous requests</h2>
        {resourceRoles.length > 0 && list.length > 0 && (
          <p className="notice">
            Anyone who can reach the server may do what these roles allow on the URLs above, without
            signing in.
          </p>
        )}
        <div className="grid-2">
          <RolePicker
            label="Resource roles"
            options={resourceOptions.data}
            value={resourceRoles}
            onChange={setResourceRoles}
            itemErrors={resourceErrors.items}
            error={resourceErrors.error}
            hint="Give as little as possible, e.g. rest-minimal and a read-only role."
            testId="resource-roles"
          />
          <RolePicker
            label="Row-level roles"
            options={rowLevelOptions.data}
            value={rowLevelRoles}
            onChange={setRowLevelRoles}
            itemErrors={rowLevelErrors.items}
            error={rowLevelErrors.error}
            hint="Which rows anonymous requests see."
            testId="row-level-roles"
          />
        </div>
        <div className="form-actions">
          <button
            type="button"
            className="btn btn--primary"
            disabled={!dirty || busy}
            onClick={() => void save()}
            data-testid="anonymous-save"
          >
            {busy ? 'Saving…' : 'Save roles'}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!dirty || busy}
            onClick={() => {
              setResourceRoles(user.resourceRoles)
              setRowLevelRoles(user.rowLevelRoles)
            }}
          >
            Discard
          </button>
        </div>
      </section>
    </Page>
  )
}
