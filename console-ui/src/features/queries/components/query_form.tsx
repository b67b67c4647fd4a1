/*
 * The form of a named query: entity and name, its typed parameters, the filter (the shared
 * filter builder, where a value may be one of the parameters) and sort; saving goes through the
 * planned change, problems show at their fields ($.filter, $.params[0].type). The preview runs
 * the draft with the given parameter values as the signed-in administrator.
 */
import { useMemo, useState } from 'react'
import { useNavigate } from 'react-router'
import { adminChange, errorText, fieldErrors } from '../../../lib/admin'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { Field } from '../../../components/ui/field'
import { Panel } from '../../../components/ui/panel'
import { FilterBuilder } from '../../../components/filter/filter_builder'
import { emptyFilter, type Filter } from '../../../components/filter/filter'
import { useModelEntities, useModelEnums } from '../../../lib/model'
import './queries.css'
import { PARAM_TYPES, baseType, isList, previewQuery, queryHref, queryPath, type NamedQuery, type Preview, type QueryParam } from '../api/queries'

const blank = (): NamedQuery => ({ entity: '', name: '', filter: emptyFilter(), params: [] })

function bodyOf(q: NamedQuery): NamedQuery {
  return {
    entity: q.entity,
    name: q.name.trim(),
    ...(q.fetchPlan?.trim() ? { fetchPlan: q.fetchPlan.trim() } : {}),
    filter: q.filter,
    ...(q.sort?.trim() ? { sort: q.sort.trim() } : {}),
    ...(q.limit !== undefined ? { limit: q.limit } : {}),
    params: q.params.map((p) => ({
      name: p.name.trim(),
      type: p.type,
      ...(p.type === 'enum' ? { enum: p.enum ?? '' } : {}),
      ...(p.type === 'entity' ? { entity: p.entity ?? '' } : {}),
    })),
  }
}

