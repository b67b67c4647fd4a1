import { useState } from 'react'
import { adminChange, fieldErrors, problemsOf } from '../../../lib/admin'
import type { ModelAttribute, ModelEntity } from '../../../lib/model'
import { usePlannedChange } from '../../../components/plan/use_planned_change'
import { useConfirm } from '../../../components/ui/confirm'
import { attributePath, entityPath } from '../api/model_api'
import { designerKeys } from '../api/keys'
import { AttributeDialog } from './attribute_dialog'
import type { AttributeContext } from './attribute_form'
import { AttributesTable } from './attributes_table'
import { StaleNotice } from './stale_notice'

interface EntityAttributesPanelProps {
  entity: ModelEntity
  /** The definition version the entity was read at (If-Match of every change). */
  version: number | null
  context: AttributeContext
  highlight: string | null
  onReload: () => void
}

type Editing = { attribute?: ModelAttribute; version: number | null; key: number }

/** Attributes of a stored entity: each add, edit (rename included) and delete is a planned change. */
export function EntityAttributesPanel({
  entity,
  version,
  context,
  highlight,
  onReload,
}: EntityAttributesPanelProps) {
  const confirm = useConfirm()
  const [editing, setEditing] = useState<Editing | null>(null)
  const invalidate = [[...designerKeys.rest.all]]
  const save = usePlannedChange({
    title: editing?.attribute
      ? `Change attribute ${entity.name}.${editing.attribute.name}`
      : `Add an attribute to ${entity.name}`,
    success: editing?.attribute ? 'Attribute changed' : 'Attribute added',
    invalidate,
    onApplied: () => setEditing(null),
  })
  const remove = usePlannedChange({
    title: `Delete an attribute of ${entity.name}`,
    success: 'Attribute deleted',
    invalidate,
  })

  const open = (attribute?: ModelAttribute) => {
    save.clearError()
    setEditing({ attribute, version, key: Date.now() })
  }
  const submit = (attribute: ModelAttribute) => {
    const at = editing
    if (!at) return
    void save.start((options) =>
      at.attribute
        ? adminChange('PUT', attributePath(entity.name, at.attribute.name), attribute, {
            ...options,
            ifMatch: at.version ?? undefined,
          })
        : adminChange('POST', `${entityPath(entity.name)}/attributes`, attribute, {
            ...options,
            ifMatch: at.version ?? undefined,
          })
    )
  }
  const destroy = async (attribute: ModelAttribute) => {
    const ok = await confirm({
      title: `Delete ${attribute.name}?`,
      message: (
        <p>
          The attribute{' '}
          <code>
            {entity.name}.{attribute.name}
          </code>{' '}
          and its column are removed. The next step shows the plan, with the number of values that
          would be lost.
        </p>
      ),
      confirmLabel: 'Show the plan',
      danger: true,
    })
    if (!ok) return
    remove.clearError()
    void remove.start((options) =>
      adminChange('DELETE', attributePath(entity.name, attribute.name), undefined, {
        ...options,
        ifMatch: version ?? undefined,
      })
    )
  }
  const removeProblems = problemsOf(remove.error)

  return (
    <section className="panel" aria-labelledby="attributes-title" data-testid="attributes-panel">
      <div className="panel__head">
        <h2 className="panel__title" id="attributes-title">
          Attributes <span className="muted">({entity.attributes.length})</span>
        </h2>
        <button
          type="button"
          className="btn btn--primary btn--small"
          onClick={() => open()}
          data-testid="add-attribute"
        >
          + Add attribute
        </button>
      </div>
      <StaleNotice error={remove.error} onReload={onReload} />
      {removeProblems.length > 0 && (
        <div className="error" role="alert" data-testid="delete-problems">
          <strong>Cannot delete:</strong>
          <ul>
            {removeProblems.map((p, i) => (
              <li key={i}>{p.message}</li>
            ))}
          </ul>
        </div>
      )}
      <AttributesTable
        attributes={entity.attributes}
        traits={entity.traits}
        idType={entity.idType}
        highlight={highlight}
        onEdit={open}
        onDelete={(a) => void destroy(a)}
      />
      {editing && (
        <AttributeDialog
          key={editing.key}
          open
          initial={editing.attribute}
          context={context}
          errors={fieldErrors(save.error)}
          busy={save.busy}
          submitLabel="Review change"
          onSubmit={submit}
          onClose={() => setEditing(null)}
        >
          <StaleNotice
            error={save.error}
            onReload={() => {
              setEditing(null)
              onReload()
            }}
          />
          {save.dialog}
        </AttributeDialog>
      )}
      {remove.dialog}
    </section>
  )
}
