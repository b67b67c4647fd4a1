import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { useConfirm } from '../../../components/ui/confirm'
import { errorText } from '../../../lib/admin'
import { deleteClient, revokeTokens, rotateSecret, type Client } from '../api/clients'

interface ClientActionsProps {
  client: Client
  onSecret: (secret: string) => void
}

const tokens = (n: number) => (n === 1 ? '1 token' : `${n} tokens`)

/** Rotate the secret, revoke every token, delete: each after a confirmation that says what stops. */
export function ClientActions({ client, onSecret }: ClientActionsProps) {
  const queryClient = useQueryClient()
  const confirm = useConfirm()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [revoked, setRevoked] = useState<number | null>(null)
  const id = client.clientId

  async function run(action: () => Promise<void>) {
    setBusy(true)
    try {
      await action()
    } catch (error) {
      toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  const rotate = () =>
    run(async () => {
      const ok = await confirm({
        title: `Rotate the secret of ${id}?`,
        message: `A new secret is generated and shown once. The current secret stops working at once, and so does every token issued to ${id}: update the application right after.`,
        confirmLabel: 'Rotate secret',
        danger: true,
      })
      if (!ok) return
      const result = await rotateSecret(id)
      if (result.secret) onSecret(result.secret)
      toast.success(`New secret for ${id}: the old one stopped`)
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
    })

  const revoke = () =>
    run(async () => {
      // A dry run counts what would be revoked, for the confirmation.
      const count = (await revokeTokens(id, true)).revoked
      const ok = await confirm({
        title: `Revoke every token of ${id}?`,
        message:
          count === 0
            ? `${id} has no live token right now; nothing would change.`
            : `${tokens(count)} (access and refresh) stop working at once. The client itself stays registered and can get new tokens.`,
        confirmLabel: count === 0 ? 'Revoke anyway' : `Revoke ${tokens(count)}`,
        danger: count > 0,
      })
      if (!ok) return
      const result = await revokeTokens(id)
      setRevoked(result.revoked)
      toast.success(`${tokens(result.revoked)} of ${id} revoked`)
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
    })

  const remove = () =>
    run(async () => {
      const ok = await confirm({
        title: `Delete ${id}?`,
        message: `${id} is removed with all its tokens and authorization codes. Applications using it stop at once. This cannot be undone.`,
        confirmLabel: 'Delete client',
        danger: true,
      })
      if (!ok) return
      await deleteClient(id)
      toast.success(`Client ${id} deleted`)
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      navigate('/clients')
    })

  return (
    <section className="panel" data-testid="client-actions">
      <h2 className="panel__title">Secret and tokens</h2>
      {!client.public && !client.readOnly && (
        <div className="client-action">
          <p className="muted">
            Only a digest is stored. Rotating gives a new secret (shown once) and stops the old one.
          </p>
          <button
            type="button"
            className="btn"
            onClick={() => void rotate()}
            disabled={busy}
            data-testid="client-rotate"
          >
            Rotate secret…
          </button>
        </div>
      )}
      <div className="client-action">
        <p className="muted">
          Ends every session of this client now, without changing its registration.
        </p>
        <button
          type="button"
          className="btn"
          onClick={() => void revoke()}
          disabled={busy}
          data-testid="client-revoke"
        >
          Revoke all tokens…
        </button>
        {revoked !== null && (
          <p className="client-action__result" data-testid="client-revoked" role="status">
            {tokens(revoked)} revoked.
          </p>
        )}
      </div>
      {!client.readOnly && (
        <div className="client-action">
          <h3 className="users__subhead">Danger zone</h3>
          <button
            type="button"
            className="btn btn--danger"
            onClick={() => void remove()}
            disabled={busy}
            data-testid="client-delete"
          >
            Delete client…
          </button>
        </div>
      )}
    </section>
  )
}
