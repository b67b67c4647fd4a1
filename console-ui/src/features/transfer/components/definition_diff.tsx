import { useMemo, useState } from 'react'
import type { ChangeResult } from '../../../lib/admin'
import { kindLabel, RiskList } from '../../../components/plan/plan_view'
import { JsonDiff } from '../../../components/diff/json_diff'
import { countChanges, findElement, groupChanges, type ElementChangeKind, type PlannedElement } from './change_lines'

const BADGE: Record<ElementChangeKind, string> = {
  added: 'badge badge--ok',
  changed: 'badge badge--warn',
  removed: 'badge badge--bad',
}
const SIGN: Record<ElementChangeKind, string> = { added: '+', changed: '~', removed: '−' }

interface DefinitionDiffProps {
  /** The plan (dry run) of the document. */
  result: ChangeResult
  /** The stored definition (export) and the uploaded document, for each element's before/after. */
  stored?: unknown
  incoming?: unknown
}

function DiffElement({ item, stored, incoming, open: initiallyOpen }: { item: PlannedElement; stored?: unknown; incoming?: unknown; open: boolean }) {
  const [open, setOpen] = useState(initiallyOpen)
  const before = item.change === 'added' ? undefined : findElement(stored, item.section, item.element)
  const after = item.change === 'removed' ? undefined : findElement(incoming, item.section, item.element)
  const canShow = before !== undefined || after !== undefined
  return (
    <li className={`diff-element diff-element--${item.change}`} data-testid="diff-element" data-change={item.change} data-element={item.element}>
      <div className="diff-element__head">
        <span className={BADGE[item.change]}>{item.change}</span>
        <code className="diff-element__name">{item.element}</code>
        {canShow && (
          <button
            type="button"
            className="btn btn--small diff-element__toggle"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
            data-testid="diff-element-toggle"
          >
            {open ? 'Hide details' : 'Show details'}
            <span className="transfer-sr"> of {item.element}</span>
          </button>
        )}
      </div>
      {item.details.length > 0 && (
        <ul className="diff-details">
          {item.details.map((d, i) => (
            <li key={i} className={`diff-detail diff-detail--${d.change}`} data-testid="diff-detail">
              <span className="diff-detail__sign" aria-hidden="true">
                {SIGN[d.change]}
              </span>
              {d.text}
            </li>
          ))}
        </ul>
      )}
      {open && canShow && <JsonDiff before={before} after={after} labels={['stored', 'document']} />}
    </li>
  )
}

/**
 * What importing a document would do, readable: the elements added, changed and removed per
 * section (each with its details and, on demand, the stored-vs-document diff), the data-loss
 * risks, and every database operation with its SQL.
 */
export function DefinitionDiff({ result, stored, incoming }: DefinitionDiffProps) {
  const sections = useMemo(() => groupChanges(result.changes), [result.changes])
  const counts = countChanges(sections)
  const total = counts.added + counts.changed + counts.removed
  const sqlCount = result.steps.reduce((n, s) => n + s.sql.length, 0)
  if (result.changes.length === 0 && result.steps.length === 0)
    return (
      <p className="notice transfer-unchanged" data-testid="plan-unchanged">
        Nothing to change: the stored definition already says what this document says.
      </p>
    )
  return (
    <div className="definition-diff" data-testid="definition-diff">
      <p className="diff-summary" data-testid="diff-summary">
        <span className="badge badge--ok">{counts.added} added</span>{' '}
        <span className="badge badge--warn">{counts.changed} changed</span>{' '}
        <span className="badge badge--bad">{counts.removed} removed</span>{' '}
        <span className="muted">
          · {sqlCount} SQL statement{sqlCount === 1 ? '' : 's'}
        </span>
      </p>
      <RiskList risks={result.risks ?? []} />
      {sections.map((s) => (
        <section key={s.section} className="diff-section" data-testid="diff-section" data-section={s.section}>
          <h3 className="diff-section__title">
            {s.label} <span className="muted">({s.elements.length})</span>
          </h3>
          <ul className="diff-elements">
            {s.elements.map((item) => (
              <DiffElement
                key={item.line}
                item={item}
                stored={stored}
                incoming={incoming}
                open={item.change === 'changed' && total <= 4}
              />
            ))}
          </ul>
        </section>
      ))}
      {result.steps.length > 0 && (
        <section className="diff-section">
          <h3 className="diff-section__title">
            Database operations <span className="muted">({sqlCount} SQL statement{sqlCount === 1 ? '' : 's'})</span>
          </h3>
          <ol className="plan__steps" data-testid="plan-steps">
            {result.steps.map((step, i) => (
              <li key={i} className="plan__step">
                <div>
                  <span className="badge">{kindLabel(step.kind)}</span> <code>{step.target}</code>{' '}
                  <span className="muted">{step.description}</span>
                </div>
                {step.sql.length > 0 && (
                  <pre className="plan__sql" data-testid="plan-sql">
                    {step.sql.join(';\n') + ';'}
                  </pre>
                )}
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  )
}
