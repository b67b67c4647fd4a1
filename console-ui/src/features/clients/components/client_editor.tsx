import { useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { ApiError } from '../../../lib/api'
import { errorText, fieldErrors } from '../../../lib/admin'
import { otherErrors } from '../../users/components/form_errors'
import { replaceClient, type Client } from '../api/clients'
import {
  draftOf,
  entryFrom,
  FIELD_KEYS,
  keepErrors,
  localProblems,
  shownLocal,
  type ClientDraft,
} from './client_draft'
import { ClientFields } from './client_form'
import { redirectUriProblems } from './redirect_uris_editor'

interface ClientEditorProps {
  client: Client
  /** The definition version the client was read at (If-Match). */
  version: number | null
  /** A secret the answer carries (a public client made confidential gets one). */
  onSecret: (secret: string) => void
  onReload: () => Promise<{ data?: { version: number | null } }>
}

/** The client's settings, saved as the full entry (PUT); read-only for configuration clients. */
export function ClientEditor({ client, version, onSecret, onReload }: ClientEditorProps) {
  const queryClient = useQueryClient()
  const original = draftOf(client)
  const [draft, setDraft] = useState<ClientDraft>(original)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [showAll, setShowAll] = useState(false)
  const [baseVersion, setBaseVersion] = useState(version)
  const [stale, setStale] = useState(false)
  const [busy, setBusy] = useState(false)
  const dirty =
    JSON.stringify(entryFrom(draft, false)) !== JSON.stringify(entryFrom(original, false))

  const edit = (next: ClientDraft) => {
    setErrors(keepErrors(errors, draft, next))
    setDraft(next)
  }

  async function save(e: FormEvent) {
    e.preventDefault()
    const local = localProblems(draft, false)
    setShowAll(true)
    setErrors(shownLocal(local))
    setStale(false)
    if (Object.keys(local).length) return
    setBusy(true)
    try {
      const result = await replaceClient(entryFrom(draft, false), baseVersion ?? undefined)
      toast.success(
        result.status === 'unchanged' ? 'Nothing changed' : `${client.clientId} saved`,
        {
          description: result.changes.join('; ') || undefined,
        }
      )
      if (result.secret) onSecret(result.secret)
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

  const rest = otherErrors(errors, FIELD_KEYS)
  const marked =
    Object.keys(errors).length > 0 ||
    (showAll && Object.keys(redirectUriProblems(draft.redirectUris)).length > 0)
  return (
    <form
      className="user-layout__main"
      onSubmit={(e) => void save(e)}
      noValidate
      data-testid="client-form"
    >
      {stale && (
        <div className="notice" role="alert" data-testid="client-stale">
          Someone changed the application definition since this page was loaded. Reload to continue:
          your edits stay unless this client was changed meanwhile.{' '}
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
      <ClientFields
        draft={draft}
        onChange={edit}
        errors={errors}
        isNew={false}
        readOnly={client.readOnly}
        showAll={showAll}
      />
      {!client.readOnly && (
        <div className="form-actions form-actions--sticky">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={!dirty || busy}
            data-testid="client-save"
          >
            {busy ? 'Saving…' : 'Save changes'}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!dirty || busy}
            onClick={() => {
              setDraft(original)
              setErrors({})
              setShowAll(false)
            }}
            data-testid="client-discard"
          >
            Discard
          </button>
          {marked && (
            <span className="field__error">Fix the marked fields; nothing was saved.</span>
          )}
        </div>
      )}
    </form>
  )
}
