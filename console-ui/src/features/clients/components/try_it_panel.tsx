import { useId, useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import { copyText } from '../../users/components/shown_once'
import type { Client } from '../api/clients'

type TryClient = Pick<Client, 'clientId' | 'authenticationMethods' | 'grantTypes'>

interface TokenAnswer {
  status: number
  body: unknown
  ms: number
}

const accessTokenOf = (answer: TokenAnswer) =>
  answer.status === 200 && typeof answer.body === 'object' && answer.body !== null
    ? String((answer.body as { access_token?: unknown }).access_token ?? '')
    : ''

/** 'it'\''s' — a value safe inside single quotes in a POSIX shell. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** The curl command that asks for the same token (Basic when the client allows it). */
export function curlCommand(client: TryClient, secret: string, origin: string): string {
  const url = `${origin}/oauth2/token`
  const shown = secret || '<client secret>'
  if (client.authenticationMethods.includes('client_secret_basic'))
    return `curl -s -u ${quote(`${client.clientId}:${shown}`)} -d grant_type=client_credentials ${url}`
  return `curl -s -d grant_type=client_credentials --data-urlencode ${quote(`client_id=${client.clientId}`)} --data-urlencode ${quote(`client_secret=${shown}`)} ${url}`
}

/** POST /oauth2/token with client_credentials, as the client itself would (never the admin's token). */
export async function requestToken(
  client: TryClient,
  secret: string,
  fetcher: typeof fetch = fetch
): Promise<TokenAnswer> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' })
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    'Accept': 'application/json',
  }
  if (client.authenticationMethods.includes('client_secret_basic'))
    headers.Authorization = `Basic ${btoa(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(secret)}`)}`
  else {
    form.set('client_id', client.clientId)
    form.set('client_secret', secret)
  }
  const started = performance.now()
  const response = await fetcher('/oauth2/token', { method: 'POST', headers, body: form })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: shown as text
  }
  return { status: response.status, body, ms: Math.round(performance.now() - started) }
}

interface TryItPanelProps {
  client: TryClient
  /** The secret just shown once (pre-filled). */
  secret?: string
  fetcher?: typeof fetch
}

/** "Try it": fetches a client-credentials token with a pasted secret and shows the answer and curl. */
export function TryItPanel({ client, secret: given, fetcher }: TryItPanelProps) {
  const id = useId()
  const [secret, setSecret] = useState(given ?? '')
  const [visible, setVisible] = useState(false)
  const [answer, setAnswer] = useState<TokenAnswer | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const usable =
    client.grantTypes.includes('client_credentials') &&
    !client.authenticationMethods.includes('none')
  const curl = curlCommand(client, secret, window.location.origin)

  async function run(e: FormEvent) {
    e.preventDefault()
    setBusy(true)
    setFailure(null)
    try {
      setAnswer(await requestToken(client, secret, fetcher))
    } catch (error) {
      setAnswer(null)
      setFailure(error instanceof Error ? error.message : String(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="panel try-it" aria-labelledby={`${id}-title`} data-testid="try-it">
      <h2 className="panel__title" id={`${id}-title`}>
        Try it: get a token
      </h2>
      {!usable ? (
        <p className="muted" data-testid="try-it-unavailable">
          {client.authenticationMethods.includes('none')
            ? 'A public client has no secret: it gets tokens for a user with the authorization code flow and PKCE.'
            : 'This client does not have the client_credentials grant; tick it to get tokens for the client itself.'}
        </p>
      ) : (
        <form onSubmit={(e) => void run(e)}>
          <p className="muted">
            Asks <span className="mono">POST /oauth2/token</span> for a client_credentials token,
            exactly as <span className="mono">{client.clientId}</span> would. The secret is sent
            only to this server.
          </p>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-secret`}>
              Client secret
            </label>
            <div className="try-it__row">
              <input
                id={`${id}-secret`}
                className="input mono"
                type={visible ? 'text' : 'password'}
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
                placeholder="Paste the client's secret"
                autoComplete="off"
                data-testid="try-it-secret"
              />
              <button
                type="button"
                className="btn btn--small"
                onClick={() => setVisible((v) => !v)}
                aria-pressed={visible}
              >
                {visible ? 'Hide' : 'Show'}
              </button>
            </div>
          </div>
          <button
            type="submit"
            className="btn btn--primary"
            disabled={busy || !secret}
            data-testid="try-it-run"
          >
            {busy ? 'Requesting…' : 'Get a token'}
          </button>
        </form>
      )}
      {failure && (
        <div className="error" role="alert">
          {failure}
        </div>
      )}
      {answer && (
        <div className="try-it__answer" data-testid="try-it-answer" aria-live="polite">
          <p>
            <span
              className={answer.status === 200 ? 'badge badge--ok' : 'badge badge--bad'}
              data-testid="try-it-status"
            >
              HTTP {answer.status}
            </span>{' '}
            <span className="muted">
              {answer.ms} ms
              {answer.status === 401 ? ' — wrong secret, or the client is inactive' : ''}
            </span>
          </p>
          <pre className="try-it__json" data-testid="try-it-body" tabIndex={0}>
            {typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, null, 2)}
          </pre>
          {accessTokenOf(answer) && (
            <>
              <h3 className="users__subhead">Use it</h3>
              <pre className="try-it__json" data-testid="try-it-use" tabIndex={0}>
                {`curl -s -H ${quote(`Authorization: Bearer ${accessTokenOf(answer)}`)} ${window.location.origin}/rest/permissions`}
              </pre>
            </>
          )}
        </div>
      )}
      {usable && (
        <div className="try-it__curl">
          <h3 className="users__subhead">The same with curl</h3>
          <pre className="try-it__json" data-testid="try-it-curl" tabIndex={0}>
            {curl}
          </pre>
          <button
            type="button"
            className="btn btn--small"
            onClick={() =>
              void copyText(curl).then((ok) =>
                ok
                  ? toast.success('Command copied')
                  : toast.error('The browser refused the clipboard')
              )
            }
          >
            Copy command
          </button>
        </div>
      )}
    </section>
  )
}
