import { useMemo, useState } from 'react'
import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Label,
  Field as HField,
} from '@headlessui/react'
import { Field } from '../../../components/ui/field'
import { captionOf, type ModelAttribute } from '../../../lib/model'
import { CARDINALITY_INFO, ON_DELETE_INFO } from '../lib/attribute_types'
import type { AttributeContext } from './attribute_form'

interface RelationFieldsProps {
  value: ModelAttribute
  onChange: (next: ModelAttribute) => void
  errors: Record<string, string>
  context: AttributeContext
}

const INVERSE: Record<string, string> = {
  ONE_TO_MANY: 'MANY_TO_ONE',
  ONE_TO_ONE: 'ONE_TO_ONE',
  MANY_TO_MANY: 'MANY_TO_MANY',
}

/** A searchable picker of the relation's target entity. */
function TargetPicker({
  value,
  onChange,
  error,
  context,
}: {
  value: string
  onChange: (v: string) => void
  error?: string
  context: AttributeContext
}) {
  const [query, setQuery] = useState('')
  const q = query.trim().toLowerCase()
  const options = context.entities
    .filter((e) => !q || e.name.toLowerCase().includes(q) || captionOf(e).toLowerCase().includes(q))
    .sort((a, b) => a.name.localeCompare(b.name))
  return (
    <HField className={error ? 'field field--invalid' : 'field'}>
      <Label className="field__label">Target entity</Label>
      <Combobox
        value={value}
        onChange={(v: string | null) => onChange(v ?? '')}
        onClose={() => setQuery('')}
      >
        <div className="combo">
          <ComboboxInput
            className="input"
            displayValue={(v: string) => v}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search entities…"
            aria-invalid={error ? true : undefined}
            data-testid="attribute-target"
          />
          <ComboboxButton className="combo__button" aria-label="Show all entities">
            ▾
          </ComboboxButton>
        </div>
        <ComboboxOptions
          anchor="bottom start"
          className="combo__options"
          data-testid="target-options"
        >
          {options.length === 0 && <div className="combo__empty">No entity matches “{query}”</div>}
          {options.map((e) => (
            <ComboboxOption key={e.name} value={e.name} className="combo__option">
              <span className="mono">{e.name}</span>
              {e.name === context.entityName && <span className="muted"> (this entity)</span>}
              {captionOf(e) !== e.name && <span className="muted"> — {captionOf(e)}</span>}
            </ComboboxOption>
          ))}
        </ComboboxOptions>
      </Combobox>
      {error && (
        <div className="field__error" role="alert" data-testid="field-error">
          {error}
        </div>
      )}
    </HField>
  )
}

