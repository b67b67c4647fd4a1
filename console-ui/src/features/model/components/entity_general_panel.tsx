import { useNavigate } from 'react-router'
import { adminChange, fieldErrors } from '../../../lib/admin'
import type { ModelEntity, ModelEnum } from '../../../lib/model'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { entityPath } from '../api/model_api'
import { designerKeys } from '../api/keys'
import { OtherErrors } from './form_errors'
import {
  EntityGeneralForm,
  generalOf,
  tableNameFor,
  type GeneralDraft,
} from './entity_general_form'
import { StaleNotice } from './stale_notice'
import { useDraft } from '../hooks/use_draft'

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Empty captions, descriptions and trait lists are left out (the format's defaults). */
export function cleanGeneral(g: GeneralDraft): GeneralDraft {
  const caption = Object.fromEntries(
    Object.entries(g.caption ?? {}).filter(([, v]) => v.trim() !== '')
  )
  return {
    name: g.name.trim(),
    caption: Object.keys(caption).length ? caption : undefined,
    description: g.description?.trim() || undefined,
    idType: g.idType,
    traits: g.traits?.length ? g.traits : undefined,
    instanceName: g.instanceName?.trim() || undefined,
  }
}

interface EntityGeneralPanelProps {
  entity: ModelEntity
  version: number | null
  locales: string[]
  entities: ModelEntity[]
  enums: ModelEnum[]
  onReload: () => void
}

/** The entity's own properties (name, captions, traits, instance name): one planned PUT. */
export function EntityGeneralPanel({
  entity,
  version,
  locales,
  entities,
  enums,
  onReload,
}: EntityGeneralPanelProps) {
  const navigate = useNavigate()
  const state = useDraft(generalOf(entity), version)
  const dirty = !same(cleanGeneral(state.draft), cleanGeneral(state.base))
  const renamed = state.draft.name.trim() !== entity.name
  const change = usePlannedChange({
    title: renamed
      ? `Rename ${entity.name} to ${state.draft.name.trim()}`
      : `Change ${entity.name}`,
    success: renamed ? 'Entity renamed' : 'Entity changed',
    invalidate: [[...designerKeys.rest.all]],
    onApplied: () => {
      if (renamed)
        void navigate(`/model/entities/${encodeURIComponent(state.draft.name.trim())}`, {
          replace: true,
        })
    },
  })
  const errors = fieldErrors(change.error)

  const review = () => {
    const general = cleanGeneral(state.draft)
    const body: Record<string, unknown> = { ...entity, ...general }
    // The table is sent only when it was set explicitly (a derived one follows a rename).
    if (entity.table === tableNameFor(entity.name)) delete body.table
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key]
    void change.start((options) =>
      adminChange('PUT', entityPath(entity.name), body, {
        ...options,
        ifMatch: state.version ?? undefined,
      })
    )
  }

  return (
    <section className="panel" aria-labelledby="general-title" data-testid="general-panel">
      <h2 className="panel__title" id="general-title">
        General
      </h2>
      <StaleNotice
        error={change.error}
        onReload={() => {
          state.reset()
          change.clearError()
          onReload()
        }}
      />
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (dirty) review()
        }}
      >
        <EntityGeneralForm
          value={state.draft}
          onChange={state.setDraft}
          errors={errors}
          locales={locales}
          saved={entity}
          attributeNames={entity.attributes.map((a) => a.name)}
          entities={entities}
          enums={enums}
        />
        <OtherErrors
          errors={errors}
          known={new Set(['name', 'caption', 'description', 'idType', 'traits', 'instanceName'])}
        />
        <div className="form-actions">
          {dirty && (
            <button
              type="button"
              className="btn"
              onClick={state.reset}
              data-testid="general-discard"
            >
              Discard
            </button>
          )}
          <button
            type="submit"
            className="btn btn--primary"
            disabled={!dirty || change.busy}
            data-testid="general-review"
          >
            {change.busy ? 'Planning…' : 'Review changes'}
          </button>
        </div>
      </form>
      {change.dialog}
    </section>
  )
}
