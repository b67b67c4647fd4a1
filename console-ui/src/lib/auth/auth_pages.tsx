import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { ApiError } from '../api'
import { adminGet } from '../admin'
import { api } from '../api'
import { completeLogin, getTokens, signOut, startLogin, subscribe } from './session'

export const useTokens = () => useSyncExternalStore(subscribe, getTokens, getTokens)

export interface CurrentUser {
  username: string
  name?: string | null
  locale?: string | null
}

export const meKey = ['session', 'me'] as const

/** The signed-in user (GET /rest/userInfo) and whether the admin API lets them in. */
export function useCurrentUser() {
  const tokens = useTokens()
  return useQuery({
    queryKey: meKey,
    enabled: tokens !== null,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const user = await api.get<CurrentUser>('/rest/userInfo', signal)
      let admin = true
      try {
        await adminGet('changelog?limit=1', signal)
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) admin = false
        else throw error
      }
      return { ...user, admin }
    },
  })
}

function Centered({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <main className="centered" data-testid={testId}>
      <div className="centered__card">
        <div className="brand brand--large">Modelgate</div>
        {children}
      </div>
    </main>
  )
}

/** Every console page but the callback: signs in first, then checks the admin right. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const tokens = useTokens()
  const location = useLocation()
  const me = useCurrentUser()
  const started = useRef(false)
  useEffect(() => {
    if (tokens === null && !started.current) {
      started.current = true
      void startLogin(location.pathname + location.search + location.hash)
    }
  }, [tokens, location])
  if (tokens === null || me.isPending)
    return (
      <Centered testId="signing-in">
        <p className="muted">Signing in…</p>
      </Centered>
    )
  if (me.isError)
    return (
      <Centered testId="session-error">
        <p>The console cannot read your session: {String(me.error.message)}</p>
        <button className="btn" onClick={() => void me.refetch()}>
          Try again
        </button>
      </Centered>
    )
  if (!me.data.admin)
    return (
      <Centered testId="not-admin">
        <h1 className="centered__title">No access to the console</h1>
        <p>
          You are signed in as <strong data-testid="not-admin-user">{me.data.username}</strong>, but
          this account does not hold the <code>admin.api</code> policy. An administrator can give
          it the built-in role <code>system-admin</code> (Users → roles).
        </p>
        <button className="btn btn--primary" onClick={() => void signOut()}>
          Sign in as someone else
        </button>
      </Centered>
    )
  return children
}

/** /console/callback: redeems the code and goes back to the page the admin asked for. */
export function CallbackPage() {
  const navigate = useNavigate()
  const [error, setError] = useState<string | null>(null)
  const done = useRef(false)
  useEffect(() => {
    if (done.current) return
    done.current = true
    completeLogin(window.location.search)
      .then((returnTo) => navigate(returnTo.replace(/^\/console/, '') || '/', { replace: true }))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
  }, [navigate])
  if (!error)
    return (
      <Centered testId="signing-in">
        <p className="muted">Signing in…</p>
      </Centered>
    )
  return (
    <Centered testId="login-error">
      <p role="alert">{error}</p>
      <button className="btn btn--primary" onClick={() => void startLogin('/')}>
        Sign in
      </button>
    </Centered>
  )
}

export function SignedOutPage() {
  return (
    <Centered testId="signed-out">
      <p>You have signed out of the Modelgate console.</p>
      <button className="btn btn--primary" onClick={() => void startLogin('/')} data-testid="sign-in-again">
        Sign in again
      </button>
    </Centered>
  )
}
