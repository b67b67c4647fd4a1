import type { Captions } from '../../../lib/model'

export interface EnumValue {
  name: string
  id: string
  caption?: Captions
}

interface EnumValuesTableProps {
  values: EnumValue[]
  onChange: (values: EnumValue[]) => void
  /** Field errors of the enum (`values[2].id`…). */
  errors: Record<string, string>
  locales: string[]
}

function CellError({ message }: { message?: string }) {
  if (!message) return null
  return (
    <div className="field__error" role="alert" data-testid="field-error">
      {message}
    </div>
  )
}

/** The values of an enum: name, id and a caption per locale; reorder, add, remove. */
export function EnumValuesTable({ values, onChange, errors, locales }: EnumValuesTableProps) {
  const update = (i: number, patch: Partial<EnumValue>) =>
    onChange(values.map((v, k) => (k === i ? { ...v, ...patch } : v)))
  const move = (i: number, by: number) => {
    const next = [...values]
    const [item] = next.splice(i, 1)
    next.splice(i + by, 0, item!)
    onChange(next)
  }
  return (
    <>
      <div className="table-wrap">
        <table className="table table--form" data-testid="enum-values">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id (stored)</th>
              {locales.map((l) => (
                <th key={l} scope="col">
                  Caption <span className="badge badge--outline">{l}</span>
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {values.map((v, i) => (
              <tr key={i} data-testid={`enum-value-${i}`}>
                <td>
                  <input
                    className="input mono"
                    aria-label={`Name of value ${i + 1}`}
                    aria-invalid={errors[`values[${i}].name`] ? true : undefined}
                    value={v.name}
                    onChange={(e) => update(i, { name: e.target.value })}
                    data-testid={`enum-value-name-${i}`}
                  />
                  <CellError message={errors[`values[${i}].name`] ?? errors[`values[${i}]`]} />
                </td>
                <td>
                  <input
                    className="input mono"
                    aria-label={`Id of value ${i + 1}`}
                    aria-invalid={errors[`values[${i}].id`] ? true : undefined}
                    value={v.id}
                    onChange={(e) => update(i, { id: e.target.value })}
                    data-testid={`enum-value-id-${i}`}
                  />
                  <CellError message={errors[`values[${i}].id`]} />
                </td>
                {locales.map((l) => (
                  <td key={l}>
                    <input
                      className="input"
                      aria-label={`Caption of value ${i + 1} (${l})`}
                      value={v.caption?.[l] ?? ''}
                      onChange={(e) =>
                        update(i, { caption: { ...v.caption, [l]: e.target.value } })
                      }
                    />
                  </td>
                ))}
                <td className="actions">
                  <button
                    type="button"
                    className="btn btn--small btn--icon"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={`Move value ${i + 1} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn btn--small btn--icon"
                    disabled={i === values.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move value ${i + 1} down`}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="btn btn--small btn--quiet-danger"
                    onClick={() => onChange(values.filter((_, k) => k !== i))}
                    aria-label={`Remove value ${i + 1}`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <CellError message={errors.values} />
      <button
        type="button"
        className="btn btn--small add-row"
        onClick={() => onChange([...values, { name: '', id: '' }])}
        data-testid="add-enum-value"
      >
        + Add value
      </button>
    </>
  )
}
