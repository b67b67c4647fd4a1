/*
 * Copy and delete of a role (resource or row-level). Copy: POST /{kind}/{code}/copy {code, name}
 * through the planned change; delete: a confirmation naming the users and clients that lose the
 * role, then DELETE with If-Match (the answer's `unassignedFrom` is reported).
 */
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { adminChange, errorText, fieldErrors } from '../../../lib/admin'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { useConfirm } from '../../../components/ui/confirm'
import { Dialog } from '../../../components/ui/dialog'
import { Field } from '../../../components/ui/field'
import { roleKindPath } from '../api/roles'
import { roleHref } from './role_parts'

type Kind = 'resource' | 'rowLevel'

export function CopyRoleButton({ kind, code, name }: { kind: Kind; code: string; name: string }) {
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const [target, setTarget] = useState({ code: `${code}-copy`, name: `${name} (copy)` })
  const change = usePlannedChange({
    title: `Copy ${code} as ${target.code}`,
    success: `Role ${target.code} created`,
    onApplied: () => navigate(roleHref(target.code.trim(), kind)),
  })
  const submit = async () => {
    let planned = false
    const body = { code: target.code.trim(), name: target.name.trim() || undefined }
    await change.start(async (opts) => {
      const result = await adminChange('POST', `${roleKindPath[kind]}/${encodeURIComponent(code)}/copy`, body, opts)
      planned = true
      return result
    })
    if (planned) setOpen(false)
  }
  const errors = fieldErrors(change.error)
  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)} data-testid="role-copy">
        Copy
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Copy role ${code}`}
        testId="copy-dialog"
        actions={
          <>
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" form="copy-role-form" className="btn btn--primary" disabled={change.busy || !target.code.trim()} data-testid="copy-confirm">
              {change.busy ? 'Planning…' : 'Review copy'}
            </button>
          </>
        }
      >
        <form
          id="copy-role-form"
          onSubmit={(e) => {
            e.preventDefault()
            void submit()
          }}
        >
          <p className="muted">The copy gets every policy of {code}; it is not assigned to anyone.</p>
          <Field label="Code of the copy" error={errors.code}>
            <input value={target.code} onChange={(e) => setTarget({ ...target, code: e.target.value })} data-testid="copy-code" autoFocus />
          </Field>
          <Field label="Name" error={errors.name}>
            <input value={target.name} onChange={(e) => setTarget({ ...target, name: e.target.value })} data-testid="copy-name" />
          </Field>
        </form>
      </Dialog>
      {change.dialog}
    </>
  )
}

interface DeleteProps {
  kind: Kind
  code: string
  users: string[]
  clients: string[]
  version: number | null
}

export function DeleteRoleButton({ kind, code, users, clients, version }: DeleteProps) {
  const confirm = useConfirm()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)
  const remove = async () => {
    const ok = await confirm({
      title: `Delete role ${code}?`,
      message: (
        <div data-testid="delete-impact">
          {users.length === 0 ? (
            <p>No user holds this role.</p>
          ) : (
            <p>
              It is taken away from {users.length === 1 ? 'the user' : `${users.length} users`}: <strong>{users.join(', ')}</strong>.
            </p>
          )}
          {clients.length > 0 && (
            <p className="notice">
              OAuth clients still hold it ({clients.join(', ')}): the server refuses the delete until it is removed from them.
            </p>
          )}
          <p>This cannot be undone (the audit trail keeps its last definition).</p>
        </div>
      ),
      confirmLabel: 'Delete role',
      danger: true,
    })
    if (!ok) return
    setBusy(true)
    try {
      const result = await adminChange<{ unassignedFrom?: string[] }>('DELETE', `${roleKindPath[kind]}/${encodeURIComponent(code)}`, undefined, {
        ifMatch: version ?? undefined,
      })
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      const from = result.unassignedFrom ?? []
      toast.success(`Role ${code} deleted`, { description: from.length ? `Unassigned from ${from.join(', ')}` : undefined })
      navigate(kind === 'resource' ? '/roles' : '/row-level-roles')
    } catch (error) {
      toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <button type="button" className="btn btn--danger" onClick={() => void remove()} disabled={busy} data-testid="role-delete">
      Delete
    </button>
  )
}
