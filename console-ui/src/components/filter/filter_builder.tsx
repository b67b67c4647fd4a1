/**
 * FilterBuilder — edits a search filter (the JSON of `POST /rest/entities/{e}/search` and of
 * row-level role policies) for one entity, as a controlled component.
 *
 * ```tsx
 * const entities = useModelEntities().data ?? []
 * const enums = useModelEnums().data ?? []
 * const [filter, setFilter] = useState<Filter>(emptyFilter())
 * <FilterBuilder
 *   entity="bookstore_Order"
 *   entities={entities}
 *   enums={enums}                       // enum values offered by name (optional)
 *   value={filter}
 *   onChange={setFilter}
 *   placeholders={[':current_user_username', ':current_user_id']}  // optional value choices
 *   errors={fieldErrors(error, '$.policies[0].filter')}             // optional, see below
 *   referenceInput={(p) => <MyPicker {...p} />}                      // optional id picker
 * />
 * ```
 *
 * - Root conditions are ANDed; "+ Group" adds a nested AND/OR group (any depth).
 * - A property is chosen one segment at a time: `customer`, then `name` of the customer
 *   (`customer.name`); choosing "(the Customer itself)" filters by the reference's id.
 * - The operators offered follow the type (`operatorsFor` in filter.ts, as the server's parser);
 *   changing the property keeps the operator when allowed and resets the value.
 * - Values: typed inputs per datatype, enum values by NAME, references by id, lists for
 *   in/notIn; `isNull`/`notEmpty` carry no value. A placeholder is sent as the string itself.
 * - `errors` are keyed by the path below the filter, as the server's problems are after their
 *   prefix is removed: `conditions[0].value`, `conditions[1].conditions[0].property`; an error
 *   for the whole filter under ''. Errors whose path points at no element are shown on top.
 *   `filterProblems()` (filter.ts) gives the same shape for incomplete conditions.
 *
 * Test ids: filter-builder, filter-condition, filter-group, filter-path-segment,
 * filter-operator, filter-value, filter-list, filter-list-add, filter-placeholder,
 * filter-add-condition, filter-add-group, filter-group-operator, filter-remove, filter-error.
 */
import type { ReactNode } from 'react'
import type { ModelEntity, ModelEnum } from '../../lib/model'
import {
  isGroup,
  type Filter,
  type FilterCondition,
  type FilterGroup,
  type FilterNode,
} from './filter'
import { ConditionRow } from './condition_row'
import type { ReferenceInputProps } from './value_input'
import './filter.css'

export interface FilterBuilderProps {
  /** The filtered entity's name. */
  entity: string
  /** The model (useModelEntities().data). */
  entities: ModelEntity[]
  /** The enums (useModelEnums().data), for enum value selects. */
  enums?: ModelEnum[]
  value: Filter
  onChange: (next: Filter) => void
  /** Values offered instead of a literal, e.g. ':current_user_username'. */
  placeholders?: string[]
  /** Problems keyed by path below the filter ('conditions[0].value'); '' for the whole filter. */
  errors?: Record<string, string>
  /** Replaces the plain id input of paths that end at a relation. */
  referenceInput?: (props: ReferenceInputProps) => ReactNode
  /** Maximum nesting of groups (the server allows 10). */
  maxDepth?: number
}

export type { ReferenceInputProps }

interface Shared extends Omit<FilterBuilderProps, 'value' | 'onChange'> {
  placeholders: string[]
  enums: ModelEnum[]
  errors: Record<string, string>
  maxDepth: number
}

const newCondition = (): FilterCondition => ({ property: '', operator: '=' })

export function FilterBuilder(props: FilterBuilderProps) {
  const shared: Shared = {
    ...props,
    enums: props.enums ?? [],
    placeholders: props.placeholders ?? [],
    errors: props.errors ?? {},
    maxDepth: props.maxDepth ?? 10,
  }
  const placed = placedPaths(props.value.conditions, '')
  const loose = Object.entries(shared.errors).filter(([key]) => !placed.some((test) => test(key)))
  return (
    <div className="filter" data-testid="filter-builder">
      {loose.map(([key, message]) => (
        <p key={key} className="field__error" role="alert" data-testid="filter-error">
          {key ? `${key}: ${message}` : message}
        </p>
      ))}
      <NodeList
        shared={shared}
        nodes={props.value.conditions}
        onChange={(conditions) => props.onChange({ ...props.value, conditions })}
        path=""
        position=""
        depth={0}
        label={
          props.value.conditions.length
            ? 'Rows match all of these conditions'
            : 'No conditions: every row matches'
        }
      />
    </div>
  )
}

