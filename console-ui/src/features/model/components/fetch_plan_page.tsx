import { useState } from 'react'
import { Link, useNavigate, useParams, useSearchParams } from 'react-router'
import { adminChange, fieldErrors, problemsOf } from '../../../lib/admin'
import { useModelEntities } from '../../../lib/model'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { useConfirm } from '../../../components/ui/confirm'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Field } from '../../../components/ui/field'
import { Loading } from '../../../components/ui/loading'
import { Page } from '../../../components/ui/page'
import { planPath, useFetchPlans, usePlanEditor } from '../api/model_api'
import { useDraft } from '../hooks/use_draft'
import type { PlanDraft } from '../lib/fetch_plan'
import { OtherErrors } from './form_errors'
import { FetchPlanPreview } from './fetch_plan_preview'
import { ExtendsSelect, PlanTree } from './plan_tree'
import { StaleNotice } from './stale_notice'
import './model.css'

/** /model/fetch-plans/:entity/:name and /model/fetch-plans/new[?entity=] — the plan editor. */
export function FetchPlanPage() {
  const { entity, name } = useParams()
  const [search] = useSearchParams()
  const query = usePlanEditor(entity, name)
  if (name && query.isPending) return <Loading />
  if (name && query.error)
    return (
      <Page title={name} description={<Link to="/model/fetch-plans">← All fetch plans</Link>}>
        <ErrorMessage error={query.error} />
      </Page>
    )
  return (
    <PlanEditor
      key={`${entity ?? ''}/${name ?? 'new'}`}
      saved={query.data?.data}
      version={query.data?.version ?? null}
      initialEntity={search.get('entity') ?? ''}
      onReload={() => void query.refetch()}
    />
  )
}

const clean = (d: PlanDraft): PlanDraft => ({
  entity: d.entity,
  name: d.name.trim(),
  ...(d.extends ? { extends: d.extends } : {}),
  properties: d.properties,
})

