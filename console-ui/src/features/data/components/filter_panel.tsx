import { useState } from 'react'
import { FilterBuilder } from '../../../components/filter/filter_builder'
import {
  countConditions,
  filterProblems,
  pruneFilter,
  type Filter,
} from '../../../components/filter/filter'
import type { ModelEntity, ModelEnum } from '../../../lib/model'
import { FilterReferenceInput } from './reference_picker'

interface FilterPanelProps {
  entity: string
  entities: ModelEntity[]
  enums: ModelEnum[]
  applied: Filter
  onApply: (filter: Filter) => void
  onClose: () => void
  /** The server's answer to the applied filter, when it refused it. */
  serverError?: string
}

/** The filter being edited; applied (URL, server search) only on "Apply". */
export function FilterPanel({
  entity,
  entities,
  enums,
  applied,
  onApply,
  onClose,
  serverError,
}: FilterPanelProps) {
  const [draft, setDraft] = useState<Filter>(() =>
    applied.conditions.length ? applied : { conditions: [{ property: '', operator: '=' }] }
  )
  const [errors, setErrors] = useState<Record<string, string>>({})
  const apply = () => {
    const problems = filterProblems(draft, entities, entity)
    setErrors(problems)
    if (Object.keys(problems).length) return
    onApply(pruneFilter(draft))
  }
  return (
    <section
      className="panel data-filter"
      aria-labelledby="data-filter-title"
      data-testid="filter-panel"
    >
      <h2 className="panel__title" id="data-filter-title">
        Filter
      </h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          apply()
        }}
      >
        <FilterBuilder
          entity={entity}
          entities={entities}
          enums={enums}
          value={draft}
          onChange={(next) => {
            setDraft(next)
            setErrors({})
          }}
          errors={errors}
          referenceInput={FilterReferenceInput}
        />
        {serverError && (
          <p className="field__error" role="alert" data-testid="filter-server-error">
            The server refused this filter: {serverError}
          </p>
        )}
        <div className="data-filter__actions">
          <button type="submit" className="btn btn--primary" data-testid="filter-apply">
            Apply
            {countConditions(draft.conditions) ? ` (${countConditions(draft.conditions)})` : ''}
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => {
              setDraft({ conditions: [] })
              onApply({ conditions: [] })
            }}
            data-testid="filter-clear"
          >
            Clear
          </button>
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
          <details className="data-filter__json">
            <summary>JSON</summary>
            <pre className="mono" data-testid="filter-json">
              {JSON.stringify(pruneFilter(draft), null, 2)}
            </pre>
          </details>
        </div>
      </form>
    </section>
  )
}
