import { useEffect, useRef, useState } from 'react'
import { EmptyState } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Field } from '../../../components/ui/field'
import { Loading } from '../../../components/ui/loading'
import { useModelEntities } from '../../../lib/model'
import { useAudit } from '../api/history'
import type { AuditFilters } from '../api/keys'
import { AuditEntryCard } from './audit_entry'
import { Pager } from './pager'
import { SECTION_LABELS } from './format'

export const AUDIT_LIMIT = 20

interface AuditTabProps {
  filters: AuditFilters
  onChange: (next: Partial<AuditFilters>) => void
}

/** A text filter applied when typing pauses (and at once on Enter). */
function useDebounced(value: string, apply: (v: string) => void) {
  const [text, setText] = useState(value)
  const applyRef = useRef(apply)
  applyRef.current = apply
  useEffect(() => setText(value), [value])
  useEffect(() => {
    if (text.trim() === value) return
    const timer = window.setTimeout(() => applyRef.current(text.trim()), 350)
    return () => window.clearTimeout(timer)
  }, [text, value])
  return [text, setText] as const
}

/** Who changed what and when (mg_audit), filtered by section, element and author. */
export function AuditTab({ filters, onChange }: AuditTabProps) {
  const audit = useAudit(filters)
  const entities = useModelEntities()
  const [element, setElement] = useDebounced(filters.element, (v) => onChange({ element: v, offset: 0 }))
  const [author, setAuthor] = useDebounced(filters.author, (v) => onChange({ author: v, offset: 0 }))
  const filtered = Boolean(filters.section || filters.element || filters.author)

  return (
    <>
      <form
        className="audit-filters"
        role="search"
        aria-label="Filter the audit trail"
        onSubmit={(e) => {
          e.preventDefault()
          onChange({ element: element.trim(), author: author.trim(), offset: 0 })
        }}
      >
        <Field label="Section">
          <select
            className="input"
            value={filters.section}
            onChange={(e) => onChange({ section: e.target.value, offset: 0 })}
            data-testid="audit-section"
          >
            <option value="">Every section</option>
            {Object.entries(SECTION_LABELS).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Element" hint="Exact name, e.g. an entity">
          <input
            className="input"
            list="audit-element-names"
            value={element}
            onChange={(e) => setElement(e.target.value)}
            placeholder="bookstore_Order"
            data-testid="audit-element-filter"
          />
        </Field>
        <datalist id="audit-element-names">
          {entities.data?.map((e) => <option key={e.name} value={e.name} />)}
        </datalist>
        <Field label="Author" hint="User name or client id">
          <input
            className="input"
            value={author}
            onChange={(e) => setAuthor(e.target.value)}
            placeholder="admin"
            data-testid="audit-author-filter"
          />
        </Field>
        <div className="audit-filters__actions">
          <button type="submit" className="btn btn--small">
            Filter
          </button>
          {filtered && (
            <button
              type="button"
              className="btn btn--small"
              onClick={() => onChange({ section: '', element: '', author: '', offset: 0 })}
              data-testid="audit-clear"
            >
              Clear filters
            </button>
          )}
        </div>
      </form>
      {audit.isPending && <Loading label="Loading the audit trail…" />}
      {audit.error && <ErrorMessage error={audit.error} testId="audit-error" />}
      {audit.data && audit.data.total === 0 && (
        <EmptyState title={filtered ? 'No entry matches these filters' : 'No changes recorded yet'}>
          {filtered ? 'Element and author must match exactly.' : 'Every change of the definition is recorded here.'}
        </EmptyState>
      )}
      {audit.data && audit.data.total > 0 && (
        <>
          <Pager
            total={audit.data.total}
            offset={filters.offset}
            limit={AUDIT_LIMIT}
            onOffset={(offset) => onChange({ offset })}
            noun="entries"
            testId="audit-pager"
          />
          <ol className="audit-list" data-testid="audit-list" aria-busy={audit.isFetching}>
            {audit.data.entries.map((entry) => (
              <AuditEntryCard
                key={entry.id}
                entry={entry}
                onFilterElement={(section, name) => onChange({ section, element: name, offset: 0 })}
              />
            ))}
          </ol>
        </>
      )}
    </>
  )
}
