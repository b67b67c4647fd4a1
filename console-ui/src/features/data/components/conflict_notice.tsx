/*
 * An optimistic-lock conflict (409 `Optimistic lock`): nothing was saved. Shows, for each
 * attribute the admin edited, their value and the one now on the server, and offers to reload
 * (discarding the edits) or to reload and re-apply the edits on top of the newer version.
 */
import type { ModelAttribute, ModelEntity, ModelEnum } from '../../../lib/model'
import { isToMany } from '../../../lib/model'
import { formatCell } from '../api/format'
import { toJsonValue, type FormContext, type FormValues } from '../api/form_values'
import type { EntityRow } from '../api/schema'

interface ConflictNoticeProps {
  entity: ModelEntity
  changed: string[]
  values: FormValues
  latest: EntityRow | null | undefined
  enums: ModelEnum[]
  ctx: FormContext
  onReload: (keepEdits: boolean) => void
}

function shownForm(a: ModelAttribute, v: unknown, enums: ModelEnum[], ctx: FormContext): string {
  if (a.type === 'composition') {
    const n = isToMany(a) ? ((v as unknown[] | null) ?? []).length : v ? 1 : 0
    return `${n} ${n === 1 ? 'row' : 'rows'} (edited)`
  }
  if (a.type === 'association') return formatCell(a, v, enums).text
  try {
    return formatCell(a, toJsonValue(a, v, ctx, a.name), enums).text
  } catch {
    return String(v)
  }
}

function shownServer(a: ModelAttribute, v: unknown, enums: ModelEnum[]): string {
  if (a.type === 'composition') {
    const n = isToMany(a) ? ((v as unknown[] | null) ?? []).length : v ? 1 : 0
    return `${n} ${n === 1 ? 'row' : 'rows'}`
  }
  return formatCell(a, v, enums).text
}

export function ConflictNotice({
  entity,
  changed,
  values,
  latest,
  enums,
  ctx,
  onReload,
}: ConflictNoticeProps) {
  const attributes = entity.attributes.filter((a) => changed.includes(a.name))
  return (
    <div className="notice data-conflict" role="alert" data-testid="conflict">
      <strong>Someone else changed this row after you opened it</strong>
      <p>
        Nothing was saved
        {latest?.version !== undefined ? ` (the row is now at version ${latest.version})` : ''}.
        Reload to see their version, or reload and re-apply your edits on top of it, check, and save
        again.
      </p>
      {attributes.length > 0 && (
        <div className="table-wrap data-conflict__table">
          <table className="table">
            <caption className="data-sr">Your edits and the values now stored</caption>
            <thead>
              <tr>
                <th scope="col">Attribute</th>
                <th scope="col">Your edit</th>
                <th scope="col">Now on the server</th>
              </tr>
            </thead>
            <tbody>
              {attributes.map((a) => (
                <tr key={a.name} data-testid="conflict-row">
                  <th scope="row">{ctx.caption(entity.name, a.name)}</th>
                  <td>{shownForm(a, values[a.name], enums, ctx)}</td>
                  <td data-testid="conflict-server">
                    {latest ? shownServer(a, latest[a.name], enums) : '…'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="data-conflict__actions">
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => onReload(false)}
          data-testid="conflict-reload"
        >
          Reload the row
        </button>
        {attributes.length > 0 && (
          <button
            type="button"
            className="btn"
            onClick={() => onReload(true)}
            data-testid="conflict-reapply"
          >
            Reload and re-apply my edits
          </button>
        )}
      </div>
    </div>
  )
}
