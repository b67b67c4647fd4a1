import { Link } from 'react-router'
import type { ModelAttribute } from '../../../lib/model'
import { isToMany } from '../../../lib/model'
import type { RefValue } from './reference_picker'

const SHOWN = 12

/**
 * The inverse side of a relation (`mappedBy`): the related rows as links, read-only (they are
 * changed from the other side), and a link to the target's table filtered to this row.
 */
export function InverseField({
  attribute: a,
  label,
  value,
  ownerId,
}: {
  attribute: ModelAttribute
  label: string
  value: unknown
  ownerId?: string
}) {
  const list = (isToMany(a) ? (value as RefValue[] | null) : value ? [value as RefValue] : []) ?? []
  const target = encodeURIComponent(a.target ?? '')
  const filter = ownerId
    ? JSON.stringify({ conditions: [{ property: a.mappedBy, operator: '=', value: ownerId }] })
    : null
  return (
    <div className="field data-wide" data-testid={`inverse-${a.name}`}>
      <span className="field__label">{label}</span>
      {list.length === 0 ? (
        <span className="muted">None</span>
      ) : (
        <ul className="data-chips">
          {list.slice(0, SHOWN).map((r) => (
            <li key={r.id} className="data-chip data-chip--link">
              <Link to={`/data/${target}/${encodeURIComponent(r.id)}`}>
                {r._instanceName ?? r.id}
              </Link>
            </li>
          ))}
          {list.length > SHOWN && <li className="muted">+{list.length - SHOWN} more</li>}
        </ul>
      )}
      <div className="field__hint">
        {list.length} {list.length === 1 ? 'row' : 'rows'} of {a.target} whose{' '}
        <span className="mono">{a.mappedBy as string}</span> is this row; change them there.
        {filter && (
          <>
            {' '}
            <Link to={`/data/${target}?filter=${encodeURIComponent(filter)}`}>
              Open in the table
            </Link>
          </>
        )}
      </div>
    </div>
  )
}
