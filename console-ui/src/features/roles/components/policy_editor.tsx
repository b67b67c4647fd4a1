/*
 * One policy of a row-level role: the entity, the type (a read filter, or a predicate checked
 * on chosen actions), and its rule, edited with the shared visual filter builder (with the
 * caller placeholders) or as raw JSON. Problems of a save show at the field they concern.
 */
import { useId } from 'react'
import { FilterBuilder } from '../../../components/filter/filter_builder'
import type { ModelEntity, ModelEnum } from '../../../lib/model'
import { Field } from '../../../components/ui/field'
import { OPERATIONS } from '../api/roles'
import { asFilter, builderCompatible, parseText, PLACEHOLDERS, type PolicyDraft } from './row_policy_model'
import { filterText } from './filter_text'

interface PolicyEditorProps {
  index: number
  value: PolicyDraft
  onChange: (next: PolicyDraft) => void
  onRemove: () => void
  entities: ModelEntity[]
  enums: ModelEnum[]
  /** Problems of this policy keyed below it: 'entity', 'type', 'actions', 'filter', 'filter.conditions[0]'… */
  errors: Record<string, string>
  disabled?: boolean
}

export function PolicyEditor({ index, value, onChange, onRemove, entities, enums, errors, disabled }: PolicyEditorProps) {
  const id = useId()
  const set = (patch: Partial<PolicyDraft>) => onChange({ ...value, ...patch })
  const known = entities.some((e) => e.name === value.entity)
  const builderErrors = Object.fromEntries(
    Object.entries(errors)
      .filter(([k]) => k.startsWith('filter.'))
      .map(([k, m]) => [k.slice('filter.'.length), m])
  )
  const toJson = () => set({ mode: 'json', text: JSON.stringify(value.filter ?? { conditions: [] }, null, 2) })
  const parsed = value.mode === 'json' ? parseText(value.text) : null
  const canShowBuilder = parsed !== null && 'value' in parsed && builderCompatible(parsed.value)
  const toBuilder = () => {
    if (parsed && 'value' in parsed && builderCompatible(parsed.value)) set({ mode: 'builder', filter: parsed.value })
  }
  const filterError = errors.filter ?? (parsed && 'error' in parsed ? parsed.error : undefined)
  const title = `Policy ${index + 1}`

  return (
    <section className="policy panel" aria-labelledby={`${id}-title`} data-testid={`policy-${index}`}>
      <header className="policy__head">
        <h3 id={`${id}-title`} className="policy__title">
          {title}
          {value.entity && <span className="mono muted"> · {value.entity}</span>}
        </h3>
        {!disabled && (
          <button type="button" className="btn btn--small" onClick={onRemove} aria-label={`Remove ${title}`} data-testid="policy-remove">
            Remove
          </button>
        )}
      </header>
      <div className="form-grid">
        <Field label="Entity" error={errors.entity}>
          <select value={value.entity} onChange={(e) => set({ entity: e.target.value })} disabled={disabled} data-testid="policy-entity">
            {!known && <option value={value.entity}>{value.entity || 'Choose an entity…'}</option>}
            {entities.map((e) => (
              <option key={e.name} value={e.name}>
                {e.name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Type"
          error={errors.type}
          hint={value.type === 'filter' ? 'Rows outside the rule are invisible: absent from lists and counts, 404 when named.' : 'Each row the actions touch must satisfy the rule, else 403.'}
        >
          <select
            value={value.type}
            onChange={(e) => {
              const type = e.target.value as PolicyDraft['type']
              set({ type, actions: type === 'filter' ? ['read'] : value.actions })
            }}
            disabled={disabled}
            data-testid="policy-type"
          >
            <option value="filter">Filter: restricts what is read</option>
            <option value="predicate">Predicate: checked on actions</option>
          </select>
        </Field>
      </div>
      {value.type === 'predicate' && (
        <fieldset className="roles-fieldset" data-testid="policy-actions">
          <legend className="field__label">Actions</legend>
          {OPERATIONS.map((op) => (
            <label key={op} className="check">
              <input
                type="checkbox"
                checked={value.actions.includes(op)}
                disabled={disabled}
                onChange={(e) => set({ actions: e.target.checked ? [...value.actions, op] : value.actions.filter((a) => a !== op) })}
                data-testid={`policy-action-${op}`}
              />
              {op}
            </label>
          ))}
          {errors.actions && <span className="field__error" role="alert" data-testid="field-error">{errors.actions}</span>}
        </fieldset>
      )}
      <div className={filterError ? 'field field--invalid policy__rule' : 'field policy__rule'}>
        <div className="policy__rule-head">
          <span className="field__label" id={`${id}-rule`}>
            Rule
          </span>
          <span className="policy__modes" role="group" aria-label="Edit the rule as">
            <button type="button" className={value.mode === 'builder' ? 'btn btn--small btn--primary' : 'btn btn--small'} aria-pressed={value.mode === 'builder'} onClick={toBuilder} disabled={value.mode === 'json' && !canShowBuilder} title={value.mode === 'json' && !canShowBuilder ? 'The builder cannot show this JSON: fix or simplify it first' : undefined} data-testid="rule-mode-builder">
              Builder
            </button>
            <button type="button" className={value.mode === 'json' ? 'btn btn--small btn--primary' : 'btn btn--small'} aria-pressed={value.mode === 'json'} onClick={toJson} data-testid="rule-mode-json">
              JSON
            </button>
          </span>
        </div>
        {value.mode === 'builder' && known ? (
          <FilterBuilder
            entity={value.entity}
            entities={entities}
            enums={enums}
            value={asFilter(value.filter)}
            onChange={(filter) => set({ filter })}
            placeholders={PLACEHOLDERS}
            errors={builderErrors}
          />
        ) : value.mode === 'builder' ? (
          <p className="muted">Choose an entity to build the rule.</p>
        ) : (
          <textarea
            className="policy__json"
            aria-labelledby={`${id}-rule`}
            aria-invalid={filterError ? true : undefined}
            value={value.text}
            spellCheck={false}
            rows={Math.min(16, Math.max(5, value.text.split('\n').length + 1))}
            onChange={(e) => set({ text: e.target.value })}
            disabled={disabled}
            data-testid="rule-json"
          />
        )}
        {filterError && (
          <div className="field__error" role="alert" data-testid="field-error">
            {filterError}
          </div>
        )}
        <p className="field__hint" data-testid="rule-text">
          In words: <code>{filterText(value.mode === 'json' && parsed && 'value' in parsed ? parsed.value : value.filter)}</code>
        </p>
      </div>
    </section>
  )
}
