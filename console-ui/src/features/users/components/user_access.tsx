import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { useConfirm } from '../../../components/ui/confirm'
import { Dialog } from '../../../components/ui/dialog'
import { useCurrentUser } from '../../../lib/auth/auth_pages'
import { ApiError } from '../../../lib/api'
import { errorText, problemsOf } from '../../../lib/admin'
import { setActive, setPassword, type User } from '../api/users'
import { PasswordChoice, type PasswordMode } from './password_input'

interface UserAccessProps {
  user: User
  /** Receives a generated password (shown once by the page). */
  onPassword: (password: string) => void
}

/** Whether the user may sign in (activate / deactivate) and their password (set or generate). */
export function UserAccess({ user, onPassword }: UserAccessProps) {
  const queryClient = useQueryClient()
  const confirm = useConfirm()
  const me = useCurrentUser().data?.username
  const [refusal, setRefusal] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [dialog, setDialog] = useState(false)
  const [mode, setMode] = useState<PasswordMode>('generate')
  const [password, setPasswordText] = useState('')
  const [passwordError, setPasswordError] = useState<string | undefined>()
  const self = me === user.username

  async function toggle() {
    const next = !user.active
    const ok = await confirm(
      next
        ? {
            title: `Activate ${user.username}?`,
            message: `${user.username} may sign in again. Tokens issued before the deactivation stay invalid.`,
            confirmLabel: 'Activate',
          }
        : {
            title: `Deactivate ${user.username}?`,
            message: (
              <>
                <p>
                  {user.username} can no longer sign in, and{' '}
                  <strong>every token issued to {user.username} stops working at once</strong>{' '}
                  (applications using them get 401 on their next request, on every instance).
                </p>
                <p>Activating again later does not revive those tokens.</p>
                {self && (
                  <p className="notice">
                    You are signed in as {user.username}: the console stops working for you.
                  </p>
                )}
              </>
            ),
            confirmLabel: 'Deactivate',
            danger: true,
          }
    )
    if (!ok) return
    setBusy(true)
    setRefusal(null)
    try {
      await setActive(user.username, next)
      toast.success(
        next ? `${user.username} activated` : `${user.username} deactivated: their tokens stopped`
      )
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
    } catch (error) {
      const problem = problemsOf(error)[0]
      if (problem) setRefusal(problem.message)
      else toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  async function changePassword() {
    setBusy(true)
    setPasswordError(undefined)
    try {
      const result = await setPassword(user.username, mode === 'generate' ? undefined : password)
      setDialog(false)
      setPasswordText('')
      if (result.password) onPassword(result.password)
      toast.success(`Password of ${user.username} changed: their tokens stopped`)
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
    } catch (error) {
      if (error instanceof ApiError && error.status === 422)
        setPasswordError(problemsOf(error)[0]?.message ?? errorText(error))
      else toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="panel" data-testid="user-access">
      <h2 className="panel__title">Access</h2>
      <p className="users__state">
        {user.active ? (
          <>
            <strong>Active:</strong> {user.username} may sign in and use their tokens.
          </>
        ) : (
          <>
            <strong>Inactive:</strong> sign-in refused; tokens issued before the deactivation never
            work again.
          </>
        )}
      </p>
      <button
        type="button"
        className={user.active ? 'btn btn--danger' : 'btn btn--primary'}
        onClick={() => void toggle()}
        disabled={busy}
        data-testid={user.active ? 'user-deactivate' : 'user-activate'}
      >
        {user.active ? 'Deactivate…' : 'Activate…'}
      </button>
      {refusal && (
        <div className="error" role="alert" data-testid="user-access-error">
          <strong className="error__title">Refused — nothing was changed</strong>
          <p className="error__detail">{refusal}</p>
        </div>
      )}
      <h3 className="users__subhead">Password</h3>
      <p className="muted">Stored as a hash only. A new one stops every token issued before.</p>
      <button
        type="button"
        className="btn"
        onClick={() => setDialog(true)}
        disabled={busy}
        data-testid="user-reset-password"
      >
        Reset password…
      </button>
      <Dialog
        open={dialog}
        onClose={() => setDialog(false)}
        title={`New password for ${user.username}`}
        testId="password-dialog"
        actions={
          <>
            <button type="button" className="btn" onClick={() => setDialog(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn--danger"
              onClick={() => void changePassword()}
              disabled={busy}
              data-testid="password-confirm"
            >
              {mode === 'generate' ? 'Generate password' : 'Set password'}
            </button>
          </>
        }
      >
        <p className="notice">
          {user.username}'s tokens and sign-in sessions stop <strong>at once</strong>; they sign in
          again with the new password.
        </p>
        <PasswordChoice
          mode={mode}
          onMode={setMode}
          password={password}
          onPassword={setPasswordText}
          error={passwordError}
          testId="reset-password"
          legend="The new password"
        />
      </Dialog>
    </section>
  )
}
