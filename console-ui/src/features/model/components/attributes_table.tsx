import { useEffect, useRef } from 'react'
import type { ModelAttribute } from '../../../lib/model'
import { captionOf } from '../../../lib/model'
import {
  attributeSummary,
  isRelationType,
  systemAttributes,
  typeLabel,
} from '../lib/attribute_types'

interface AttributesTableProps {
  attributes: ModelAttribute[]
  traits?: string[]
  idType?: string
  /** `?attribute=` of the URL: scrolled to and highlighted. */
  highlight?: string | null
  /** Problems of a new entity's draft attributes, by attribute name. */
  invalid?: Map<string, string>
  onEdit: (attribute: ModelAttribute) => void
  onDelete: (attribute: ModelAttribute) => void
}

function Flags({ a }: { a: ModelAttribute }) {
  return (
    <span className="badges">
      {a.mandatory && <span className="badge badge--warn">mandatory</span>}
      {a.unique && <span className="badge badge--accent">unique</span>}
      {a.readOnly === true && <span className="badge badge--outline">read-only</span>}
      {a.transient === true && <span className="badge badge--outline">transient</span>}
      {a.type === 'composition' && <span className="badge badge--accent">owns</span>}
    </span>
  )
}

/** The attributes of an entity: what each is, its rules, edit and delete; system attributes greyed. */
export function AttributesTable({
  attributes,
  traits,
  idType,
  highlight,
  invalid,
  onEdit,
  onDelete,
}: AttributesTableProps) {
  const highlighted = useRef<HTMLTableRowElement>(null)
  useEffect(() => {
    if (highlight && highlighted.current)
      highlighted.current.scrollIntoView({ block: 'center', behavior: 'smooth' })
  }, [highlight, attributes.length])

  return (
    <div className="table-wrap">
      <table className="table model-table" data-testid="attribute-table">
        <thead>
          <tr>
            <th scope="col">Attribute</th>
            <th scope="col">Type</th>
            <th scope="col">Details</th>
            <th scope="col">Rules</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {attributes.map((a) => {
            const isHighlighted = a.name === highlight
            const className = [
              isHighlighted ? 'row--highlight' : '',
              invalid?.has(a.name) ? 'row--invalid' : '',
            ]
              .join(' ')
              .trim()
            return (
              <tr
                key={a.name}
                ref={isHighlighted ? highlighted : undefined}
                className={className || undefined}
                data-testid={`attribute-row-${a.name}`}
                aria-current={isHighlighted ? 'true' : undefined}
              >
                <td>
                  <button
                    type="button"
                    className="btn--link model-table__name"
                    onClick={() => onEdit(a)}
                    data-testid={`edit-attribute-${a.name}`}
                  >
                    {a.name}
                  </button>
                  {captionOf(a) !== a.name && <div className="muted small">{captionOf(a)}</div>}
                  {invalid?.has(a.name) && (
                    <div className="field__error small" data-testid="field-error">
                      {invalid.get(a.name)}
                    </div>
                  )}
                </td>
                <td>
                  <span className={isRelationType(a.type) ? 'type type--relation' : 'type'}>
                    {typeLabel(a.type)}
                  </span>
                </td>
                <td className="muted small">{attributeSummary(a)}</td>
                <td>
                  <Flags a={a} />
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="btn btn--small"
                    onClick={() => onEdit(a)}
                    aria-label={`Edit ${a.name}`}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn--small btn--quiet-danger"
                    onClick={() => onDelete(a)}
                    aria-label={`Delete ${a.name}`}
                    data-testid={`delete-attribute-${a.name}`}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            )
          })}
          {systemAttributes(traits, idType).map((s) => (
            <tr key={s.name} className="row--system" data-testid={`system-row-${s.name}`}>
              <td className="mono">{s.name}</td>
              <td>
                <span className="type">{typeLabel(s.type)}</span>
              </td>
              <td className="muted small">managed by the server ({s.why})</td>
              <td>
                <span className="badge badge--outline">system</span>
              </td>
              <td />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
