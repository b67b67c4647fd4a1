import { useState } from 'react'
import { api, ApiError } from '../../../lib/api'
import { requestUrl, type OperationEntry } from '../lib/reference'

interface Result {
  status: number
  text: string
}

const pretty = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2)

/** "Try it": the operation's parameters and JSON body, sent with the console's own token. */
export function TryIt({ entry, prefix }: { entry: OperationEntry; prefix: string }) {
  const parameters = entry.operation.parameters ?? []
  const hasBody = entry.operation.requestBody?.content['application/json'] !== undefined
  const [values, setValues] = useState<Record<string, string>>({})
  const [body, setBody] = useState('')
  const [result, setResult] = useState<Result | null>(null)
  const [busy, setBusy] = useState(false)
  const url = requestUrl(prefix, entry.path, parameters, values)
  const id = entry.operation.operationId

  const send = async () => {
    if (!url) return
    setBusy(true)
    try {
      let parsed: unknown
      if (hasBody && body.trim()) parsed = JSON.parse(body)
      const reply = await api.send<unknown>(url, {
        method: entry.method.toUpperCase(),
        body: parsed,
      })
      setResult({ status: reply.status, text: pretty(reply.data) })
    } catch (error) {
      if (error instanceof ApiError) setResult({ status: error.status, text: pretty(error.body) })
      else setResult({ status: 0, text: String(error) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="apidocs__try" data-testid="try-it">
      {parameters.map((p) => (
        <label key={`${p.in}-${p.name}`} className="apidocs__param">
          <span>
            {p.name}
            {p.required ? ' *' : ''} <small>({p.in})</small>
          </span>
          <input
            value={values[p.name] ?? ''}
            placeholder={p.description}
            onChange={(e) => setValues((v) => ({ ...v, [p.name]: e.target.value }))}
            data-testid={`param-${p.name}`}
          />
        </label>
      ))}
      {hasBody && (
        <label className="apidocs__param">
          <span>Body (JSON)</span>
          <textarea
            value={body}
            rows={5}
            onChange={(e) => setBody(e.target.value)}
            aria-label={`Body of ${id}`}
          />
        </label>
      )}
      <div>
        <button
          type="button"
          className="btn btn--small btn--primary"
          disabled={!url || busy}
          onClick={send}
        >
          {busy ? 'Sending…' : 'Send'}
        </button>{' '}
        <code>{url ?? 'Fill in the path parameters'}</code>
      </div>
      {result && (
        <div data-testid="try-it-result">
          <p>
            Status <strong data-testid="try-it-status">{result.status}</strong>
          </p>
          <pre className="apidocs__pre">{result.text}</pre>
        </div>
      )}
    </div>
  )
}
