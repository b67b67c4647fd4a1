import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { adminChange, fieldErrors } from '../../../lib/admin'
import { useModelEntities, useModelEnums, type ModelAttribute } from '../../../lib/model'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { Page } from '../../../components/ui/page'
import { useLocales } from '../api/model_api'
import { AttributeDialog } from './attribute_dialog'
import { OtherErrors } from './form_errors'
import { AttributesTable } from './attributes_table'
import { EntityGeneralForm, type GeneralDraft } from './entity_general_form'
import { cleanGeneral } from './entity_general_panel'
import './model.css'

/** The errors of attribute `i` of the draft, keyed by the attribute's own paths. */
function attributeErrors(errors: Record<string, string>, i: number) {
  const prefix = `attributes[${i}]`
  const out: Record<string, string> = {}
  for (const [key, message] of Object.entries(errors))
    if (key === prefix) out[''] = message
    else if (key.startsWith(`${prefix}.`)) out[key.slice(prefix.length + 1)] = message
  return out
}

/** /model/entities/new — a new entity with its attributes, created in one planned change. */
export function NewEntityPage() {
  const navigate = useNavigate()
  const entities = useModelEntities()
  const enums = useModelEnums()
  const locales = useLocales()
  const [general, setGeneral] = useState<GeneralDraft>({ name: '' })
  const [attributes, setAttributes] = useState<ModelAttribute[]>([])
  const [editing, setEditing] = useState<{ index: number; key: number } | null>(null)
  const name = general.name.trim()
  const change = usePlannedChange({
    title: `Create entity ${name}`,
    success: `Entity ${name} created`,
    onApplied: () => void navigate(`/model/entities/${encodeURIComponent(name)}`),
  })
  const errors = fieldErrors(change.error)
  const invalid = new Map(
    attributes.flatMap((a, i) => {
      const messages = Object.values(attributeErrors(errors, i))
      return messages.length ? [[a.name, messages.join('; ')] as const] : []
    })
  )
  const context = {
    entityName: name,
    // The entity itself is a possible target (a tree: parent / children).
    entities: [...(entities.data ?? []), { name: name || 'this entity', attributes }],
    enums: enums.data ?? [],
    locales,
  }

  const review = () => {
    const body = { ...cleanGeneral(general), attributes }
    void change.start((options) => adminChange('POST', 'entities', body, options))
  }
  const submitAttribute = (attribute: ModelAttribute) => {
    if (!editing) return
    setAttributes(
      editing.index < 0
        ? [...attributes, attribute]
        : attributes.map((a, i) => (i === editing.index ? attribute : a))
    )
    setEditing(null)
    change.clearError()
  }
  const editingErrors = editing && editing.index >= 0 ? attributeErrors(errors, editing.index) : {}
  const generalKnown = new Set([
    'name',
    'caption',
    'description',
    'idType',
    'traits',
    'instanceName',
    'attributes',
  ])

  return (
    <Page
      title="New entity"
      description={
        <>
          <Link to="/model">Data model</Link> › a new table with its REST endpoint
        </>
      }
      testId="new-entity-page"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault()
          review()
        }}
      >
        <section className="panel" aria-labelledby="general-title">
          <h2 className="panel__title" id="general-title">
            General
          </h2>
          <EntityGeneralForm
            value={general}
            onChange={setGeneral}
            errors={errors}
            locales={locales}
            attributeNames={attributes.map((a) => a.name)}
            entities={context.entities}
            enums={context.enums}
          />
        </section>
        <section
          className="panel"
          aria-labelledby="attributes-title"
          data-testid="attributes-panel"
        >
          <div className="panel__head">
            <h2 className="panel__title" id="attributes-title">
              Attributes <span className="muted">({attributes.length})</span>
            </h2>
            <button
              type="button"
              className="btn btn--primary btn--small"
              onClick={() => setEditing({ index: -1, key: Date.now() })}
              data-testid="add-attribute"
            >
              + Add attribute
            </button>
          </div>
          {attributes.length === 0 && (
            <p className="muted">
              No attributes yet. The id
              {general.traits?.length ? ' and the trait attributes are' : ' is'} added by the
              server.
            </p>
          )}
          <AttributesTable
            attributes={attributes}
            traits={general.traits}
            idType={general.idType}
            invalid={invalid}
            onEdit={(a) => setEditing({ index: attributes.indexOf(a), key: Date.now() })}
            onDelete={(a) => setAttributes(attributes.filter((x) => x !== a))}
          />
        </section>
        <OtherErrors errors={errors} known={generalKnown} />
        <div className="form-actions form-actions--sticky">
          <Link to="/model" className="btn">
            Cancel
          </Link>
          <button
            type="submit"
            className="btn btn--primary"
            disabled={!name || change.busy}
            data-testid="create-entity"
          >
            {change.busy ? 'Planning…' : 'Review and create'}
          </button>
        </div>
      </form>
      {editing && (
        <AttributeDialog
          key={editing.key}
          open
          initial={editing.index >= 0 ? attributes[editing.index] : undefined}
          context={context}
          errors={editingErrors}
          submitLabel={editing.index >= 0 ? 'Update draft' : 'Add to draft'}
          onSubmit={submitAttribute}
          onClose={() => setEditing(null)}
          draft
        />
      )}
      {change.dialog}
    </Page>
  )
}
