import type { ModelEntity } from '../../../lib/model'
import { typeLabel } from '../lib/attribute_types'
import {
  BUILTIN_PLANS,
  findProperty,
  inheritedProperties,
  nestedOf,
  propName,
  setNested,
  toggleProperty,
  type InlinePlan,
  type PlanProperty,
} from '../lib/fetch_plan'

interface PlanTreeProps {
  entity: string
  extends?: string
  properties: PlanProperty[]
  onChange: (properties: PlanProperty[]) => void
  entities: ModelEntity[]
  plans: { entity: string; name: string; extends?: string; properties: PlanProperty[] }[]
  /** Path of this level for test ids and labels ("lines.book"). */
  path?: string
  depth?: number
}

const INLINE = '__inline__'
const MAX_DEPTH = 6

/** Extends of a plan (or of an inline nested plan): none, a built-in, or a named plan of the entity. */
interface ExtendsSelectProps {
  entity: string
  value?: string
  onChange: (v: string | undefined) => void
  plans: PlanTreeProps['plans']
  exclude?: string
  label: string
  testId?: string
  /** Inside a Field (false): labelled by it, with its id and aria attributes. */
  inline?: boolean
  [aria: `aria-${string}`]: unknown
  id?: string
}

export function ExtendsSelect({
  entity,
  value,
  onChange,
  plans,
  exclude,
  label,
  testId,
  inline = true,
  ...field
}: ExtendsSelectProps) {
  return (
    <select
      {...field}
      className={inline ? 'input input--inline' : undefined}
      aria-label={inline ? label : undefined}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value || undefined)}
      data-testid={testId}
    >
      <option value="">nothing</option>
      <option value="_local">_local</option>
      <option value="_base">_base</option>
      <option value="_instance_name">_instance_name</option>
      {plans
        .filter((p) => p.entity === entity && p.name !== exclude)
        .map((p) => (
          <option key={p.name} value={p.name}>
            {p.name}
          </option>
        ))}
    </select>
  )
}

/** The entity's attributes with checkboxes; a ticked relation chooses its nested plan. */
export function PlanTree({
  entity,
  extends: base,
  properties,
  onChange,
  entities,
  plans,
  path = '',
  depth = 0,
}: PlanTreeProps) {
  const meta = entities.find((e) => e.name === entity)
  if (!meta) return <p className="muted">Unknown entity {entity}.</p>
  const order = meta.attributes.map((a) => a.name)
  const inherited = inheritedProperties(meta, base, plans)
  // System attributes (version, createdBy…) a plan may name explicitly.
  const extras = properties
    .map(propName)
    .filter((n) => !order.includes(n))
    .map((name) => ({ name, type: 'system', target: undefined as string | undefined }))
  return (
    <ul
      className={depth === 0 ? 'plan-tree' : 'plan-tree plan-tree--nested'}
      data-testid={depth === 0 ? 'plan-tree' : undefined}
    >
      {[...meta.attributes, ...extras].map((a) => {
        const property = findProperty(properties, a.name)
        const relation = a.type === 'association' || a.type === 'composition'
        const nested = property ? nestedOf(property) : undefined
        const here = path ? `${path}.${a.name}` : a.name
        const choice = nested === undefined ? '' : typeof nested === 'string' ? nested : INLINE
        const setChoice = (value: string) => {
          const next: string | InlinePlan | undefined =
            value === ''
              ? undefined
              : value === INLINE
                ? { extends: '_instance_name', properties: [] }
                : value
          onChange(setNested(properties, a.name, next))
        }
        return (
          <li key={a.name} className="plan-tree__item">
            <div className="plan-tree__row">
              <label className="check">
                <input
                  type="checkbox"
                  checked={!!property}
                  onChange={(e) =>
                    onChange(toggleProperty(properties, a.name, e.target.checked, order))
                  }
                  data-testid={`plan-prop-${here}`}
                />
                <span className="mono">{a.name}</span>
              </label>
              <span className={relation ? 'type type--relation' : 'type'}>
                {relation ? `→ ${a.target ?? '?'}` : typeLabel(a.type)}
              </span>
              {inherited.has(a.name) && !property && (
                <span className="badge badge--outline">from {inherited.get(a.name)}</span>
              )}
              {relation && property && (
                <select
                  className="input input--inline"
                  aria-label={`Nested plan of ${here}`}
                  value={choice}
                  onChange={(e) => setChoice(e.target.value)}
                  data-testid={`plan-nested-${here}`}
                >
                  <option value="">_base (default)</option>
                  {BUILTIN_PLANS.filter((p) => p !== '_base').map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                  {plans
                    .filter((p) => p.entity === a.target)
                    .map((p) => (
                      <option key={p.name} value={p.name}>
                        plan {p.name}
                      </option>
                    ))}
                  {depth < MAX_DEPTH && <option value={INLINE}>inline: choose attributes…</option>}
                </select>
              )}
            </div>
            {relation && property && typeof nested === 'object' && (
              <div className="plan-tree__inline">
                <div className="plan-tree__extends">
                  <span className="muted small">{a.target} extends</span>
                  <ExtendsSelect
                    entity={a.target ?? ''}
                    value={nested.extends}
                    plans={plans}
                    label={`Nested plan of ${here} extends`}
                    onChange={(ext) =>
                      onChange(setNested(properties, a.name, { ...nested, extends: ext }))
                    }
                  />
                </div>
                <PlanTree
                  entity={a.target ?? ''}
                  extends={nested.extends}
                  properties={nested.properties}
                  onChange={(props) =>
                    onChange(setNested(properties, a.name, { ...nested, properties: props }))
                  }
                  entities={entities}
                  plans={plans}
                  path={here}
                  depth={depth + 1}
                />
              </div>
            )}
          </li>
        )
      })}
    </ul>
  )
}
