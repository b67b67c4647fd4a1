import { useEffect, useMemo, useState } from 'react'
import { Link, useParams } from 'react-router'
import { Page, EmptyState } from '../../../components/ui/page'
import { Loading } from '../../../components/ui/loading'
import { ErrorMessage } from '../../../components/ui/error_message'
import { ApiError } from '../../../lib/api'
import { captionOf, useModelEntities, useModelEnums } from '../../../lib/model'
import { countConditions, type Filter } from '../../../components/filter/filter'
import { usePage, useRestEntities } from '../api/rest'
import { columnsOf, defaultColumns, searchPaths, tablePlan } from '../api/schema'
import { cycleSort, sortText, useColumns, useTableState } from '../hooks/use_table_state'
import { DataTable } from './data_table'
import { ColumnChooser } from './column_chooser'
import { FilterPanel } from './filter_panel'
import { Pager } from './pager'
import './data.css'

/** /data/:entity — one entity's rows: server paging, sorting and filtering, chosen columns. */
export function TablePage() {
  const entityName = useParams().entity ?? ''
  const model = useModelEntities()
  const enums = useModelEnums()
  const restMeta = useRestEntities()
  const state = useTableState(entityName)
  const entities = useMemo(() => model.data ?? [], [model.data])
  const byName = useMemo(() => new Map(entities.map((e) => [e.name, e])), [entities])
  const entity = byName.get(entityName)
  const meta = restMeta.data?.find((e) => e.entityName === entityName)
  const captions = useMemo(
    () =>
      Object.fromEntries((meta?.properties ?? []).map((p) => [p.name, p.description ?? p.name])),
    [meta]
  )
  // Attributes the token may see (absent from /rest/metadata otherwise).
  const attributes = useMemo(() => {
    if (!entity) return []
    const visible = meta ? new Set(meta.properties.map((p) => p.name)) : null
    return columnsOf(entity).filter((a) => !visible || visible.has(a.name))
  }, [entity, meta])
  const [columns, setColumns, customised] = useColumns(
    entityName,
    entity ? defaultColumns(entity) : []
  )
  const shownAttributes = attributes.filter((a) => columns.includes(a.name))
  const [filterOpen, setFilterOpen] = useState(false)
  const [qDraft, setQDraft] = useState(state.q)
  useEffect(() => setQDraft(state.q), [state.q, entityName])

  const effectiveFilter = useMemo<Filter>(() => {
    const conditions = [...state.filter.conditions]
    const paths = entity ? searchPaths(entity, byName) : []
    if (state.q && paths.length)
      conditions.push({
        group: 'OR',
        conditions: paths.map((property) => ({ property, operator: 'contains', value: state.q })),
      })
    return { conditions }
  }, [state.filter, state.q, entity, byName])

  const params = {
    limit: state.size,
    offset: (state.page - 1) * state.size,
    sort: sortText(state.sort) || undefined,
    filter: effectiveFilter,
    fetchPlan: entity
      ? tablePlan(
          entity,
          shownAttributes.map((a) => a.name)
        )
      : { properties: [] },
  }
  const page = usePage(entityName, params)
  const enabled = !!entity
  const total = page.data?.total ?? 0
  const filterCount = countConditions(state.filter.conditions)
  const filterError =
    page.error instanceof ApiError && page.error.status === 400
      ? (page.error.details ?? page.error.message)
      : undefined

  if (model.isPending || enums.isPending) return <Loading />
  if (model.error) return <ErrorMessage error={model.error} />
  if (!entity)
    return (
      <Page title="Entity not found" description={<Link to="/data">Back to the entity list</Link>}>
        <EmptyState title={`There is no entity named ${entityName}`} />
      </Page>
    )

  return (
    <Page
      title={captionOf(entity)}
      description={
        <>
          <Link to="/data">Data</Link> / <span className="mono">{entity.name}</span>
          {entity.description ? ` — ${entity.description}` : ''}
        </>
      }
      actions={
        <Link
          to={`/data/${encodeURIComponent(entity.name)}/new`}
          className="btn btn--primary"
          data-testid="new-row"
        >
          + New row
        </Link>
      }
      testId="data-table-page"
    >
      <div className="toolbar data-toolbar">
        <form
          role="search"
          className="data-quick"
          onSubmit={(e) => {
            e.preventDefault()
            state.setQ(qDraft.trim())
          }}
        >
          <input
            className="input"
            type="search"
            placeholder={`Search ${searchPaths(entity, byName).join(', ') || 'rows'}…`}
            aria-label="Search rows"
            value={qDraft}
            onChange={(e) => {
              setQDraft(e.target.value)
              if (!e.target.value) state.setQ('')
            }}
            data-testid="quick-search"
          />
        </form>
        <button
          type="button"
          className={filterCount ? 'btn btn--active' : 'btn'}
          aria-expanded={filterOpen}
          onClick={() => setFilterOpen((o) => !o)}
          data-testid="filter-toggle"
        >
          Filter {filterCount > 0 && <span className="badge badge--accent">{filterCount}</span>}
        </button>
        <ColumnChooser
          attributes={attributes}
          columns={columns}
          onChange={setColumns}
          captions={captions}
          customised={customised}
        />
        <button
          type="button"
          className="btn"
          onClick={() => void page.refetch()}
          aria-label="Reload rows"
          title="Reload rows"
        >
          ⟳
        </button>
        <span className="data-total muted" data-testid="row-total" aria-live="polite">
          {page.data ? `${total} ${total === 1 ? 'row' : 'rows'}` : ''}
          {filterCount || state.q ? ' (filtered)' : ''}
        </span>
      </div>
      {filterOpen && (
        <FilterPanel
          key={JSON.stringify(state.filter)}
          entity={entity.name}
          entities={entities}
          enums={enums.data ?? []}
          applied={state.filter}
          onApply={(f) => state.setFilter(f)}
          onClose={() => setFilterOpen(false)}
          serverError={filterError}
        />
      )}
      {page.error && !(filterError && filterOpen) && (
        <ErrorMessage error={page.error} testId="data-error" />
      )}
      {page.isPending && enabled ? (
        <Loading label="Loading rows…" />
      ) : page.data && page.data.rows.length === 0 ? (
        <EmptyState title={filterCount || state.q ? 'No row matches' : 'No rows yet'}>
          {filterCount || state.q
            ? 'Change or clear the filter.'
            : 'Add the first one with “New row”.'}
        </EmptyState>
      ) : page.data ? (
        <>
          <DataTable
            entity={entity.name}
            rows={page.data.rows}
            attributes={shownAttributes}
            enums={enums.data ?? []}
            sort={state.sort}
            onSort={(p) => state.setSort(cycleSort(state.sort, p))}
            captions={captions}
            busy={page.isFetching}
          />
          <Pager
            page={state.page}
            size={state.size}
            total={total}
            offset={page.data.offset}
            count={page.data.rows.length}
            onPage={state.setPage}
            onSize={state.setSize}
          />
        </>
      ) : null}
    </Page>
  )
}
