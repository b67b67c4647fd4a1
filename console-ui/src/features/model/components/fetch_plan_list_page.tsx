import { useDeferredValue, useMemo, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { EmptyState, Page } from '../../../components/ui/page'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Loading } from '../../../components/ui/loading'
import { useModelEntities } from '../../../lib/model'
import { useFetchPlans } from '../api/model_api'
import type { PlanProperty } from '../lib/fetch_plan'
import { ModelTabs } from './model_tabs'
import './model.css'

const countProperties = (properties: PlanProperty[]): number =>
  properties.reduce(
    (n, p) =>
      n +
      1 +
      (typeof p === 'object' && typeof p.fetchPlan === 'object'
        ? countProperties(p.fetchPlan.properties)
        : 0),
    0
  )

/** /model/fetch-plans[?entity=]: the named fetch plans clients can ask for. */
export function FetchPlanListPage() {
  const plans = useFetchPlans()
  const entities = useModelEntities()
  const [search, setSearch] = useSearchParams()
  const entity = search.get('entity') ?? ''
  const [query, setQuery] = useState('')
  const q = useDeferredValue(query.trim().toLowerCase())
  const list = useMemo(
    () =>
      (plans.data ?? [])
        .filter(
          (p) =>
            (!entity || p.entity === entity) &&
            (!q || p.name.toLowerCase().includes(q) || p.entity.toLowerCase().includes(q))
        )
        .sort((a, b) => a.entity.localeCompare(b.entity) || a.name.localeCompare(b.name)),
    [plans.data, entity, q]
  )
  const newLink = `/model/fetch-plans/new${entity ? `?entity=${encodeURIComponent(entity)}` : ''}`
  return (
    <Page
      title="Data model"
      description={
        <>
          Fetch plans: what a read returns — which attributes, and how deep into relations. Clients
          ask for one with <code>?fetchPlan=name</code>.
        </>
      }
      actions={
        <Link to={newLink} className="btn btn--primary" data-testid="new-fetch-plan">
          + New fetch plan
        </Link>
      }
      testId="fetch-plan-list-page"
    >
      <ModelTabs />
      <div className="toolbar">
        <select
          className="input"
          aria-label="Entity"
          value={entity}
          onChange={(e) => {
            const next = new URLSearchParams(search)
            if (e.target.value) next.set('entity', e.target.value)
            else next.delete('entity')
            setSearch(next, { replace: true })
          }}
          data-testid="plan-entity-filter"
        >
          <option value="">All entities</option>
          {(entities.data ?? []).map((e) => (
            <option key={e.name} value={e.name}>
              {e.name}
            </option>
          ))}
        </select>
        <input
          className="input"
          type="search"
          placeholder="Filter by name…"
          aria-label="Filter fetch plans"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {plans.data && (
          <span className="muted">
            {list.length} plan{list.length === 1 ? '' : 's'}
          </span>
        )}
      </div>
      {plans.isPending && <Loading />}
      {plans.error && <ErrorMessage error={plans.error} />}
      {plans.data && list.length === 0 && (
        <EmptyState title={entity ? `No fetch plans for ${entity}` : 'No fetch plans yet'}>
          <p>
            Without one, clients get _base: every plain attribute and the references the instance
            name uses.
          </p>
          <Link to={newLink} className="btn btn--primary">
            Create a fetch plan
          </Link>
        </EmptyState>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table className="table model-table" data-testid="fetch-plan-table">
            <thead>
              <tr>
                <th scope="col">Entity</th>
                <th scope="col">Plan</th>
                <th scope="col">Extends</th>
                <th scope="col" className="num">
                  Properties
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={`${p.entity}/${p.name}`} data-testid={`plan-row-${p.entity}-${p.name}`}>
                  <td>
                    <Link to={`/model/entities/${encodeURIComponent(p.entity)}`} className="mono">
                      {p.entity}
                    </Link>
                  </td>
                  <td>
                    <Link
                      to={`/model/fetch-plans/${encodeURIComponent(p.entity)}/${encodeURIComponent(p.name)}`}
                      className="model-table__name"
                    >
                      {p.name}
                    </Link>
                  </td>
                  <td>
                    {p.extends ? (
                      <span className="badge badge--outline">{p.extends}</span>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td className="num">{countProperties(p.properties)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}
