import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { ApiError } from '../../../lib/api'
import { displayName, useUser } from '../api/users'
import { UserStatus } from './user_badges'
import { UserForm } from './user_form'
import { UserAccess } from './user_access'
import { AnonymousUser } from './anonymous_user'
import { ShownOnce } from './shown_once'
import './users.css'

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—')

/** One user: profile and roles (one save), status, password; the anonymous user its own way. */
export function UserPage() {
  const username = useParams().username ?? ''
  const query = useUser(username)
  // A generated password lives here, above the editor that reloads after the change.
  const [shown, setShown] = useState<string | null>(null)

  if (query.error)
    return (
      <Page title={username} description={<Link to="/users">← All users</Link>}>
        <ErrorMessage error={query.error} testId="user-error" />
        {query.error instanceof ApiError && query.error.status === 404 && (
          <p>
            There is no user named <span className="mono">{username}</span>.{' '}
            <Link to="/users/new">Create one</Link>?
          </p>
        )}
      </Page>
    )
  if (!query.data) return <Loading />
  const { data: user, version } = query.data
  if (user.builtIn)
    return <AnonymousUser key={JSON.stringify(user)} user={user} version={version} />

  const name = displayName(user)
  return (
    <Page
      title={user.username}
      description={
        <>
          <Link to="/users">← All users</Link>
          {name && <> · {name}</>}
          {user.email && <> · {user.email}</>}
        </>
      }
      actions={<UserStatus user={user} />}
      testId="user-page"
    >
      {shown && (
        <ShownOnce
          title={`New password of ${user.username}`}
          label="Generated password"
          value={shown}
          testId="generated-password"
          onDone={() => setShown(null)}
        >
          <p className="muted">
            Tokens issued before this change no longer work; {user.username} signs in again with it.
          </p>
        </ShownOnce>
      )}
      <div className="user-layout">
        <UserForm
          key={JSON.stringify(user)}
          user={user}
          version={version}
          onReload={() => query.refetch()}
        />
        <aside className="user-layout__side">
          <UserAccess user={user} onPassword={setShown} />
          <section className="panel">
            <h2 className="panel__title">Record</h2>
            <dl className="facts">
              <dt>Created</dt>
              <dd>{when(user.createdAt)}</dd>
              <dt>Updated</dt>
              <dd>{when(user.updatedAt)}</dd>
            </dl>
            <Link to={`/permissions?user=${encodeURIComponent(user.username)}`}>
              Effective permissions of {user.username} →
            </Link>
          </section>
        </aside>
      </div>
    </Page>
  )
}
