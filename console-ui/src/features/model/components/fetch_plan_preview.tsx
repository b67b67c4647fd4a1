import { useMemo } from 'react'
import type { ModelEntity } from '../../../lib/model'
import { describeError } from '../../../components/ui/error_message'
import { useEntityRows } from '../api/model_api'
import { useDebounced } from '../hooks/use_debounced'
import { asRequestPlan, type InlinePlan } from '../lib/fetch_plan'

interface FetchPlanPreviewProps {
  entity: string
  plan: InlinePlan
  /** The saved plan's name when the editor holds exactly what is saved. */
  savedName?: string
  entities: ModelEntity[]
}

/**
 * What the plan returns for a real row: `GET /rest/entities/{e}?limit=1&fetchPlan=` with the
 * saved plan's name, or with the edit as an inline plan (README "Entities API") before it is
 * saved.
 */
export function FetchPlanPreview({ entity, plan, savedName, entities }: FetchPlanPreviewProps) {
  const inline = useMemo(
    () => JSON.stringify(asRequestPlan(plan, entity, entities)),
    [plan, entity, entities]
  )
  const param = useDebounced(savedName ?? inline, 250)
  const rows = useEntityRows(entity, param, 1, !!entity)
  const row = rows.data?.[0]
  return (
    <section
      className="panel preview-panel"
      aria-labelledby="plan-preview-title"
      data-testid="plan-preview"
    >
      <h2 className="panel__title" id="plan-preview-title">
        Live preview
      </h2>
      <p className="muted small" data-testid="plan-preview-source">
        {savedName ? (
          <>
            The saved plan: <code>?fetchPlan={savedName}</code> on the first row.
          </>
        ) : (
          <>Your unsaved edit, sent as an inline fetch plan, on the first row.</>
        )}
        {rows.isFetching && ' Updating…'}
      </p>
      {rows.error && (
        <div className="error" role="alert">
          {describeError(rows.error).title}
          {describeError(rows.error).detail && (
            <div className="small">{describeError(rows.error).detail}</div>
          )}
        </div>
      )}
      {rows.data && !row && <p className="muted">{entity} has no rows yet: nothing to show.</p>}
      {row && (
        <pre
          className="json"
          data-testid="plan-preview-json"
          tabIndex={0}
          aria-label="JSON of the first row"
        >
          {JSON.stringify(row, null, 2)}
        </pre>
      )}
    </section>
  )
}
