import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Page } from '../../../components/ui/page'
import { ApiError } from '../../../lib/api'
import { errorText, fieldErrors } from '../../../lib/admin'
import { ShownOnce } from '../../users/components/shown_once'
import { otherErrors } from '../../users/components/form_errors'
import { createClient, type Client } from '../api/clients'
import {
  entryFrom,
  FIELD_KEYS,
  keepErrors,
  localProblems,
  newDraft,
  shownLocal,
  type ClientDraft,
} from './client_draft'
import { ClientFields } from './client_form'
import { TryItPanel } from './try_it_panel'
import { redirectUriProblems } from './redirect_uris_editor'
import '../../users/components/users.css'
import './clients.css'

/** Registers a client; a generated secret is shown once, next to a "try it" panel using it. */
export function NewClientPage() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [draft, setDraft] = useState<ClientDraft>(newDraft)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [showAll, setShowAll] = useState(false)
  const [busy, setBusy] = useState(false)
  const [created, setCreated] = useState<{ client: Client; secret: string } | null>(null)

  const edit = (next: ClientDraft) => {
    setErrors(keepErrors(errors, draft, next))
    setDraft(next)
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    const local = localProblems(draft, true)
    setShowAll(true)
    setErrors(shownLocal(local))
    if (Object.keys(local).length) return
    setBusy(true)
    try {
      const entry = entryFrom(draft, true)
      const result = await createClient(entry)
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      toast.success(`Client ${entry.clientId} registered`)
      if (result.secret && result.client)
        setCreated({ client: result.client, secret: result.secret })
      else navigate(`/clients/${encodeURIComponent(entry.clientId)}`)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409)
        setErrors({ clientId: error.details ?? 'This client exists already' })
      else if (error instanceof ApiError && error.status === 422) setErrors(fieldErrors(error))
      else toast.error(errorText(error))
    } finally {
      setBusy(false)
    }
  }

  if (created) {
    const id = created.client.clientId
    return (
      <Page
        title={`Client ${id} registered`}
        description="Store the secret now: it is not shown again."
        testId="client-created"
      >
        <ShownOnce
          title={`Secret of ${id}`}
          label="Client secret"
          value={created.secret}
          testId="client-secret"
        >
          <p className="muted">
            Lost secrets cannot be recovered, only replaced (“Rotate secret” on the client’s page).
          </p>
        </ShownOnce>
        <TryItPanel client={created.client} secret={created.secret} />
        <div className="toolbar">
          <Link
            className="btn btn--primary"
            to={`/clients/${encodeURIComponent(id)}`}
            data-testid="open-created-client"
          >
            Open {id}
          </Link>
          <Link className="btn" to="/clients">
            Back to clients
          </Link>
        </div>
      </Page>
    )
  }

  const rest = otherErrors(errors, FIELD_KEYS)
  return (
    <Page
      title="New OAuth client"
      description="An application that gets tokens: a server (confidential) or a browser/mobile app (public)."
      testId="client-new-page"
    >
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="client-form">
        {rest.length > 0 && (
          <div className="error" role="alert" data-testid="form-error">
            {rest.join('; ')}
          </div>
        )}
        <ClientFields
          draft={draft}
          onChange={edit}
          errors={errors}
          isNew
          readOnly={false}
          showAll={showAll}
        />
        <div className="form-actions form-actions--sticky">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={busy}
            data-testid="client-save"
          >
            {busy ? 'Registering…' : 'Register client'}
          </button>
          <Link className="btn" to="/clients">
            Cancel
          </Link>
          {(Object.keys(errors).length > 0 ||
            (showAll && Object.keys(redirectUriProblems(draft.redirectUris)).length > 0)) && (
            <span className="field__error">Fix the marked fields.</span>
          )}
        </div>
      </form>
    </Page>
  )
}
