import { ApiError } from '../../lib/api'

interface ErrorMessageProps {
  error: unknown
  testId?: string
}

/** Readable rendering of any failure, with the server's `{error, details}` when it sent one. */
export function ErrorMessage({ error, testId }: ErrorMessageProps) {
  const { title, detail } = describeError(error)
  return (
    <div className="error" role="alert" data-testid={testId}>
      <strong className="error__title">{title}</strong>
      {detail && <p className="error__detail">{detail}</p>}
    </div>
  )
}

export function describeError(error: unknown): { title: string; detail?: string } {
  if (error instanceof ApiError) {
    if (error.status === 0) return { title: 'The server cannot be reached', detail: error.message }
    if (error.error) {
      return { title: `${error.error} (HTTP ${error.status})`, detail: error.details }
    }
    return { title: `The server answered HTTP ${error.status}`, detail: error.message }
  }
  if (error instanceof Error) return { title: 'Something went wrong', detail: error.message }
  return { title: 'Something went wrong', detail: String(error) }
}
