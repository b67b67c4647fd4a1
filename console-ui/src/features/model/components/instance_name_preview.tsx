import { useMemo } from 'react'
import type { ModelEntity, ModelEnum } from '../../../lib/model'
import { describeError } from '../../../components/ui/error_message'
import { useEntityRows } from '../api/model_api'
import { useDebounced } from '../hooks/use_debounced'
import { patternPaths, renderPattern } from '../lib/instance_name'

interface InstanceNamePreviewProps {
  /** The saved entity (rows are read from it); none while the entity is new. */
  entity: string | undefined
  pattern: string
  savedPattern: string | undefined
  entities: ModelEntity[]
  enums: ModelEnum[]
}

/**
 * Three real rows with their instance name now (`_instanceName` from the server) and with the
 * pattern being edited (rendered here as the server renders it, from the values an inline fetch
 * plan of the pattern's paths loads).
 */
export function InstanceNamePreview({
  entity,
  pattern,
  savedPattern,
  entities,
  enums,
}: InstanceNamePreviewProps) {
  const settled = useDebounced(pattern)
  const plan = useMemo(
    () => JSON.stringify({ extends: '_instance_name', properties: patternPaths(settled) }),
    [settled]
  )
  const rows = useEntityRows(entity, plan, 3, !!entity)
  if (!entity)
    return <p className="muted small">The preview shows real rows once the entity exists.</p>
  const changed = (pattern || '') !== (savedPattern ?? '')
  return (
    <div className="preview" data-testid="instance-name-preview" aria-live="polite">
      <div className="preview__title">
        Live preview on {rows.data?.length ?? 0} row{rows.data?.length === 1 ? '' : 's'}
        {rows.isFetching && <span className="muted"> · updating…</span>}
      </div>
      {rows.error && (
        <p className="field__error">
          Preview unavailable: {describeError(rows.error).detail ?? describeError(rows.error).title}
        </p>
      )}
      {rows.data && rows.data.length === 0 && (
        <p className="muted small">No rows yet: nothing to preview.</p>
      )}
      {rows.data && rows.data.length > 0 && (
        <table className="table table--compact">
          <thead>
            <tr>
              <th scope="col">Now</th>
              <th scope="col">{changed ? 'With your pattern' : 'Pattern'}</th>
            </tr>
          </thead>
          <tbody>
            {rows.data.map((row) => {
              const preview = pattern.trim()
                ? renderPattern({ entities, enums }, entity, pattern, row)
                : null
              return (
                <tr key={String(row.id)}>
                  <td data-testid="instance-name-now">{String(row._instanceName ?? '')}</td>
                  <td
                    data-testid="instance-name-preview-value"
                    className={changed ? 'preview__new' : undefined}
                  >
                    {preview ?? (
                      <span className="muted">
                        {pattern.trim()
                          ? 'unknown property in the pattern'
                          : 'no pattern: the server shows “entity-id”'}
                      </span>
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </div>
  )
}
