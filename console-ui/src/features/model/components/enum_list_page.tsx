import { useDeferredValue, useMemo, useState } from 'react'
import { Link } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import {
  captionOf,
  useModelEntities,
  useModelEnums,
  type Captions,
  type ModelEntity,
  type ModelEnum,
} from '../../../lib/model'
import { ModelTabs } from './model_tabs'
import './model.css'

export const enumCaption = (en: ModelEnum) =>
  captionOf({ name: en.name, caption: en.caption as Captions | undefined })

/** The attributes that use an enum: `entity.attribute`. */
export function enumUsers(entities: ModelEntity[], name: string) {
  return entities.flatMap((e) =>
    e.attributes
      .filter((a) => a.type === 'enum' && a.enum === name)
      .map((a) => ({ entity: e.name, attribute: a.name }))
  )
}

/** /model/enums: every enumeration, its values and where it is used. */
export function EnumListPage() {
  const enums = useModelEnums()
  const entities = useModelEntities()
  const [query, setQuery] = useState('')
  const q = useDeferredValue(query.trim().toLowerCase())
  const list = useMemo(
    () =>
      (enums.data ?? [])
        .filter(
          (e) =>
            !q ||
            e.name.toLowerCase().includes(q) ||
            e.values.some((v) => v.name.toLowerCase().includes(q))
        )
        .sort((a, b) => a.name.localeCompare(b.name)),
    [enums.data, q]
  )
  return (
    <Page
      title="Data model"
      description="Enumerations: fixed lists of values an attribute can take. Attributes store the value id; the REST API shows the name."
      actions={
        <Link to="/model/enums/new" className="btn btn--primary" data-testid="new-enum">
          + New enum
        </Link>
      }
      testId="enum-list-page"
    >
      <ModelTabs />
      <div className="toolbar">
        <input
          className="input"
          type="search"
          placeholder="Filter by name or value…"
          aria-label="Filter enums"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {enums.data && (
          <span className="muted">
            {enums.data.length} enum{enums.data.length === 1 ? '' : 's'}
          </span>
        )}
      </div>
      {enums.isPending && <Loading />}
      {enums.error && <ErrorMessage error={enums.error} />}
      {enums.data?.length === 0 && (
        <EmptyState title="No enums yet">
          <Link to="/model/enums/new" className="btn btn--primary">
            Create an enum
          </Link>
        </EmptyState>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="table model-table" data-testid="enum-table">
            <thead>
              <tr>
                <th scope="col">Enum</th>
                <th scope="col">Values</th>
                <th scope="col">Used by</th>
              </tr>
            </thead>
            <tbody>
              {list.map((en) => {
                const users = enumUsers(entities.data ?? [], en.name)
                return (
                  <tr key={en.name} data-testid={`enum-row-${en.name}`}>
                    <td>
                      <Link
                        to={`/model/enums/${encodeURIComponent(en.name)}`}
                        className="model-table__name"
                      >
                        {en.name}
                      </Link>
                      {enumCaption(en) !== en.name && (
                        <div className="muted small">{enumCaption(en)}</div>
                      )}
                    </td>
                    <td>
                      <span className="badges">
                        {en.values.slice(0, 6).map((v) => (
                          <span
                            key={v.name}
                            className="badge badge--outline"
                            title={`id ${String(v.id)}`}
                          >
                            {v.name}
                          </span>
                        ))}
                        {en.values.length > 6 && (
                          <span className="muted small">+{en.values.length - 6} more</span>
                        )}
                      </span>
                    </td>
                    <td className="small">
                      {users.length === 0 ? (
                        <span className="muted">unused</span>
                      ) : (
                        users.map((u, i) => (
                          <span key={`${u.entity}.${u.attribute}`}>
                            {i > 0 && ', '}
                            <Link
                              to={`/model/entities/${encodeURIComponent(u.entity)}?attribute=${encodeURIComponent(u.attribute)}`}
                            >
                              {u.entity}.{u.attribute}
                            </Link>
                          </span>
                        ))
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}