export function QueryForm({ query, version }: { query?: NamedQuery; version: number | null }) {
  const navigate = useNavigate()
  const model = useModelEntities()
  const enums = useModelEnums()
  const entities = useMemo(() => (model.data ?? []).slice().sort((a, b) => a.name.localeCompare(b.name)), [model.data])
  const [draft, setDraft] = useState<NamedQuery | null>(null)
  const [values, setValues] = useState<Record<string, string>>({})
  const [preview, setPreview] = useState<{ result?: Preview; error?: string } | null>(null)
  const value = draft ?? query ?? blank()
  const update = (patch: Partial<NamedQuery>) => setDraft({ ...value, ...patch })
  const setParam = (i: number, patch: Partial<QueryParam>) => update({ params: value.params.map((p, j) => (j === i ? { ...p, ...patch } : p)) })
  const body = bodyOf(value)
  const dirty = draft !== null && JSON.stringify(body) !== JSON.stringify(bodyOf(query ?? blank()))

  const change = usePlannedChange({
    title: query ? `Save query ${query.entity}/${query.name}` : `Create query ${body.entity}/${body.name}`,
    success: query ? 'Query saved' : 'Query created',
    onApplied: () => {
      setDraft(null)
      if (!query) navigate(queryHref(body), { replace: true })
    },
  })
  const save = () => {
    const path = query ? queryPath(query.entity, query.name) : 'queries'
    void change.start((opts) => adminChange(query ? 'PUT' : 'POST', path, body, { ...opts, ifMatch: version ?? undefined }))
  }
  const run = async () => {
    try {
      setPreview({ result: await previewQuery(body, values) })
    } catch (e) {
      setPreview({ error: errorText(e) })
    }
  }

  const errors = fieldErrors(change.error)
  const filterErrors: Record<string, string> = errors.filter ? { '': errors.filter } : {}
  const other = Object.entries(errors).filter(([k]) => !/^(entity|name|filter|sort|fetchPlan|params)/.test(k))

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        save()
      }}
      data-testid="query-form"
    >
      <Panel title="General">
        <div className="form-grid">
          <Field label="Entity" error={errors.entity}>
            <select value={value.entity} onChange={(e) => update({ entity: e.target.value, filter: emptyFilter() })} disabled={Boolean(query)} required data-testid="query-entity">
              <option value="">Choose an entity…</option>
              {entities.map((e) => (
                <option key={e.name} value={e.name}>
                  {e.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Name" error={errors.name} hint={query ? 'The name cannot be changed.' : 'The URL segment: /rest/queries/{entity}/{name}.'}>
            <input value={value.name} onChange={(e) => update({ name: e.target.value })} disabled={Boolean(query)} required data-testid="query-name" />
          </Field>
          <Field label="Sort" error={errors.sort} hint="Comma-separated; -name sorts descending.">
            <input value={value.sort ?? ''} onChange={(e) => update({ sort: e.target.value })} data-testid="query-sort" />
          </Field>
          <Field label="Fetch plan" error={errors.fetchPlan} hint="Default _base.">
            <input value={value.fetchPlan ?? ''} onChange={(e) => update({ fetchPlan: e.target.value })} data-testid="query-fetch-plan" />
          </Field>
        </div>
      </Panel>
      <Panel title="Parameters">
        {value.params.length === 0 && <p className="empty">No parameter: the query takes no values.</p>}
        {value.params.map((p, i) => (
          <div className="form-grid" key={i} data-testid={`query-param-${i}`}>
            <Field label={`Parameter ${i + 1} name`} error={errors[`params[${i}].name`]}>
              <input value={p.name} onChange={(e) => setParam(i, { name: e.target.value })} data-testid="param-name" />
            </Field>
            <Field label={`Parameter ${i + 1} type`} error={errors[`params[${i}].type`]}>
              <select value={p.type} onChange={(e) => setParam(i, { type: e.target.value })} data-testid="param-type">
                {PARAM_TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </Field>
            {baseType(p.type) === 'enum' && (
              <Field label={`Parameter ${i + 1} enum`} error={errors[`params[${i}].enum`]}>
                <select value={p.enum ?? ''} onChange={(e) => setParam(i, { enum: e.target.value })} data-testid="param-enum">
                  <option value="">Choose…</option>
                  {(enums.data ?? []).map((e) => (
                    <option key={e.name}>{e.name}</option>
                  ))}
                </select>
              </Field>
            )}
            {baseType(p.type) === 'entity' && (
              <Field label={`Parameter ${i + 1} entity`} error={errors[`params[${i}].entity`]}>
                <select value={p.entity ?? ''} onChange={(e) => setParam(i, { entity: e.target.value })} data-testid="param-entity">
                  <option value="">Choose…</option>
                  {entities.map((e) => (
                    <option key={e.name}>{e.name}</option>
                  ))}
                </select>
              </Field>
            )}
            <button type="button" className="btn query-param__remove" onClick={() => update({ params: value.params.filter((_, j) => j !== i) })} data-testid="param-remove">
              Remove
            </button>
          </div>
        ))}
        <button type="button" className="btn" onClick={() => update({ params: [...value.params, { name: '', type: 'string' }] })} data-testid="param-add">
          + Add parameter
        </button>
      </Panel>
      <Panel title="Filter">
        {value.entity ? (
          <FilterBuilder
            entity={value.entity}
            entities={entities}
            enums={enums.data ?? []}
            value={value.filter}
            onChange={(filter: Filter) => update({ filter })}
            placeholders={value.params.filter((p) => p.name.trim()).map((p) => `:${p.name.trim()}`)}
            errors={filterErrors}
          />
        ) : (
          <p className="muted">Choose an entity first.</p>
        )}
      </Panel>
      <Panel title="Preview" testId="query-preview">
        <p className="muted">The draft with these values, as you (the first 10 rows and the count).</p>
        <div className="form-grid">
          {value.params.map((p, i) => (
            <Field key={i} label={`:${p.name || '?'} (${p.type})`} hint={isList(p.type) ? 'Values separated by commas.' : undefined}>
              <input value={values[p.name] ?? ''} onChange={(e) => setValues({ ...values, [p.name]: e.target.value })} data-testid={`preview-value-${p.name}`} />
            </Field>
          ))}
        </div>
        <button type="button" className="btn" disabled={!value.entity} onClick={() => void run()} data-testid="preview-run">
          Run preview
        </button>
        {preview?.error && (
          <p className="field__error" role="alert" data-testid="preview-error">
            {preview.error}
          </p>
        )}
        {preview?.result && (
          <div data-testid="preview-result">
            <p>
              <strong data-testid="preview-count">{preview.result.total}</strong> rows
            </p>
            <ul>
              {preview.result.rows.map((r) => (
                <li key={r.id}>{r._instanceName ?? r.id}</li>
              ))}
            </ul>
          </div>
        )}
      </Panel>
      <div className="role-savebar">
        <span className="muted">
          {other.length > 0 ? (
            <span className="field__error" role="alert" data-testid="query-errors">
              {other.map(([k, m]) => (k ? `${k}: ${m}` : m)).join('; ')}
            </span>
          ) : dirty ? 'Unsaved changes' : query ? 'No changes' : 'New query'}
        </span>
        <button type="submit" className="btn btn--primary" disabled={change.busy || (!dirty && Boolean(query)) || !value.entity || !value.name.trim()} data-testid="query-save">
          {change.busy ? 'Planning…' : query ? 'Review and save' : 'Review and create'}
        </button>
      </div>
      {change.dialog}
    </form>
  )
}