/** Target, cardinality, inverse side, link table, delete rule: what a relation needs. */
export function RelationFields({ value, onChange, errors, context }: RelationFieldsProps) {
  const set = (patch: Partial<ModelAttribute>) => onChange({ ...value, ...patch })
  const composition = value.type === 'composition'
  const cardinalities = composition
    ? ['ONE_TO_MANY', 'ONE_TO_ONE']
    : ['MANY_TO_ONE', 'ONE_TO_ONE', 'ONE_TO_MANY', 'MANY_TO_MANY']
  const cardinality = value.cardinality ?? ''
  const target = context.entities.find((e) => e.name === value.target)
  const candidates = useMemo(
    () =>
      (target?.attributes ?? []).filter(
        (a) =>
          (a.type === 'association' || a.type === 'composition') &&
          a.target === context.entityName &&
          !a.mappedBy &&
          a.cardinality === INVERSE[cardinality]
      ),
    [target, context.entityName, cardinality]
  )
  const inverseAllowed = cardinality !== 'MANY_TO_ONE' && cardinality !== ''
  const owning = !value.mappedBy && (cardinality === 'MANY_TO_ONE' || cardinality === 'ONE_TO_ONE')

  return (
    <div className="relation-fields" data-testid="relation-fields">
      <TargetPicker
        value={value.target ?? ''}
        onChange={(t) => set({ target: t || undefined, mappedBy: undefined })}
        error={errors.target}
        context={context}
      />

      <fieldset
        className="choice"
        aria-describedby={errors.cardinality ? 'cardinality-error' : undefined}
      >
        <legend className="field__label">Cardinality</legend>
        <div className="choice__options">
          {cardinalities.map((c) => (
            <label
              key={c}
              className={c === cardinality ? 'choice__option choice__option--on' : 'choice__option'}
            >
              <input
                type="radio"
                name="cardinality"
                value={c}
                checked={c === cardinality}
                onChange={() =>
                  set({ cardinality: c as ModelAttribute['cardinality'], mappedBy: undefined })
                }
                data-testid={`cardinality-${c}`}
              />
              <span>
                <strong>{CARDINALITY_INFO[c]?.label}</strong>
                <span className="choice__hint">{CARDINALITY_INFO[c]?.hint}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.cardinality && (
          <div
            id="cardinality-error"
            className="field__error"
            role="alert"
            data-testid="field-error"
          >
            {errors.cardinality}
          </div>
        )}
      </fieldset>

      <div className="form-grid">
        {inverseAllowed && (
          <Field
            label={
              cardinality === 'ONE_TO_MANY'
                ? 'Mapped by (the inverse many-to-one)'
                : 'Mapped by (optional inverse side)'
            }
            error={errors.mappedBy}
            hint={
              value.target
                ? candidates.length
                  ? `Attributes of ${value.target} that point back here`
                  : `${value.target} has no ${INVERSE[cardinality]?.toLowerCase().replaceAll('_', '-')} relation to ${context.entityName || 'this entity'} yet`
                : 'Choose the target first'
            }
          >
            <select
              value={value.mappedBy ?? ''}
              onChange={(e) => set({ mappedBy: e.target.value || undefined })}
              data-testid="attribute-mapped-by"
            >
              <option value="">
                {cardinality === 'ONE_TO_MANY'
                  ? 'Choose the inverse…'
                  : 'None: this side owns the relation'}
              </option>
              {candidates.map((a) => (
                <option key={a.name} value={a.name}>
                  {value.target}.{a.name}
                </option>
              ))}
              {value.mappedBy && !candidates.some((a) => a.name === value.mappedBy) && (
                <option value={value.mappedBy}>{value.mappedBy}</option>
              )}
            </select>
          </Field>
        )}
        {cardinality === 'MANY_TO_MANY' && !value.mappedBy && (
          <Field
            label="Link table"
            error={errors.linkTable}
            hint="Optional; derived from the names when empty"
          >
            <input
              className="mono"
              value={typeof value.linkTable === 'string' ? value.linkTable : ''}
              onChange={(e) => set({ linkTable: e.target.value || undefined })}
              data-testid="attribute-link-table"
            />
          </Field>
        )}
        <Field label="When the target is deleted" error={errors.onDelete}>
          <select
            value={value.onDelete ?? 'unlink'}
            onChange={(e) =>
              set({
                onDelete:
                  e.target.value === 'unlink' && value.onDelete === undefined
                    ? undefined
                    : e.target.value,
              })
            }
            data-testid="attribute-on-delete"
          >
            <option value="unlink">{ON_DELETE_INFO.unlink}</option>
            <option value="cascade">{ON_DELETE_INFO.cascade}</option>
            <option value="deny">{ON_DELETE_INFO.deny}</option>
          </select>
        </Field>
      </div>
      {owning && (
        <label className="check check--block">
          <input
            type="checkbox"
            checked={!!value.mandatory}
            onChange={(e) => set({ mandatory: e.target.checked })}
            data-testid="attribute-mandatory"
          />
          <span>
            Mandatory<span className="check__hint">Every row must reference a target row</span>
          </span>
        </label>
      )}
      {errors.mandatory && (
        <div className="field__error" role="alert" data-testid="field-error">
          {errors.mandatory}
        </div>
      )}
      {composition && (
        <p className="muted small">
          Composition children are created and deleted with their parent, and are written inside it
          through the REST API.
        </p>
      )}
    </div>
  )
}
