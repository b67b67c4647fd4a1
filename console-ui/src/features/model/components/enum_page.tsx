import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { adminChange, fieldErrors, problemsOf } from '../../../lib/admin'
import { useModelEntities, type Captions, type ModelEnum } from '../../../lib/model'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { useConfirm } from '../../../components/ui/confirm'
import { ErrorMessage } from '../../../components/ui/error_message'
import { Field } from '../../../components/ui/field'
import { Loading } from '../../../components/ui/loading'
import { Page } from '../../../components/ui/page'
import { enumPath, useEnumEditor, useLocales } from '../api/model_api'
import { errorAt, OtherErrors } from './form_errors'
import { CaptionsFields } from './captions_fields'
import { EnumValuesTable, type EnumValue } from './enum_values_table'
import { enumUsers } from './enum_list_page'
import { StaleNotice } from './stale_notice'
import { useDraft } from '../hooks/use_draft'
import './model.css'

interface EnumDraft {
  name: string
  caption?: Captions
  description?: string
  values: EnumValue[]
}

const draftOf = (e: ModelEnum): EnumDraft => ({
  name: e.name,
  caption: e.caption as Captions | undefined,
  description: e.description as string | undefined,
  values: e.values.map((v) => ({ ...v, id: String(v.id) })),
})

const clean = (d: EnumDraft) => {
  const captions = (c?: Captions) => {
    const kept = Object.fromEntries(Object.entries(c ?? {}).filter(([, v]) => v.trim() !== ''))
    return Object.keys(kept).length ? kept : undefined
  }
  return {
    name: d.name.trim(),
    caption: captions(d.caption),
    description: d.description?.trim() || undefined,
    values: d.values.map((v) => ({
      name: v.name.trim(),
      id: v.id.trim(),
      caption: captions(v.caption),
    })),
  }
}

/** /model/enums/:name and /model/enums/new — the enum editor. */
export function EnumPage() {
  const { name } = useParams()
  const query = useEnumEditor(name)
  if (name && query.isPending) return <Loading />
  if (name && query.error)
    return (
      <Page title={name} description={<Link to="/model/enums">← All enums</Link>}>
        <ErrorMessage error={query.error} />
      </Page>
    )
  const loaded = query.data
  return (
    <EnumEditor
      key={name ?? 'new'}
      saved={loaded?.data}
      version={loaded?.version ?? null}
      onReload={() => void query.refetch()}
    />
  )
}

