/*
 * One condition of a filter: the property path (one select per segment: pick `customer`, then
 * `name` of Customer -> `customer.name`), the operators its type allows, the value editor.
 */
import type { ReactNode } from 'react'
import type { ModelEntity, ModelEnum } from '../../lib/model'
import {
  filterableAttributes,
  isListOperator,
  kindOfAttribute,
  needsValue,
  operatorsFor,
  OPERATOR_LABELS,
  resolvePath,
  retarget,
  type FilterCondition,
  type FilterOperator,
} from './filter'
import { ListInput, PlaceholderOrValue, ScalarInput, type ReferenceInputProps } from './value_input'

/** Segments of one path (the server allows 8). */
export const MAX_PATH_SEGMENTS = 8

export interface ConditionRowProps {
  entity: string
  entities: ModelEntity[]
  enums: ModelEnum[]
  condition: FilterCondition
  onChange: (next: FilterCondition) => void
  onRemove: () => void
  /** Errors of this condition: under '', 'property', 'operator', 'value'. */
  errors: Record<string, string>
  placeholders: string[]
  referenceInput?: (props: ReferenceInputProps) => ReactNode
  /** 1-based position, for labels ("Condition 2 property"). */
  position: string
}

export function ConditionRow(props: ConditionRowProps) {
  const { entities, entity, condition, onChange, errors, enums, position } = props
  const byName = new Map(entities.map((e) => [e.name, e]))
  const segments = condition.property ? condition.property.split('.') : []
  const resolved = condition.property
    ? resolvePath(entities, entity, condition.property, enums)
    : null

  // One select per segment, plus one more after a relation (its attributes, or "itself").
  const selects: { owner: ModelEntity; value: string; index: number }[] = []
  let owner = byName.get(entity)
  for (let i = 0; owner && i <= segments.length && i < MAX_PATH_SEGMENTS; i++) {
    selects.push({ owner, value: segments[i] ?? '', index: i })
    const attribute = segments[i]
      ? filterableAttributes(owner).find((a) => a.name === segments[i])
      : undefined
    if (!attribute || kindOfAttribute(attribute) !== 'reference') break
    owner = byName.get(attribute.target ?? '')
  }

  const choose = (index: number, name: string) => {
    const path = [...segments.slice(0, index), ...(name ? [name] : [])].join('.')
    const next = path ? resolvePath(entities, entity, path, enums) : null
    onChange(
      next ? retarget(condition, path, next.kind) : { property: path, operator: condition.operator }
    )
  }

  const operators = resolved ? operatorsFor(resolved.kind) : []
  const setOperator = (operator: FilterOperator) => {
    const next: FilterCondition = { property: condition.property, operator }
    if (needsValue(operator)) {
      const old = condition.value
      if (isListOperator(operator))
        next.value = Array.isArray(old) ? old : old === undefined || old === '' ? [] : [old]
      else next.value = Array.isArray(old) ? (old[0] ?? '') : (old ?? '')
    }
    onChange(next)
  }

  const valueLabel = `Condition ${position} value`
  const valueProps = {
    resolved,
    value: condition.value,
    onChange: (value: unknown) => onChange({ ...condition, value }),
    label: valueLabel,
    invalid: !!errors.value,
    referenceInput: props.referenceInput,
  }
  const rowErrors = Object.entries(errors).filter(([, m]) => m)

  return (
    <li className="filter__condition" data-testid="filter-condition">
      <div className="filter__row">
        <span className="filter__path" data-testid="filter-path">
          {selects.map(({ owner: o, value, index }) => (
            <select
              key={index}
              className="input filter__segment"
              aria-label={
                index === 0
                  ? `Condition ${position} property`
                  : `Condition ${position} property of ${o.name}`
              }
              aria-invalid={errors.property ? true : undefined}
              value={value}
              onChange={(e) => choose(index, e.target.value)}
              data-testid="filter-path-segment"
            >
              <option value="">
                {index === 0 ? 'Choose a property…' : `(the ${o.name} itself)`}
              </option>
              {filterableAttributes(o).map((a) => (
                <option key={a.name} value={a.name}>
                  {optionText(a)}
                </option>
              ))}
            </select>
          ))}
        </span>
        {resolved && (
          <select
            className="input filter__operator"
            aria-label={`Condition ${position} operator`}
            aria-invalid={errors.operator ? true : undefined}
            value={operators.includes(condition.operator) ? condition.operator : ''}
            onChange={(e) => setOperator(e.target.value as FilterOperator)}
            data-testid="filter-operator"
          >
            {!operators.includes(condition.operator) && <option value="">Choose…</option>}
            {operators.map((op) => (
              <option key={op} value={op}>
                {OPERATOR_LABELS[op]}
              </option>
            ))}
          </select>
        )}
        {resolved &&
          needsValue(condition.operator) &&
          operators.includes(condition.operator) &&
          (isListOperator(condition.operator) ? (
            <ListInput {...valueProps} />
          ) : props.placeholders.length ? (
            <PlaceholderOrValue {...valueProps} placeholders={props.placeholders} />
          ) : (
            <ScalarInput {...valueProps} />
          ))}
        <button
          type="button"
          className="btn btn--small btn--icon filter__remove"
          aria-label={`Remove condition ${position}`}
          onClick={props.onRemove}
          data-testid="filter-remove"
        >
          ×
        </button>
      </div>
      {resolved?.toMany && (
        <p className="filter__hint">Matches when at least one related row matches.</p>
      )}
      {rowErrors.map(([key, message]) => (
        <p key={key} className="field__error" role="alert" data-testid="filter-error">
          {message}
        </p>
      ))}
    </li>
  )
}

function optionText(a: { name: string; type: string; target?: string; cardinality?: string }) {
  if (a.type !== 'association' && a.type !== 'composition') return `${a.name} · ${a.type}`
  const many = a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY'
  return `${a.name} → ${a.target ?? '?'}${many ? ' (any)' : ''}`
}
