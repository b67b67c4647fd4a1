import { useId, useState } from 'react'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { useAuditEntry, type AuditElement, type AuditEntry } from '../api/history'
import { JsonDiff } from '../../../components/diff/json_diff'
import { sectionLabel, when } from './format'

const CHANGE_BADGE: Record<AuditElement['change'], string> = {
  created: 'badge badge--ok',
  changed: 'badge badge--warn',
  deleted: 'badge badge--bad',
}

const FOLDED = 4

interface AuditEntryCardProps {
  entry: AuditEntry
  onFilterElement: (section: string, element: string) => void
}

/** One audit entry: who, when, from where, the change lines; expands to each element's diff. */
export function AuditEntryCard({ entry, onFilterElement }: AuditEntryCardProps) {
  const [open, setOpen] = useState(false)
  const detailsId = useId()
  const lines = open ? entry.changes : entry.changes.slice(0, FOLDED)
  const hiddenLines = entry.changes.length - lines.length
  return (
    <li className="audit-entry" data-testid="audit-entry" data-id={entry.id}>
      <div className="audit-entry__head">
        <span className="audit-entry__time">{when(entry.at)}</span>
        <span className="audit-entry__who">
          <span className="badge badge--accent" data-testid="audit-author">
            {entry.author.name}
          </span>{' '}
          <span className="muted">{entry.author.kind}</span>
        </span>
        <span className="muted">via {entry.source}</span>
        <span className="badge badge--outline" title="Definition version after this change">
          v{entry.definitionVersion}
        </span>
        <button
          type="button"
          className="btn btn--small audit-entry__toggle"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen((o) => !o)}
          data-testid="audit-toggle"
        >
          {open ? 'Hide diff' : 'Show diff'}
        </button>
      </div>
      <ul className="audit-entry__changes" data-testid="audit-changes">
        {lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
        {hiddenLines > 0 && <li className="muted">… and {hiddenLines} more</li>}
      </ul>
      {!open && entry.elements.length > 0 && (
        <div className="audit-entry__elements">
          {entry.elements.slice(0, 8).map((e) => (
            <button
              key={`${e.section}/${e.element}`}
              type="button"
              className="audit-chip"
              title={`Show only the changes of ${e.element}`}
              onClick={() => onFilterElement(e.section, e.element)}
            >
              <span className={CHANGE_BADGE[e.change]}>{e.change}</span> {sectionLabel(e.section)}: {e.element}
            </button>
          ))}
          {entry.elements.length > 8 && <span className="muted">+{entry.elements.length - 8} more</span>}
        </div>
      )}
      <div id={detailsId} hidden={!open}>
        {open && <AuditDetails id={entry.id} />}
      </div>
    </li>
  )
}

function AuditDetails({ id }: { id: number }) {
  const detail = useAuditEntry(id, true)
  if (detail.isPending) return <Loading label="Loading the diff…" />
  if (detail.error) return <ErrorMessage error={detail.error} />
  if (detail.data.elements.length === 0) return <p className="muted">No element recorded for this entry.</p>
  return (
    <div className="audit-details" data-testid="audit-details">
      {detail.data.elements.map((e) => (
        <section key={`${e.section}/${e.element}`} className="audit-element" data-testid="audit-element">
          <h3 className="audit-element__title">
            <span className={CHANGE_BADGE[e.change]}>{e.change}</span> {sectionLabel(e.section)}{' '}
            <code>{e.element}</code>
          </h3>
          <JsonDiff before={e.before} after={e.after} />
        </section>
      ))}
    </div>
  )
}