function EnumEditor({
  saved,
  version,
  onReload,
}: {
  saved?: ModelEnum
  version: number | null
  onReload: () => void
}) {
  const navigate = useNavigate()
  const confirm = useConfirm()
  const locales = useLocales()
  const entities = useModelEntities()
  const [empty] = useState<EnumDraft>(() => ({ name: '', values: [{ name: '', id: '' }] }))
  const state = useDraft<EnumDraft>(saved ? draftOf(saved) : empty, version)
  const draft = state.draft
  const setDraft = state.setDraft
  const next = clean(draft)
  const renamed = saved && next.name !== saved.name
  const change = usePlannedChange({
    title: saved
      ? renamed
        ? `Rename enum ${saved.name} to ${next.name}`
        : `Change enum ${saved.name}`
      : `Create enum ${next.name}`,
    success: saved ? 'Enum saved' : 'Enum created',
    onApplied: () => {
      if (!saved || renamed)
        void navigate(`/model/enums/${encodeURIComponent(next.name)}`, { replace: true })
    },
  })
  const removal = usePlannedChange({
    title: `Delete enum ${saved?.name ?? ''}`,
    success: 'Enum deleted',
    onApplied: () => void navigate('/model/enums'),
  })
  const errors = fieldErrors(change.error)
  const users = saved ? enumUsers(entities.data ?? [], saved.name) : []
  const dirty = !saved || JSON.stringify(next) !== JSON.stringify(clean(draftOf(saved)))

  const review = () =>
    void change.start((options) =>
      saved
        ? adminChange('PUT', enumPath(saved.name), next, {
            ...options,
            ifMatch: state.version ?? undefined,
          })
        : adminChange('POST', 'enums', next, options)
    )
  const destroy = async () => {
    if (!saved) return
    const ok = await confirm({
      title: `Delete ${saved.name}?`,
      message: <p>The enum is removed. Attributes that still use it keep it from being deleted.</p>,
      confirmLabel: 'Show the plan',
      danger: true,
    })
    if (ok)
      void removal.start((options) =>
        adminChange('DELETE', enumPath(saved.name), undefined, {
          ...options,
          ifMatch: version ?? undefined,
        })
      )
  }

  return (
    <Page
      title={saved ? saved.name : 'New enum'}
      description={
        <>
          <Link to="/model/enums">Enums</Link> ›{' '}
          {saved ? `${saved.values.length} values` : 'a fixed list of values'}
        </>
      }
      actions={
        saved && (
          <button
            type="button"
            className="btn btn--quiet-danger"
            onClick={() => void destroy()}
            data-testid="delete-enum"
          >
            Delete enum
          </button>
        )
      }
      testId="enum-page"
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
      <form
        onSubmit={(e) => {
          e.preventDefault()
          review()
        }}
      >
        <section className="panel" aria-labelledby="enum-general">
          <h2 className="panel__title" id="enum-general">
            General
          </h2>
          <div className="form-grid">
            <Field
              label="Name"
              error={errors.name}
              hint={
                renamed
                  ? `Renames “${saved.name}”: the attributes that use it follow; stored values are kept.`
                  : 'Fully qualified, e.g. com.example.shop.OrderStatus'
              }
            >
              <input
                value={draft.name}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                spellCheck={false}
                data-testid="enum-name"
              />
            </Field>
            <Field label="Description" error={errors.description}>
              <input
                value={draft.description ?? ''}
                onChange={(e) => setDraft({ ...draft, description: e.target.value })}
              />
            </Field>
          </div>
          <div className="form-grid">
            <CaptionsFields
              value={draft.caption}
              locales={locales}
              onChange={(caption) => setDraft({ ...draft, caption })}
              error={errorAt(errors, 'caption')}
            />
          </div>
        </section>
        <section className="panel" aria-labelledby="enum-values">
          <h2 className="panel__title" id="enum-values">
            Values
          </h2>
          <p className="muted small">
            The id is what rows store; the name is what the REST API shows. Changing an id of a
            value in use leaves rows with an unknown value.
          </p>
          <EnumValuesTable
            values={draft.values}
            onChange={(values) => setDraft({ ...draft, values })}
            errors={errors}
            locales={locales}
          />
        </section>
        {saved && (
          <section className="panel" aria-labelledby="enum-users">
            <h2 className="panel__title" id="enum-users">
              Used by
            </h2>
            {users.length === 0 ? (
              <p className="muted">No attribute uses this enum.</p>
            ) : (
              <ul className="link-list">
                {users.map((u) => (
                  <li key={`${u.entity}.${u.attribute}`}>
                    <Link
                      to={`/model/entities/${encodeURIComponent(u.entity)}?attribute=${encodeURIComponent(u.attribute)}`}
                    >
                      {u.entity}.{u.attribute}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
        <OtherErrors
          errors={errors}
          known={new Set(['name', 'caption', 'description', 'values'])}
        />
        <div className="form-actions form-actions--sticky">
          <Link to="/model/enums" className="btn">
            {dirty && saved ? 'Discard' : 'Back'}
          </Link>
          <button
            type="submit"
            className="btn btn--primary"
            disabled={!dirty || !next.name || change.busy}
            data-testid="enum-review"
          >
            {change.busy ? 'Planning…' : saved ? 'Review changes' : 'Review and create'}
          </button>
        </div>
      </form>
      {change.dialog}
      {removal.dialog}
    </Page>
  )
}
