import type { User } from '../api/users'

/** Active / inactive / built-in, as a badge with words (never colour alone). */
export function UserStatus({ user }: { user: Pick<User, 'active' | 'builtIn'> }) {
  if (user.builtIn)
    return (
      <span className="badge badge--accent" data-testid="user-status">
        Built-in
      </span>
    )
  return user.active ? (
    <span className="badge badge--ok" data-testid="user-status">
      Active
    </span>
  ) : (
    <span className="badge badge--bad" data-testid="user-status">
      Inactive
    </span>
  )
}

const SHOWN = 4

/** Role codes as small chips (the first few, then "+N"). */
export function RoleChips({ codes, emphasize = [] }: { codes: string[]; emphasize?: string[] }) {
  if (!codes.length) return <span className="muted">—</span>
  const rest = codes.length - SHOWN
  return (
    <span className="role-chips">
      {codes.slice(0, SHOWN).map((code) => (
        <span
          key={code}
          className={
            emphasize.includes(code) ? 'badge badge--accent mono' : 'badge badge--outline mono'
          }
        >
          {code}
        </span>
      ))}
      {rest > 0 && (
        <span className="badge" title={codes.slice(SHOWN).join(', ')}>
          +{rest}
        </span>
      )}
    </span>
  )
}