function PlanEditor({
  saved,
  version,
  initialEntity,
  onReload,
}: {
  saved?: PlanDraft
  version: number | null
  initialEntity: string
  onReload: () => void
}) {
  const navigate = useNavigate()
  const confirm = useConfirm()
  const entities = useModelEntities()
  const plans = useFetchPlans()
  const [empty] = useState<PlanDraft>(() => ({
    entity: initialEntity,
    name: '',
    extends: '_base',
    properties: [],
  }))
  const state = useDraft<PlanDraft>(saved ? clean(saved) : empty, version)
  const draft = state.draft
  const set = (patch: Partial<PlanDraft>) => state.setDraft({ ...draft, ...patch })
  const next = clean(draft)
  const renamed = saved && next.name !== saved.name
  const change = usePlannedChange({
    title: saved
      ? renamed
        ? `Rename fetch plan ${saved.name} to ${next.name}`
        : `Change fetch plan ${saved.name}`
      : `Create fetch plan ${next.name}`,
    success: saved ? 'Fetch plan saved' : 'Fetch plan created',
    onApplied: () => {
      if (!saved || renamed)
        void navigate(
          `/model/fetch-plans/${encodeURIComponent(next.entity)}/${encodeURIComponent(next.name)}`,
          { replace: true }
        )
    },
  })
  const removal = usePlannedChange({
    title: `Delete fetch plan ${saved?.name ?? ''}`,
    success: 'Fetch plan deleted',
    onApplied: () => void navigate('/model/fetch-plans'),
  })
  const errors = fieldErrors(change.error)
  const dirty = !saved || JSON.stringify(next) !== JSON.stringify(clean(saved))
  const allPlans = plans.data ?? []

  const review = () =>
    void change.start((options) =>
      saved
        ? adminChange('PUT', planPath(saved.entity, saved.name), next, {
            ...options,
            ifMatch: state.version ?? undefined,
          })
        : adminChange('POST', 'fetch-plans', next, options)
    )
  const destroy = async () => {
    if (!saved) return
    const ok = await confirm({
      title: `Delete ${saved.name}?`,
      message: (
        <p>
          Clients asking for <code>{saved.name}</code> get 400 “Fetch plan not found” afterwards.
        </p>
      ),
      confirmLabel: 'Show the plan',
      danger: true,
    })
    if (ok)
      void removal.start((options) =>
        adminChange('DELETE', planPath(saved.entity, saved.name), undefined, {
          ...options,
          ifMatch: state.version ?? undefined,
        })
      )
  }
  const propertyErrors = Object.entries(errors).filter(([k]) => k.startsWith('properties'))

  return (
    <Page
      title={saved ? saved.name : 'New fetch plan'}
      description={
        <>
          <Link to="/model/fetch-plans">Fetch plans</Link> ›{' '}
          {draft.entity ? (
            <Link to={`/model/entities/${encodeURIComponent(draft.entity)}`}>{draft.entity}</Link>
          ) : (
            'choose an entity'
          )}
        </>
      }
      actions={
        saved && (
          <button
            type="button"
            className="btn btn--quiet-danger"
            onClick={() => void destroy()}
            data-testid="delete-fetch-plan"
          >
            Delete plan
          </button>
        )
      }
      testId="fetch-plan-page"
    >
      <StaleNotice
        error={change.error ?? removal.error}
        onReload={() => {
          change.clearError()
          removal.clearError()
          state.reset()
          onReload()
        }}
      />
      {problemsOf(removal.error).length > 0 && (
        <div className="error" role="alert" data-testid="delete-problems">
          <strong>Cannot delete:</strong>{' '}
          {problemsOf(removal.error)
            .map((p) => p.message)
            .join('; ')}
        </div>
      )}
      <div className="plan-layout">
        <form
          className="plan-layout__editor"
          onSubmit={(e) => {
            e.preventDefault()
            review()
          }}
        >
          <section className="panel" aria-labelledby="plan-general">
            <h2 className="panel__title" id="plan-general">
              Plan
            </h2>
            <div className="form-grid">
              <Field
                label="Entity"
                error={errors.entity}
                hint={saved ? 'A plan belongs to its entity' : undefined}
              >
                <select
                  value={draft.entity}
                  disabled={!!saved}
                  onChange={(e) => set({ entity: e.target.value, properties: [] })}
                  data-testid="plan-entity"
                >
                  <option value="">Choose an entity…</option>
                  {(entities.data ?? []).map((e) => (
                    <option key={e.name} value={e.name}>
                      {e.name}
                    </option>
                  ))}
                </select>
              </Field>
              <Field
                label="Name"
                error={errors.name}
                hint={
                  renamed
                    ? `Renames “${saved.name}”: plans that use it follow.`
                    : 'What clients send as ?fetchPlan='
                }
              >
                <input
                  value={draft.name}
                  onChange={(e) => set({ name: e.target.value })}
                  spellCheck={false}
                  data-testid="plan-name"
                />
              </Field>
              <Field
                label="Extends"
                error={errors.extends}
                hint="_local: every plain attribute; _base: _local and the references the instance name uses; nothing: only the ticked properties"
              >
                <ExtendsSelect
                  entity={draft.entity}
                  value={draft.extends}
                  onChange={(ext) => set({ extends: ext })}
                  plans={allPlans}
                  exclude={saved?.name}
                  label="Extends"
                  testId="plan-extends"
                  inline={false}
                />
              </Field>
            </div>
          </section>
          <section className="panel" aria-labelledby="plan-properties">
            <h2 className="panel__title" id="plan-properties">
              Properties
            </h2>
            {propertyErrors.length > 0 && (
              <div className="error" role="alert" data-testid="field-error">
                {propertyErrors.map(([k, m]) => (
                  <div key={k}>
                    <code>{k}</code> {m}
                  </div>
                ))}
              </div>
            )}
            {draft.entity ? (
              <PlanTree
                entity={draft.entity}
                extends={draft.extends}
                properties={draft.properties}
                onChange={(properties) => set({ properties })}
                entities={entities.data ?? []}
                plans={allPlans}
              />
            ) : (
              <p className="muted">Choose the entity first.</p>
            )}
          </section>
          <OtherErrors
            errors={errors}
            known={new Set(['entity', 'name', 'extends', 'properties'])}
          />
          <div className="form-actions form-actions--sticky">
            {saved && dirty && (
              <button type="button" className="btn" onClick={state.reset}>
                Discard
              </button>
            )}
            <button
              type="submit"
              className="btn btn--primary"
              disabled={!dirty || !next.name || !next.entity || change.busy}
              data-testid="plan-review"
            >
              {change.busy ? 'Planning…' : saved ? 'Review changes' : 'Review and create'}
            </button>
          </div>
        </form>
        <div className="plan-layout__preview">
          {draft.entity && (
            <FetchPlanPreview
              entity={draft.entity}
              plan={{ extends: draft.extends, properties: draft.properties }}
              savedName={saved && !dirty ? saved.name : undefined}
              entities={entities.data ?? []}
            />
          )}
        </div>
      </div>
      {change.dialog}
      {removal.dialog}
    </Page>
  )
}
