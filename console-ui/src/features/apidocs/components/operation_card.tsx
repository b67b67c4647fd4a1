import { useState } from 'react'
import { describeSchema, type OperationEntry } from '../lib/reference'
import { TryIt } from './try_it'

/** One operation: method, path and summary; open: parameters, body, responses and "try it". */
export function OperationCard({ entry, prefix }: { entry: OperationEntry; prefix: string }) {
  const [open, setOpen] = useState(false)
  const { method, path, operation } = entry
  const body = operation.requestBody?.content
  return (
    <li className="apidocs__op" data-testid="operation">
      <button
        type="button"
        className="apidocs__op-head"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid={`op-${method}-${path}`}
      >
        <span className={`apidocs__method apidocs__method--${method}`}>{method.toUpperCase()}</span>
        <code>{path}</code>
        <span className="apidocs__summary">
          {operation.summary}
          {operation.deprecated ? ' (deprecated)' : ''}
        </span>
      </button>
      {open && (
        <div className="apidocs__op-body">
          {body && (
            <p>
              Body:{' '}
              {Object.entries(body)
                .map(([type, media]) => `${type} ${describeSchema(media.schema)}`)
                .join('; ')}
            </p>
          )}
          <table className="table">
            <caption>Responses</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Description</th>
                <th scope="col">Content</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(operation.responses).map(([status, response]) => (
                <tr key={status}>
                  <td>{status}</td>
                  <td>{response.description}</td>
                  <td>
                    {Object.entries(response.content ?? {})
                      .map(([type, media]) => `${type} ${describeSchema(media.schema)}`)
                      .join('; ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <TryIt entry={entry} prefix={prefix} />
        </div>
      )}
    </li>
  )
}
