/*
 * "See as": pick a user or a client and an entity, and see — before saving — how many rows and
 * which first rows that subject would read with the role being edited (in place of its stored
 * version), next to what it reads today, and the SQL its rules compile to
 * (POST /admin/api/row-preview with `rowLevelRole`, README "Admin API"). Updates as you edit.
 */
import { useEffect, useId, useState } from 'react'
import { Panel } from '../../../components/ui/panel'
import { problemsOf } from '../../../lib/admin'
import { ApiError } from '../../../lib/api'
import { describeError } from '../../../components/ui/error_message'
import { useRowPreview, type Subject } from '../api/roles'
import { SubjectPicker } from './subject_picker'
import { useDebounced } from '../hooks/use_debounced'

const LIMIT = 10

interface SeeAsPanelProps {
  /** The role as it would be saved (code, policies…); null while a rule is incomplete. */
  role: unknown | null
  /** Entities the role's policies name (offered first). */
  entities: string[]
  allEntities: string[]
  /** Whom to preview first (the signed-in admin). */
  initialSubject: Subject | null
  /** Problems the server found in the draft, keyed below the role (`policies[0].filter`). */
  onProblems?: (problems: Record<string, string>) => void
}

const cellText = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

export function SeeAsPanel({ role, entities, allEntities, initialSubject, onProblems }: SeeAsPanelProps) {
  const id = useId()
  const [subject, setSubject] = useState<Subject | null>(initialSubject)
  const [picked, setPicked] = useState<string | null>(null)
  const entity = picked && allEntities.includes(picked) ? picked : (entities[0] ?? null)
  const draft = useDebounced(role)
  const base = subject && entity ? { entity, subject, limit: LIMIT } : null
  const preview = useRowPreview(base && draft !== null ? { ...base, rowLevelRole: draft } : null)
  const now = useRowPreview(base)
  const pending = JSON.stringify(draft) !== JSON.stringify(role) || preview.isFetching

  const problems = problemsOf(preview.error)
  const problemText = JSON.stringify(problems)
  useEffect(() => {
    const out: Record<string, string> = {}
    for (const p of JSON.parse(problemText) as { path: string; message: string }[]) {
      const m = /^\$\.rowLevelRole\.?(.*)$/.exec(p.path)
      if (m) out[m[1] ?? ''] = p.message
    }
    onProblems?.(out)
  }, [problemText, onProblems])

  const data = preview.data && !preview.isError && role !== null ? preview.data : null
  // The row's own values first; the id (shortened) last; instance names add little here.
  const columns = data?.rows.length
    ? [...Object.keys(data.rows[0]!).filter((k) => !k.startsWith('_') && k !== 'id' && k !== 'version').slice(0, 4), 'id']
    : []
  const name = subject?.name ?? ''

  return (
    <Panel title="See as" testId="see-as">
      <p className="muted roles-help">What a user or client would read with this role as it is now in the editor — before saving.</p>
      <SubjectPicker value={subject} onChange={setSubject} testId="see-as" />
      <div className="field see-as__entity">
        <label className="field__label" htmlFor={`${id}-entity`}>
          Entity
        </label>
        <select id={`${id}-entity`} className="input" value={entity ?? ''} onChange={(e) => setPicked(e.target.value)} data-testid="see-as-entity">
          {!entity && <option value="">Choose an entity…</option>}
          {[...entities, ...allEntities.filter((e) => !entities.includes(e))].map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </select>
      </div>
      {!subject && <p className="muted">Pick a user or a client.</p>}
      {subject && role === null && (
        <p className="notice" data-testid="see-as-incomplete">
          Complete the conditions of the rule to see what {subject.name} would read.
        </p>
      )}
      {preview.isError &&
        (problems.length ? (
          <div className="error" role="alert" data-testid="see-as-problems">
            <strong>The rule cannot be previewed:</strong>
            <ul className="role-errors">
              {problems.map((p) => (
                <li key={p.path}>{p.message}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="error" role="alert">
            {describeError(preview.error).title}: {preview.error instanceof ApiError ? preview.error.details : ''}
          </p>
        ))}
      {data && (
        <div className={pending ? 'see-as__result see-as__result--pending' : 'see-as__result'} aria-busy={pending} data-testid="see-as-result">
          {data.canRead ? (
            <p className="see-as__count" aria-live="polite">
              <strong>{name}</strong> would see{' '}
              <strong className="see-as__number" data-testid="see-as-count">
                {data.count}
              </strong>{' '}
              {data.count === 1 ? 'row' : 'rows'} of <code>{data.entity}</code>
              {now.data && (
                <span className="muted" data-testid="see-as-now">
                  {' '}
                  (today: {now.data.canRead ? now.data.count : 'none'})
                </span>
              )}
            </p>
          ) : (
            <p className="notice" data-testid="see-as-cannot">
              <strong>{name}</strong> cannot read <code>{data.entity}</code> at all: {data.reason}. Row rules change nothing
              until its resource roles grant read.
            </p>
          )}
          <details className="see-as__sql" open>
            <summary>SQL of the row rules</summary>
            {data.sql ? (
              <pre className="plan__sql" tabIndex={0} aria-label="SQL of the row rules" data-testid="see-as-sql">
                {data.sql.text}
                {data.sql.bindings.length > 0 && `\n-- bindings: ${JSON.stringify(data.sql.bindings)}`}
              </pre>
            ) : (
              <p className="muted">No row rule restricts reading this entity for {name}.</p>
            )}
          </details>
          {data.rows.length > 0 && (
            <div className="table-wrap see-as__rows" role="region" aria-label={`First rows ${name} would see`} tabIndex={0}>
              <table className="table" data-testid="see-as-rows">
                <caption className="roles-sr-only">
                  First {data.rows.length} rows {name} would see
                </caption>
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th scope="col" key={c}>
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((row, i) => (
                    <tr key={cellText(row.id) || i}>
                      {columns.map((c) => (
                        <td key={c} className={c === 'id' ? 'mono see-as__id' : undefined} title={cellText(row[c])}>
                          {c === 'id' ? `${cellText(row[c]).slice(0, 8)}…` : cellText(row[c])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {data.count > data.rows.length && <p className="muted see-as__more">… and {data.count - data.rows.length} more</p>}
            </div>
          )}
        </div>
      )}
    </Panel>
  )
}
