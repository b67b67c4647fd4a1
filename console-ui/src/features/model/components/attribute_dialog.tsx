import { useId, useState, type ReactNode } from 'react'
import { Dialog } from '../../../components/ui/dialog'
import type { ModelAttribute } from '../../../lib/model'
import { toDefinition } from '../lib/attribute_types'
import { AttributeForm, type AttributeContext } from './attribute_form'

interface AttributeDialogProps {
  open: boolean
  /** The attribute being edited; undefined for a new one. */
  initial?: ModelAttribute
  context: AttributeContext
  errors: Record<string, string>
  busy?: boolean
  /** "Review change" (planned change) or "Add to draft" (a new entity's draft). */
  submitLabel: string
  onSubmit: (attribute: ModelAttribute) => void
  onClose: () => void
  /** Rendered inside the dialog (the plan dialog nests in it). */
  children?: ReactNode
  /** Editing a draft (nothing stored yet): a new name is no rename. */
  draft?: boolean
}

const blank: ModelAttribute = { name: '', type: 'string' }

/**
 * The attribute editor: a dialog with the type-specific form. Submitting hands the cleaned
 * attribute (only the keys its type takes) to `onSubmit`; the caller plans or stores it.
 */
export function AttributeDialog({
  open,
  initial,
  context,
  errors,
  busy,
  submitLabel,
  onSubmit,
  onClose,
  children,
  draft: isDraft,
}: AttributeDialogProps) {
  const [draft, setDraft] = useState<ModelAttribute>(initial ?? blank)
  const formId = useId()
  const title = initial ? `Attribute ${initial.name}` : 'New attribute'
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={
        <>
          {title}
          {context.entityName && (
            <span className="muted dialog__subtitle"> of {context.entityName}</span>
          )}
        </>
      }
      wide
      testId="attribute-dialog"
      actions={
        <>
          <button type="button" className="btn" onClick={onClose} data-testid="attribute-cancel">
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className="btn btn--primary"
            disabled={busy || !draft.name.trim()}
            data-testid="attribute-save"
          >
            {busy ? 'Planning…' : submitLabel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        onSubmit={(e) => {
          e.preventDefault()
          onSubmit(toDefinition({ ...draft, name: draft.name.trim() }))
        }}
      >
        <AttributeForm
          value={draft}
          onChange={setDraft}
          errors={errors}
          context={context}
          existing={isDraft ? undefined : initial?.name}
        />
      </form>
      {children}
    </Dialog>
  )
}
