import { Field } from '../../../components/ui/field'
import type { ModelAttribute, ModelEntity, ModelEnum } from '../../../lib/model'
import { DATATYPE_GROUPS, cleanForType, isRelationType, typeHint } from '../lib/attribute_types'
import { CaptionsFields } from './captions_fields'
import { RelationFields } from './relation_fields'
import { DatatypeFields } from './datatype_fields'
import { OtherErrors, errorAt } from './form_errors'

export interface AttributeContext {
  /** The entity the attribute belongs to (its name as stored, or the draft name). */
  entityName: string
  entities: ModelEntity[]
  enums: ModelEnum[]
  locales: string[]
}

interface AttributeFormProps {
  value: ModelAttribute
  onChange: (next: ModelAttribute) => void
  /** Field errors keyed by the attribute's own paths (`name`, `length`, `caption`…). */
  errors: Record<string, string>
  context: AttributeContext
  /** The attribute exists: a new name renames its column and keeps the values. */
  existing?: string
}

/** The attribute editor's form: name and type, the fields the type takes, captions. */
export function AttributeForm({ value, onChange, errors, context, existing }: AttributeFormProps) {
  const set = (patch: Partial<ModelAttribute>) => onChange({ ...value, ...patch })
  const type = value.type
  const relation = isRelationType(type)
  const renamed = existing !== undefined && value.name !== existing

  return (
    <div className="attribute-form" data-testid="attribute-form">
      <div className="form-grid">
        <Field
          label="Name"
          error={errors.name}
          hint={
            renamed
              ? `Renames “${existing}”: the column is renamed and its values are kept.`
              : 'camelCase, letters and digits (e.g. unitPrice)'
          }
        >
          <input
            value={value.name}
            onChange={(e) => set({ name: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            data-testid="attribute-name"
          />
        </Field>
        <Field label="Type" error={errors.type} hint={typeHint(type)}>
          <select
            value={type}
            onChange={(e) => onChange(cleanForType({ ...value, type: e.target.value }))}
            data-testid="attribute-type"
          >
            {DATATYPE_GROUPS.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.types.map((t) => (
                  <option key={t.type} value={t.type}>
                    {t.label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </Field>
      </div>

      <fieldset className="attribute-form__section" data-testid="type-fields">
        <legend>{relation ? 'Relation' : 'Validation and storage'}</legend>
        {relation ? (
          <RelationFields value={value} onChange={onChange} errors={errors} context={context} />
        ) : (
          <DatatypeFields value={value} onChange={onChange} errors={errors} context={context} />
        )}
      </fieldset>

      <fieldset className="attribute-form__section">
        <legend>Labels</legend>
        <div className="form-grid">
          <CaptionsFields
            value={value.caption}
            locales={context.locales}
            onChange={(caption) => set({ caption })}
            error={errorAt(errors, 'caption')}
            testId="attribute-caption"
          />
        </div>
        <Field
          label="Description"
          error={errors.description}
          hint="Shown to API users in the metadata"
        >
          <input
            value={typeof value.description === 'string' ? value.description : ''}
            onChange={(e) => set({ description: e.target.value || undefined })}
            data-testid="attribute-description"
          />
        </Field>
      </fieldset>
      <OtherErrors errors={errors} />
    </div>
  )
}