/** Tests telling whether an error key is shown at an element (a condition, a group). */
function placedPaths(nodes: FilterNode[], prefix: string): ((key: string) => boolean)[] {
  return nodes.flatMap((node, i) => {
    const at = `${prefix}conditions[${i}]`
    if (!isGroup(node))
      return [(key: string) => key === at || key.startsWith(`${at}.`) || key.startsWith(`${at}[`)]
    return [
      (key: string) => key === at || key === `${at}.group`,
      ...placedPaths(node.conditions, `${at}.`),
    ]
  })
}

interface NodeListProps {
  shared: Shared
  nodes: FilterNode[]
  onChange: (nodes: FilterNode[]) => void
  path: string
  /** The group's position ('' at the root, '2', '2.1'…). */
  position: string
  depth: number
  label: string
}

function NodeList({ shared, nodes, onChange, path, position: at0, depth, label }: NodeListProps) {
  const replace = (i: number, next: FilterNode) =>
    onChange(nodes.map((n, j) => (j === i ? next : n)))
  const remove = (i: number) => onChange(nodes.filter((_, j) => j !== i))
  const position = (i: number) => (at0 ? `${at0}.${i + 1}` : String(i + 1))
  const errorsAt = (at: string) => {
    const out: Record<string, string> = {}
    for (const [key, message] of Object.entries(shared.errors)) {
      if (key === at) out[''] = message
      else if (key.startsWith(`${at}.`) && !key.startsWith(`${at}.conditions[`))
        out[key.slice(at.length + 1)] = message
    }
    return out
  }
  return (
    <div className="filter__list-block">
      <p className="filter__caption">{label}</p>
      <ul className="filter__nodes">
        {nodes.map((node, i) => {
          const at = `${path}conditions[${i}]`
          return isGroup(node) ? (
            <GroupBlock
              key={i}
              shared={shared}
              group={node}
              onChange={(next) => replace(i, next)}
              onRemove={() => remove(i)}
              path={at}
              depth={depth + 1}
              position={position(i)}
              errors={errorsAt(at)}
            />
          ) : (
            <ConditionRow
              key={i}
              entity={shared.entity}
              entities={shared.entities}
              enums={shared.enums}
              placeholders={shared.placeholders}
              referenceInput={shared.referenceInput}
              condition={node}
              onChange={(next) => replace(i, next)}
              onRemove={() => remove(i)}
              errors={errorsAt(at)}
              position={position(i)}
            />
          )
        })}
      </ul>
      <div className="filter__actions">
        <button
          type="button"
          className="btn btn--small"
          onClick={() => onChange([...nodes, newCondition()])}
          data-testid="filter-add-condition"
        >
          + Condition
        </button>
        {depth < shared.maxDepth && (
          <button
            type="button"
            className="btn btn--small"
            onClick={() => onChange([...nodes, { group: 'OR', conditions: [newCondition()] }])}
            data-testid="filter-add-group"
          >
            + Group
          </button>
        )}
      </div>
    </div>
  )
}

interface GroupBlockProps {
  shared: Shared
  group: FilterGroup
  onChange: (next: FilterGroup) => void
  onRemove: () => void
  path: string
  depth: number
  position: string
  errors: Record<string, string>
}

function GroupBlock({
  shared,
  group,
  onChange,
  onRemove,
  path,
  depth,
  position,
  errors,
}: GroupBlockProps) {
  const op = group.group.toUpperCase() === 'OR' ? 'OR' : 'AND'
  return (
    <li className="filter__group" data-testid="filter-group">
      <div className="filter__group-head">
        <label className="filter__group-label">
          <span>Group {position}: match</span>
          <select
            className="input"
            value={op}
            onChange={(e) => onChange({ ...group, group: e.target.value as 'AND' | 'OR' })}
            data-testid="filter-group-operator"
          >
            <option value="AND">all (AND)</option>
            <option value="OR">any (OR)</option>
          </select>
        </label>
        <button
          type="button"
          className="btn btn--small btn--icon filter__remove"
          aria-label={`Remove group ${position}`}
          onClick={onRemove}
          data-testid="filter-remove"
        >
          ×
        </button>
      </div>
      {Object.entries(errors).map(([key, message]) => (
        <p key={key} className="field__error" role="alert" data-testid="filter-error">
          {message}
        </p>
      ))}
      <NodeList
        shared={shared}
        nodes={group.conditions}
        onChange={(conditions) => onChange({ ...group, conditions })}
        path={`${path}.`}
        position={position}
        depth={depth}
        label={op === 'OR' ? 'Any of these:' : 'All of these:'}
      />
    </li>
  )
}
