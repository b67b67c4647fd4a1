/*
 * Rows of the permission matrix: one per entity (create/read/update/delete, VIEW/MODIFY on all
 * its attributes) and, when the entity is expanded, one per attribute (VIEW/MODIFY). Rows are
 * memoized: a toggle re-renders only the row whose slice of the matrix changed.
 */
import { memo } from 'react'
import type { Level, Operation } from '../api/roles'
import { OPERATIONS } from '../api/roles'

export const ROW_HEIGHT = 38

interface CellProps {
  label: string
  checked: boolean
  /** Granted anyway through `*` (or a wider attribute policy): shown, not editable here. */
  implied?: boolean
  disabled: boolean
  onChange: (on: boolean) => void
  testId: string
}

export function Cell({ label, checked, implied, disabled, onChange, testId }: CellProps) {
  // Granted through a wider policy: shown as granted; an own grant here would add nothing.
  const inherited = Boolean(implied)
  return (
    <td className={inherited ? 'matrix__cell matrix__cell--implied' : 'matrix__cell'}>
      <input
        type="checkbox"
        aria-label={inherited ? `${label} (granted through *)` : label}
        title={inherited ? `${label}: granted through a wider policy (*)` : label}
        checked={checked || inherited}
        disabled={disabled || inherited}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
        data-implied={inherited ? 'true' : undefined}
      />
    </td>
  )
}

/** VIEW and MODIFY checkboxes for one attribute key (`*` included). */
export function LevelCells({
  subject,
  level,
  implied,
  disabled,
  onChange,
  testId,
}: {
  subject: string
  level: Level | undefined
  implied: Level | null
  disabled: boolean
  onChange: (level: Level | null) => void
  testId: string
}) {
  const view = level === 'VIEW' || level === 'MODIFY'
  const modify = level === 'MODIFY'
  return (
    <>
      <Cell
        label={`View ${subject}`}
        checked={view}
        implied={implied === 'VIEW' || implied === 'MODIFY'}
        disabled={disabled}
        onChange={(on) => onChange(on ? (modify ? 'MODIFY' : 'VIEW') : null)}
        testId={`${testId}-view`}
      />
      <Cell
        label={`Modify ${subject}`}
        checked={modify}
        implied={implied === 'MODIFY'}
        disabled={disabled}
        onChange={(on) => onChange(on ? 'MODIFY' : view ? 'VIEW' : null)}
        testId={`${testId}-modify`}
      />
    </>
  )
}

interface EntityRowProps {
  name: string
  caption?: string
  known: boolean
  attributeCount: number
  ops: Operation[] | undefined
  starOps: Operation[] | undefined
  levels: Record<string, Level> | undefined
  starAll: Level | undefined
  expanded: boolean
  disabled: boolean
  error?: string
  onOperation: (entity: string, op: Operation, on: boolean) => void
  onLevel: (entity: string, attribute: string, level: Level | null) => void
  onExpand: (entity: string) => void
}

export const EntityRow = memo(function EntityRow(props: EntityRowProps) {
  const { name, ops, starOps, levels, disabled } = props
  const own = levels ? Object.keys(levels).filter((a) => a !== '*').length : 0
  return (
    <tr className={props.error ? 'matrix__row matrix__row--error' : 'matrix__row'} data-testid={`row-${name}`}>
      <th scope="row" className="matrix__name">
        <button
          type="button"
          className="matrix__expand"
          aria-expanded={props.expanded}
          aria-label={`${props.expanded ? 'Hide' : 'Show'} attributes of ${name}`}
          onClick={() => props.onExpand(name)}
          disabled={!props.known || props.attributeCount === 0}
          data-testid={`expand-${name}`}
        >
          {props.expanded ? '▾' : '▸'}
        </button>
        <span className="matrix__entity mono" title={props.caption ? `${name} (${props.caption})` : name}>
          {name}
        </span>
        {!props.known && <span className="badge badge--bad">not in the model</span>}
        {props.error && (
          <span className="matrix__error" role="alert" data-testid="field-error" title={props.error}>
            {props.error}
          </span>
        )}
      </th>
      {OPERATIONS.map((op) => (
        <Cell
          key={op}
          label={`${op} ${name}`}
          checked={Boolean(ops?.includes(op))}
          implied={Boolean(starOps?.includes(op))}
          disabled={disabled}
          onChange={(on) => props.onOperation(name, op, on)}
          testId={`cell-${name}-${op}`}
        />
      ))}
      <LevelCells
        subject={`all attributes of ${name}`}
        level={levels?.['*']}
        implied={props.starAll ?? null}
        disabled={disabled}
        onChange={(level) => props.onLevel(name, '*', level)}
        testId={`attr-${name}-*`}
      />
      <td className="matrix__summary muted">{summary(own, props.attributeCount, levels?.['*'], props.starAll)}</td>
    </tr>
  )
})

/** What the attributes of an entity get, in a few words. */
function summary(own: number, total: number, entityAll: Level | undefined, starAll: Level | undefined) {
  const all = entityAll === 'MODIFY' || starAll === 'MODIFY' ? 'MODIFY' : entityAll ?? starAll
  const mine = own > 0 ? `${own} of ${total}` : ''
  if (!all) return mine
  return `all ${all === 'MODIFY' ? 'modifiable' : 'viewable'}${mine ? ` · ${mine}` : ''}`
}

interface AttributeRowProps {
  entity: string
  name: string
  type: string
  level: Level | undefined
  implied: Level | null
  disabled: boolean
  error?: string
  onLevel: (entity: string, attribute: string, level: Level | null) => void
}

export const AttributeRow = memo(function AttributeRow(props: AttributeRowProps) {
  const { entity, name } = props
  return (
    <tr
      className={props.error ? 'matrix__row matrix__row--attr matrix__row--error' : 'matrix__row matrix__row--attr'}
      data-testid={`row-${entity}.${name}`}
    >
      <th scope="row" className="matrix__name matrix__name--attr">
        <span className="mono">{name}</span>
        {props.error && (
          <span className="matrix__error" role="alert" data-testid="field-error" title={props.error}>
            {props.error}
          </span>
        )}
      </th>
      <td colSpan={4} className="matrix__type muted">
        {props.type}
      </td>
      <LevelCells
        subject={`${entity}.${name}`}
        level={props.level}
        implied={props.implied}
        disabled={props.disabled}
        onChange={(level) => props.onLevel(entity, name, level)}
        testId={`attr-${entity}-${name}`}
      />
      <td className="matrix__summary muted" title={props.implied ? 'Granted through a wider policy (entity.* or *)' : undefined}>
        {props.level || props.implied ? (props.level ?? props.implied) === 'MODIFY' ? 'modifiable' : 'read-only' : 'hidden'}
      </td>
    </tr>
  )
})
