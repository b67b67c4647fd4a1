import { useMemo, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { captionOf, useModelEntities, type ModelEntity } from '../../../lib/model'
import { useRestEntities, useRowCount } from '../api/rest'
import './data.css'

/** /data: every entity the admin's token may read, searchable, with its row count. */
export function EntityPickerPage() {
  const model = useModelEntities()
  const readable = useRestEntities()
  const [text, setText] = useState('')
  const navigate = useNavigate()

  const list = useMemo(() => {
    const names = new Set((readable.data ?? []).map((e) => e.entityName))
    const needle = text.trim().toLowerCase()
    return (model.data ?? [])
      .filter((e) => names.has(e.name))
      .filter(
        (e) =>
          !needle ||
          e.name.toLowerCase().includes(needle) ||
          captionOf(e).toLowerCase().includes(needle) ||
          (e.description ?? '').toLowerCase().includes(needle)
      )
      .sort((a, b) => a.name.localeCompare(b.name))
  }, [model.data, readable.data, text])

  const hidden = (model.data?.length ?? 0) - (readable.data?.length ?? 0)

  return (
    <Page
      title="Data"
      description="Browse, filter and edit rows through the REST API with your own token: your roles apply as to any client."
      testId="data-entities"
    >
      <div className="toolbar">
        <input
          className="input data-search"
          type="search"
          placeholder="Find an entity…"
          aria-label="Find an entity"
          value={text}
          autoFocus
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && list[0])
              void navigate(`/data/${encodeURIComponent(list[0].name)}`)
          }}
          data-testid="entity-search"
        />
        <span className="muted" data-testid="entity-count">
          {list.length} {list.length === 1 ? 'entity' : 'entities'}
        </span>
      </div>
      {(model.error || readable.error) && (
        <ErrorMessage error={model.error ?? readable.error} testId="data-error" />
      )}
      {(model.isPending || readable.isPending) && !model.error && !readable.error ? (
        <Loading />
      ) : list.length === 0 && !model.error && !readable.error ? (
        <EmptyState title={text ? `No entity matches “${text}”` : 'No entities yet'}>
          {text ? 'Try another word.' : <Link to="/model">Create one in the data model.</Link>}
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table data-entities">
            <thead>
              <tr>
                <th scope="col">Entity</th>
                <th scope="col">Description</th>
                <th scope="col" className="data-num">
                  Attributes
                </th>
                <th scope="col" className="data-num">
                  Rows
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((e) => (
                <EntityRow key={e.name} entity={e} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hidden > 0 && readable.data && (
        <p className="muted" data-testid="entities-hidden">
          {hidden} more {hidden === 1 ? 'entity is' : 'entities are'} not readable with your roles.
        </p>
      )}
    </Page>
  )
}

function EntityRow({ entity }: { entity: ModelEntity }) {
  const count = useRowCount(entity.name)
  const caption = captionOf(entity)
  return (
    <tr data-testid="entity-row">
      <td>
        <Link
          to={`/data/${encodeURIComponent(entity.name)}`}
          className="data-entity-link"
          data-testid="entity-link"
        >
          {caption !== entity.name ? caption : entity.name}
        </Link>
        {caption !== entity.name && <div className="mono muted data-small">{entity.name}</div>}
        {(entity.traits ?? []).map((t) => (
          <span key={t} className="badge badge--outline data-trait">
            {t}
          </span>
        ))}
      </td>
      <td className="muted">{entity.description ?? ''}</td>
      <td className="data-num">{entity.attributes.length}</td>
      <td className="data-num" data-testid="entity-rows">
        {count.data ?? (count.error ? '?' : '…')}
      </td>
    </tr>
  )
}
