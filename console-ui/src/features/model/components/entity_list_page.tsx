import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react'
import { Link } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { captionOf, isRelation, useModelEntities, type ModelEntity } from '../../../lib/model'
import { useRowCount } from '../api/model_api'
import { ModelTabs } from './model_tabs'
import './model.css'

/** True once the element has been on screen (the row count is read only then). */
function useSeen<T extends Element>() {
  const ref = useRef<T>(null)
  const [seen, setSeen] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (seen || !element) return
    if (typeof IntersectionObserver === 'undefined') return setSeen(true)
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [seen])
  return [ref, seen] as const
}

function RowCount({ entity }: { entity: string }) {
  const [ref, seen] = useSeen<HTMLSpanElement>()
  const count = useRowCount(entity, seen)
  return (
    <span ref={ref} className="num" data-testid="entity-rows">
      {count.data !== undefined ? (
        count.data.toLocaleString()
      ) : count.isError ? (
        <span className="muted" title="Not readable">
          –
        </span>
      ) : (
        <span className="muted">…</span>
      )}
    </span>
  )
}

function matches(e: ModelEntity, q: string) {
  if (!q) return true
  const hay = [e.name, e.table ?? '', ...Object.values(e.caption ?? {}), e.description ?? '']
    .join(' ')
    .toLowerCase()
  return hay.includes(q)
}

/** /model: every entity with its size, relations and traits; search; the way into the editor. */
export function EntityListPage() {
  const entities = useModelEntities()
  const [query, setQuery] = useState('')
  const q = useDeferredValue(query.trim().toLowerCase())
  const list = useMemo(
    () =>
      (entities.data ?? [])
        .filter((e) => matches(e, q))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [entities.data, q]
  )
  const attributeCount = (entities.data ?? []).reduce((n, e) => n + e.attributes.length, 0)

  return (
    <Page
      title="Data model"
      description="The entities the REST API serves, their attributes and relations. Every change shows its plan — the SQL and any data at risk — before it is applied."
      actions={
        <Link to="/model/entities/new" className="btn btn--primary" data-testid="new-entity">
          + New entity
        </Link>
      }
      testId="model-page"
    >
      <ModelTabs />
      <div className="toolbar">
        <input
          className="input"
          type="search"
          placeholder="Filter by name, caption or table…"
          aria-label="Filter entities"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="entity-filter"
        />
        {entities.data && (
          <span className="muted" data-testid="entity-summary">
            {list.length === entities.data.length ? '' : `${list.length} of `}
            {entities.data.length} {entities.data.length === 1 ? 'entity' : 'entities'}
            {' · '}
            {attributeCount} attribute{attributeCount === 1 ? '' : 's'}
          </span>
        )}
      </div>
      {entities.isPending && <Loading />}
      {entities.error && <ErrorMessage error={entities.error} />}
      {entities.data && entities.data.length === 0 && (
        <EmptyState title="No entities yet">
          <p>An entity is a table with a REST endpoint. Start with the first one.</p>
          <Link to="/model/entities/new" className="btn btn--primary">
            Create an entity
          </Link>
        </EmptyState>
      )}
      {entities.data && entities.data.length > 0 && list.length === 0 && (
        <EmptyState title={`Nothing matches “${query}”`} />
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="table model-table" data-testid="entity-table">
            <thead>
              <tr>
                <th scope="col">Entity</th>
                <th scope="col" className="num">
                  Attributes
                </th>
                <th scope="col" className="num">
                  Relations
                </th>
                <th scope="col" className="num">
                  Rows
                </th>
                <th scope="col">Traits</th>
                <th scope="col">Table</th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <tr key={e.name} data-testid={`entity-row-${e.name}`}>
                  <td>
                    <Link
                      to={`/model/entities/${encodeURIComponent(e.name)}`}
                      className="model-table__name"
                    >
                      {e.name}
                    </Link>
                    {captionOf(e) !== e.name && <div className="muted small">{captionOf(e)}</div>}
                  </td>
                  <td className="num">{e.attributes.filter((a) => !isRelation(a)).length}</td>
                  <td className="num">{e.attributes.filter(isRelation).length}</td>
                  <td className="num">
                    <RowCount entity={e.name} />
                  </td>
                  <td>
                    <span className="badges">
                      {(e.traits ?? []).map((t) => (
                        <span key={t} className="badge badge--accent">
                          {t}
                        </span>
                      ))}
                      {e.idType && e.idType !== 'uuid' && (
                        <span className="badge badge--outline">id: {e.idType}</span>
                      )}
                    </span>
                  </td>
                  <td className="mono muted">{e.table}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}
