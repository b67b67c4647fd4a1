import { adminChange, fieldErrors } from '../../../lib/admin'
import { isToMany, type ModelEntity } from '../../../lib/model'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { entityPath } from '../api/model_api'
import { StaleNotice } from './stale_notice'
import { useDraft } from '../hooks/use_draft'

type Index = NonNullable<ModelEntity['indexes']>[number]

interface IndexesPanelProps {
  entity: ModelEntity
  version: number | null
  onReload: () => void
}

/** The entity's indexes (beyond the ones unique attributes and relations get): edited as a list. */
export function IndexesPanel({ entity, version, onReload }: IndexesPanelProps) {
  const draft = useDraft<Index[]>(entity.indexes ?? [], version)
  const change = usePlannedChange({
    title: `Indexes of ${entity.name}`,
    success: 'Indexes changed',
  })
  const errors = fieldErrors(change.error)
  const columns = entity.attributes.filter((a) => !a.transient && !isToMany(a)).map((a) => a.name)
  const list = draft.draft
  const setList = draft.setDraft
  const update = (i: number, patch: Partial<Index>) =>
    setList(list.map((x, k) => (k === i ? { ...x, ...patch } : x)))

  const review = () =>
    void change.start((options) =>
      adminChange(
        'PUT',
        `${entityPath(entity.name)}/indexes`,
        list.map((x) => ({ ...x, name: x.name || undefined, unique: x.unique || undefined })),
        {
          ...options,
          ifMatch: draft.version ?? undefined,
        }
      )
    )

  return (
    <section className="panel" aria-labelledby="indexes-title" data-testid="indexes-panel">
      <div className="panel__head">
        <h2 className="panel__title" id="indexes-title">
          Indexes <span className="muted">({list.length})</span>
        </h2>
        <button
          type="button"
          className="btn btn--small"
          onClick={() => setList([...list, { attributes: [] }])}
          data-testid="add-index"
        >
          + Add index
        </button>
      </div>
      <p className="muted small">
        Unique attributes and to-one relations are indexed already. Add indexes for the filters and
        sorts clients use often.
      </p>
      <StaleNotice error={change.error} onReload={onReload} />
      {list.length === 0 && <p className="muted">No extra indexes.</p>}
      <ul className="index-list">
        {list.map((index, i) => {
          const rowErrors = Object.entries(errors).filter(([k]) => k.startsWith(`[${i}]`))
          return (
            <li
              key={i}
              className={rowErrors.length ? 'index-row index-row--invalid' : 'index-row'}
              data-testid={`index-row-${i}`}
            >
              <div
                className="index-row__columns"
                role="group"
                aria-label={`Columns of index ${i + 1}`}
              >
                {index.attributes.map((a, k) => (
                  <span key={`${a}-${k}`} className="chip chip--static">
                    {k + 1}. {a}
                    <button
                      type="button"
                      className="chip__remove"
                      aria-label={`Remove ${a} from index ${i + 1}`}
                      onClick={() =>
                        update(i, { attributes: index.attributes.filter((_, j) => j !== k) })
                      }
                    >
                      ×
                    </button>
                  </span>
                ))}
                <select
                  className="input input--inline"
                  aria-label={`Add a column to index ${i + 1}`}
                  value=""
                  onChange={(e) =>
                    e.target.value &&
                    update(i, { attributes: [...index.attributes, e.target.value] })
                  }
                  data-testid={`index-add-column-${i}`}
                >
                  <option value="">+ column…</option>
                  {columns
                    .filter((c) => !index.attributes.includes(c))
                    .map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                </select>
              </div>
              <label className="check">
                <input
                  type="checkbox"
                  checked={!!index.unique}
                  onChange={(e) => update(i, { unique: e.target.checked })}
                />{' '}
                unique
              </label>
              <input
                className="input input--inline mono"
                placeholder="name (derived)"
                aria-label={`Name of index ${i + 1}`}
                value={index.name ?? ''}
                onChange={(e) => update(i, { name: e.target.value })}
              />
              <button
                type="button"
                className="btn btn--small btn--quiet-danger"
                onClick={() => setList(list.filter((_, k) => k !== i))}
                aria-label={`Remove index ${i + 1}`}
              >
                Remove
              </button>
              {rowErrors.length > 0 && (
                <div
                  className="field__error index-row__error"
                  role="alert"
                  data-testid="field-error"
                >
                  {rowErrors.map(([, m]) => m).join('; ')}
                </div>
              )}
            </li>
          )
        })}
      </ul>
      {errors[''] && (
        <div className="error" role="alert">
          {errors['']}
        </div>
      )}
      {draft.dirty && (
        <div className="form-actions">
          <button type="button" className="btn" onClick={draft.reset}>
            Discard
          </button>
          <button
            type="button"
            className="btn btn--primary"
            onClick={review}
            disabled={change.busy}
            data-testid="review-indexes"
          >
            Review index changes
          </button>
        </div>
      )}
      {change.dialog}
    </section>
  )
}
