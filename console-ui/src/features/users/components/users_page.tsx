import { useEffect, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { displayName, useUsers, type User } from '../api/users'
import { ADMIN_ROLE } from '../api/role_options'
import { RoleChips, UserStatus } from './user_badges'
import './users.css'

export const PAGE_SIZE = 25

/** Users: server-side search (username, names, e-mail), paging, state and roles at a glance. */
export function UsersPage() {
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const [text, setText] = useState(q)
  const users = useUsers(q, (page - 1) * PAGE_SIZE, PAGE_SIZE)
  const navigate = useNavigate()

  // The search is sent 250 ms after the last key (and kept in the URL).
  useEffect(() => {
    if (text === q) return
    const timer = setTimeout(() => setParams(text ? { q: text } : {}, { replace: true }), 250)
    return () => clearTimeout(timer)
  }, [text, q, setParams])

  const goTo = (next: number) => {
    const p: Record<string, string> = next > 1 ? { page: String(next) } : {}
    if (q) p.q = q
    setParams(p)
  }
  const data = users.data
  const last = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1

  return (
    <Page
      title="Users"
      description="Who can sign in, with which roles. Deactivating a user stops their tokens at once."
      actions={
        <Link to="/users/new" className="btn btn--primary" data-testid="user-new">
          + New user
        </Link>
      }
      testId="users-page"
    >
      <div className="toolbar">
        <input
          type="search"
          className="input users__search"
          placeholder="Search username, name or e-mail…"
          aria-label="Search users"
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="user-search"
        />
        {data && (
          <span className="muted" data-testid="user-total" aria-live="polite">
            {data.total === 0
              ? 'No users'
              : `${data.offset + 1}–${data.offset + data.users.length} of ${data.total}`}
          </span>
        )}
        {users.isFetching && data && <span className="muted">Updating…</span>}
      </div>
      {users.error ? (
        <ErrorMessage error={users.error} />
      ) : !data ? (
        <Loading />
      ) : data.users.length === 0 ? (
        <EmptyState title={q ? `No user matches “${q}”` : 'No users yet'}>
          {q ? (
            'Search looks in usernames, first and last names and e-mail addresses.'
          ) : (
            <Link to="/users/new">Create the first user</Link>
          )}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table users__table" data-testid="users-table">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">E-mail</th>
                <th scope="col">Status</th>
                <th scope="col">Resource roles</th>
                <th scope="col">Row-level roles</th>
                <th scope="col">Locale · time zone</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((user) => (
                <UserRow
                  key={user.username}
                  user={user}
                  onOpen={() => navigate(`/users/${encodeURIComponent(user.username)}`)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && data.total > PAGE_SIZE && (
        <nav className="pager" aria-label="Pages of users">
          <button
            type="button"
            className="btn btn--small"
            disabled={page <= 1}
            onClick={() => goTo(page - 1)}
            data-testid="users-prev"
          >
            ← Previous
          </button>
          <span className="muted">
            Page {page} of {last}
          </span>
          <button
            type="button"
            className="btn btn--small"
            disabled={page >= last}
            onClick={() => goTo(page + 1)}
            data-testid="users-next"
          >
            Next →
          </button>
        </nav>
      )}
    </Page>
  )
}

function UserRow({ user, onOpen }: { user: User; onOpen: () => void }) {
  const name = displayName(user)
  return (
    <tr
      className="users__row"
      onClick={(e) => !(e.target as HTMLElement).closest('a') && onOpen()}
      data-testid="user-row"
      data-username={user.username}
    >
      <td>
        <Link
          to={`/users/${encodeURIComponent(user.username)}`}
          className="users__name"
          data-testid="user-link"
        >
          {user.username}
        </Link>
        {user.builtIn ? (
          <div className="muted users__sub">Anonymous requests</div>
        ) : (
          name && <div className="muted users__sub">{name}</div>
        )}
      </td>
      <td>{user.email ?? <span className="muted">—</span>}</td>
      <td>
        <UserStatus user={user} />
      </td>
      <td>
        <RoleChips codes={user.resourceRoles} emphasize={[ADMIN_ROLE]} />
      </td>
      <td>
        <RoleChips codes={user.rowLevelRoles} />
      </td>
      <td className="users__sub">
        {[user.locale, user.timeZone].filter(Boolean).join(' · ') || (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  )
}
