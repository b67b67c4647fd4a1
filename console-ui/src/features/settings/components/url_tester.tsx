import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { ErrorMessage } from '../../../components/ui/error_message'
import { ApiError } from '../../../lib/api'
import { problemsOf, type Problem } from '../../../lib/admin'
import { testUrl, type PatternProperty, type UrlTestRequest } from '../api/settings'
import { UrlTestResultView } from './url_test_result'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']

interface UrlTesterProps {
  /** Unsaved pattern lists (null when every list is as stored). */
  candidate: Partial<Record<PatternProperty, string[]>> | null
  /** Problems of the unsaved lists (shown at their rows by the lists). */
  onProblems?: (problems: Problem[]) => void
}

/**
 * Type a method and a path; the server answers with its own decision: which pattern matches,
 * whether a token is needed, and as whom an anonymous request runs.
 */
export function UrlTester({ candidate, onProblems }: UrlTesterProps) {
  const [method, setMethod] = useState('GET')
  const [path, setPath] = useState('')
  const [useUnsaved, setUseUnsaved] = useState(true)
  const run = useMutation({
    mutationFn: (request: UrlTestRequest) => testUrl(request),
    onSuccess: () => onProblems?.([]),
    onError: (error) => onProblems?.(problemsOf(error)),
  })
  const withUnsaved = candidate !== null && useUnsaved
  const submit = () => {
    if (!path.trim()) return
    run.mutate({ method, path: path.trim(), ...(withUnsaved ? { patterns: candidate } : {}) })
  }
  const problems = problemsOf(run.error)
  const listProblems = problems.filter((p) => p.path.startsWith('$.patterns'))
  const otherProblems = problems.filter((p) => !p.path.startsWith('$.patterns'))

  return (
    <section className="panel url-tester" data-testid="url-tester" aria-labelledby="url-tester-title">
      <h2 className="panel__title" id="url-tester-title">
        URL tester
      </h2>
      <p className="muted">
        How the server would treat a request, decided by its own resource server (not a copy of its rules).
      </p>
      <form
        className="url-tester__form"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <label className="url-tester__method">
          <span className="field__label">Method</span>
          <select className="input" value={method} onChange={(e) => setMethod(e.target.value)} data-testid="url-test-method">
            {METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label className="url-tester__path">
          <span className="field__label">Path</span>
          <input
            className="input mono"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/rest/entities/bookstore_Book"
            spellCheck={false}
            autoComplete="off"
            data-testid="url-test-path"
          />
        </label>
        <button type="submit" className="btn btn--primary" disabled={!path.trim() || run.isPending} data-testid="url-test-run">
          {run.isPending ? 'Testing…' : 'Test'}
        </button>
      </form>
      {candidate !== null && (
        <label className="check url-tester__unsaved">
          <input type="checkbox" checked={useUnsaved} onChange={(e) => setUseUnsaved(e.target.checked)} data-testid="url-test-unsaved" />
          Test with the unsaved pattern lists
        </label>
      )}
      {run.error !== null &&
        (listProblems.length > 0 ? (
          <p className="error" role="alert" data-testid="url-test-error">
            The unsaved pattern lists have {listProblems.length === 1 ? 'a problem' : `${listProblems.length} problems`}{' '}
            (shown at the rows): {listProblems.map((p) => p.message).join('; ')}
          </p>
        ) : run.error instanceof ApiError && otherProblems.length > 0 ? (
          <p className="error" role="alert" data-testid="url-test-error">
            {otherProblems.map((p) => p.message).join('; ')}
          </p>
        ) : (
          <ErrorMessage error={run.error} testId="url-test-error" />
        ))}
      {run.data && !run.isPending && <UrlTestResultView result={run.data} />}
    </section>
  )
}
