import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { ApiError } from '../../../lib/api'
import { adminGet, errorText, problemsOf, risksOf, type ChangeResult } from '../../../lib/admin'
import { ErrorMessage } from '../../../components/ui/error_message'
import { applyDocument, detectFormat, planDocument, type Definition, type SourceDocument } from '../api/definition'
import { DefinitionDiff } from './definition_diff'
import { ProblemList } from './problem_list'
import { SourceEditor } from './source_editor'

interface Planned {
  doc: SourceDocument
  result: ChangeResult
  stored?: Definition
  incoming?: unknown
}

/** JSON documents are checked here first (a clear message at once); YAML is parsed by the server. */
function localProblem(doc: SourceDocument): string | null {
  if (!doc.text.trim()) return 'The document is empty.'
  if (doc.format !== 'json') return null
  try {
    JSON.parse(doc.text)
    return null
  } catch (error) {
    return `Not valid JSON: ${(error as Error).message}`
  }
}

/**
 * Import: load or paste a document, review its plan (a readable diff, the SQL, the risks), then
 * apply it at the version the plan was made at (a concurrent change is a 412, never a silent
 * overwrite). Data loss needs an explicit tick; invalid documents show their problems.
 */
export function ImportPanel() {
  const queryClient = useQueryClient()
  const [source, setSource] = useState({ name: '', text: '' })
  const [planned, setPlanned] = useState<Planned | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState<'plan' | 'apply' | null>(null)
  const [acceptLoss, setAcceptLoss] = useState(false)
  const [applied, setApplied] = useState<ChangeResult | null>(null)

  // The outcome of Review/Apply (plan, problems, result) is brought into view.
  const outcomeRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (planned || error || applied) outcomeRef.current?.scrollIntoView?.({ block: 'start' })
  }, [planned, error, applied])

  const format = source.text.trim() ? detectFormat(source.name, source.text) : null
  const edit = (next: { name: string; text: string }) => {
    setSource(next)
    setPlanned(null)
    setError(null)
    setApplied(null)
    setAcceptLoss(false)
  }

  async function plan() {
    const doc: SourceDocument = { ...source, format: detectFormat(source.name, source.text) }
    setError(null)
    setApplied(null)
    setPlanned(null)
    setAcceptLoss(false)
    const problem = localProblem(doc)
    if (problem) return setError(new Error(problem))
    setBusy('plan')
    try {
      const [result, stored] = await Promise.all([
        planDocument(doc),
        adminGet<Definition>('definition').catch(() => undefined),
      ])
      const incoming = doc.format === 'json' ? (JSON.parse(doc.text) as unknown) : undefined
      setPlanned({ doc, result, stored, incoming })
    } catch (e) {
      setError(e)
    } finally {
      setBusy(null)
    }
  }

  async function apply() {
    if (!planned) return
    setBusy('apply')
    setError(null)
    try {
      const needsLoss = planned.result.risks.some((r) => r.overridable)
      const result = await applyDocument(planned.doc, {
        ifMatch: planned.result.definitionVersion,
        allowDataLoss: needsLoss && acceptLoss,
      })
      await queryClient.invalidateQueries({ queryKey: ['admin'] })
      setPlanned(null)
      setApplied(result)
      setSource({ name: '', text: '' })
      toast.success(result.status === 'unchanged' ? 'Nothing changed' : 'Definition imported', {
        description: `Definition version ${result.definitionVersion}`,
      })
    } catch (e) {
      setError(e)
      const risks = risksOf(e)
      if (risks.length) setPlanned({ ...planned, result: { ...planned.result, risks } })
      toast.error(errorText(e))
    } finally {
      setBusy(null)
    }
  }

  const risks = planned?.result.risks ?? []
  const blocked = risks.some((r) => !r.overridable)
  const needsTick = risks.some((r) => r.overridable)
  const nothing = planned !== null && planned.result.changes.length === 0 && planned.result.steps.length === 0
  const stale = error instanceof ApiError && error.status === 412
  const problems = problemsOf(error)

  return (
    <section className="panel" data-testid="import-panel" aria-labelledby="import-title">
      <h2 className="panel__title" id="import-title">
        Import
      </h2>
      <SourceEditor name={source.name} text={source.text} format={format} onChange={edit} />
      <div className="toolbar">
        <button
          type="button"
          className="btn btn--primary"
          disabled={!source.text.trim() || busy !== null}
          onClick={() => void plan()}
          data-testid="import-plan"
        >
          {busy === 'plan' ? 'Planning…' : 'Review changes'}
        </button>
        <span className="muted">Shows what would change; nothing is applied yet.</span>
      </div>

      <div ref={outcomeRef} className="transfer-outcome" />
      {problems.length > 0 && <ProblemList problems={problems} />}
      {error !== null && problems.length === 0 && !stale && <ErrorMessage error={error} testId="import-error" />}
      {stale && (
        <div className="error" role="alert" data-testid="import-stale">
          <strong>The definition changed since this plan was made.</strong> Nothing was applied.{' '}
          <button type="button" className="btn btn--small" onClick={() => void plan()}>
            Review again
          </button>
        </div>
      )}
      {applied && (
        <p className="notice transfer-applied" role="status" data-testid="import-applied">
          {applied.status === 'unchanged' ? 'Nothing changed.' : `Imported: definition version ${applied.definitionVersion}.`}{' '}
          <Link to="/history?tab=audit">See it in the audit trail</Link> or <Link to="/er">the ER diagram</Link>.
        </p>
      )}

      {planned && (
        <div className="transfer-plan" data-testid="import-plan-view">
          <h3 className="transfer-plan__title">
            Plan at definition version {planned.result.definitionVersion}
            {planned.doc.name ? ` for ${planned.doc.name}` : ''}
          </h3>
          {planned.doc.format === 'yaml' && (
            <p className="muted transfer-plan__note">Per-element details are shown for JSON documents.</p>
          )}
          <DefinitionDiff result={planned.result} stored={planned.stored} incoming={planned.incoming} />
          {!nothing && (
            <div className="transfer-apply">
              {needsTick && !blocked && (
                <label className="check">
                  <input
                    type="checkbox"
                    checked={acceptLoss}
                    onChange={(e) => setAcceptLoss(e.target.checked)}
                    data-testid="import-accept-loss"
                  />
                  I understand that this data will be lost.
                </label>
              )}
              {blocked && <p className="error">This document cannot be applied as it is: see the problems above.</p>}
              <button
                type="button"
                className={needsTick ? 'btn btn--danger' : 'btn btn--primary'}
                disabled={busy !== null || blocked || (needsTick && !acceptLoss)}
                onClick={() => void apply()}
                data-testid="import-apply"
              >
                {busy === 'apply' ? 'Applying…' : 'Apply'}
              </button>
              <button type="button" className="btn" onClick={() => setPlanned(null)} data-testid="import-discard">
                Discard plan
              </button>
            </div>
          )}
          {busy === 'apply' && <div className="progress" role="progressbar" aria-label="Applying the document" />}
        </div>
      )}
    </section>
  )
}
