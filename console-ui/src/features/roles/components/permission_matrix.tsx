/*
 * The entity x create/read/update/delete matrix of a resource role with the VIEW/MODIFY levels
 * of attributes, for models of any size: rows are virtualized (only what is on screen is in the
 * DOM), the header and the `*` row stay on top, a filter box narrows the rows, bulk actions act
 * on the rows shown. Problems of a save appear on the row they concern.
 */
import { useCallback, useMemo, useRef, useState } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import type { Level, Operation } from '../api/roles'
import { OPERATIONS } from '../api/roles'
import {
  emptyMatrix,
  grantRead,
  hasOwnGrant,
  setLevel,
  setOperation,
  type MatrixState,
} from './matrix_model'
import { AttributeRow, Cell, EntityRow, LevelCells, ROW_HEIGHT } from './matrix_rows'

export interface MatrixEntity {
  name: string
  caption?: string
  attributes: { name: string; type: string }[]
}

interface PermissionMatrixProps {
  entities: MatrixEntity[]
  value: MatrixState
  onChange: (next: MatrixState) => void
  readOnly?: boolean
  /** Problems keyed `entity:<name>` / `attr:<entity>.<attribute>` (matrixProblems). */
  errors?: Record<string, string>
}

type Row = { kind: 'entity'; entity: MatrixEntity; known: boolean } | { kind: 'attr'; entity: string; name: string; type: string }

const rank = (l: Level | null | undefined) => (l === 'MODIFY' ? 2 : l === 'VIEW' ? 1 : 0)
const max = (...levels: (Level | null | undefined)[]) =>
  levels.reduce<Level | null>((best, l) => (rank(l) > rank(best) ? (l ?? null) : best), null)

export function PermissionMatrix({ entities, value, onChange, readOnly = false, errors = {} }: PermissionMatrixProps) {
  const [filter, setFilter] = useState('')
  const [onlyGranted, setOnlyGranted] = useState(false)
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set())
  const scrollRef = useRef<HTMLDivElement>(null)
  // The latest matrix for the memoized row callbacks (rows re-render only when their slice does).
  const latest = useRef({ value, onChange })
  latest.current = { value, onChange }

  const all = useMemo(() => {
    const known = new Set(entities.map((e) => e.name))
    const unknown = [...Object.keys(value.entities), ...Object.keys(value.attributes)].filter(
      (name) => name !== '*' && !known.has(name)
    )
    return [
      ...[...new Set(unknown)].sort().map((name) => ({ entity: { name, attributes: [] } as MatrixEntity, known: false })),
      ...entities.map((entity) => ({ entity, known: true })),
    ]
  }, [entities, value.entities, value.attributes])

  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase()
    return all.filter(
      ({ entity }) =>
        (!needle || entity.name.toLowerCase().includes(needle) || entity.caption?.toLowerCase().includes(needle)) &&
        (!onlyGranted || hasOwnGrant(value, entity.name) || errors[`entity:${entity.name}`])
    )
  }, [all, filter, onlyGranted, value, errors])

  const rows = useMemo<Row[]>(
    () =>
      shown.flatMap(({ entity, known }): Row[] => [
        { kind: 'entity', entity, known },
        ...(expanded.has(entity.name)
          ? entity.attributes.map((a) => ({ kind: 'attr' as const, entity: entity.name, name: a.name, type: a.type }))
          : []),
      ]),
    [shown, expanded]
  )

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // Rows on the very first paint (before the scroll box is measured).
    initialRect: { width: 1000, height: 640 },
  })
  const items = virtualizer.getVirtualItems()
  const padTop = items[0]?.start ?? 0
  const padBottom = Math.max(0, virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0))

  const onOperation = useCallback((entity: string, op: Operation, on: boolean) => {
    const { value: current, onChange: change } = latest.current
    change(setOperation(current, entity, op, on))
  }, [])
  const onLevel = useCallback((entity: string, attribute: string, level: Level | null) => {
    const { value: current, onChange: change } = latest.current
    change(setLevel(current, entity, attribute, level))
  }, [])
  const onExpand = useCallback(
    (entity: string) =>
      setExpanded((prev) => {
        const next = new Set(prev)
        if (next.has(entity)) next.delete(entity)
        else next.add(entity)
        return next
      }),
    []
  )

  const star = value.attributes['*']
  const granted = all.filter(({ entity }) => hasOwnGrant(value, entity.name)).length
  const narrowed = shown.length !== all.length
  const knownShown = shown.filter((s) => s.known).map((s) => s.entity.name)

  return (
    <div className="matrix" data-testid="matrix">
      <div className="toolbar matrix__toolbar">
        <input
          className="input"
          type="search"
          placeholder="Filter entities…"
          aria-label="Filter entities"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          data-testid="matrix-filter"
        />
        <label className="check">
          <input type="checkbox" checked={onlyGranted} onChange={(e) => setOnlyGranted(e.target.checked)} data-testid="matrix-only-granted" />
          Only entities with permissions
        </label>
        <span className="muted matrix__count" data-testid="matrix-count">
          {narrowed ? `${shown.length} of ${all.length} entities shown · ` : `${all.length} entities · `}
          {granted} with permissions
        </span>
        {!readOnly && (
          <span className="matrix__bulk">
            <button
              type="button"
              className="btn btn--small"
              onClick={() => onChange(grantRead(value, knownShown))}
              disabled={knownShown.length === 0}
              data-testid="matrix-grant-read"
            >
              {narrowed ? `Grant read on the ${knownShown.length} shown` : 'Grant read on all entities'}
            </button>
            <button type="button" className="btn btn--small" onClick={() => onChange(emptyMatrix())} data-testid="matrix-clear">
              Clear all
            </button>
          </span>
        )}
      </div>
      <div className="matrix__scroll" ref={scrollRef} role="region" aria-label="Entity and attribute permissions" tabIndex={0} data-testid="matrix-scroll">
        <table className="table matrix__table">
          <caption className="roles-sr-only">Permissions per entity and attribute</caption>
          <thead>
            <tr>
              <th scope="col" className="matrix__name">Entity / attribute</th>
              {OPERATIONS.map((op) => (
                <th scope="col" key={op} className="matrix__head">{op[0]!.toUpperCase() + op.slice(1)}</th>
              ))}
              <th scope="col" className="matrix__head">View</th>
              <th scope="col" className="matrix__head">Modify</th>
              <th scope="col" className="matrix__head matrix__summary">Attributes</th>
            </tr>
            <tr className="matrix__row matrix__row--star" data-testid="row-*">
              <th scope="row" className="matrix__name">
                <span className="mono">*</span> <span className="muted">every entity</span>
              </th>
              {OPERATIONS.map((op) => (
                <Cell
                  key={op}
                  label={`${op} every entity`}
                  checked={Boolean(value.entities['*']?.includes(op))}
                  disabled={readOnly}
                  onChange={(on) => onOperation('*', op, on)}
                  testId={`cell-*-${op}`}
                />
              ))}
              <LevelCells
                subject="every attribute of every entity"
                level={star?.['*']}
                implied={null}
                disabled={readOnly}
                onChange={(level) => onLevel('*', '*', level)}
                testId="attr-*-*"
              />
              <td className="matrix__summary muted">
                {Object.keys(star ?? {}).filter((a) => a !== '*').map((a) => `*.${a}: ${star?.[a]}`).join(', ')}
              </td>
            </tr>
          </thead>
          <tbody>
            {padTop > 0 && (
              <tr aria-hidden="true" className="matrix__pad">
                <td colSpan={8} style={{ height: padTop }} />
              </tr>
            )}
            {items.map((item) => {
              const row = rows[item.index]!
              if (row.kind === 'entity') {
                const name = row.entity.name
                return (
                  <EntityRow
                    key={`e:${name}`}
                    name={name}
                    caption={row.entity.caption}
                    known={row.known}
                    attributeCount={row.entity.attributes.length}
                    ops={value.entities[name]}
                    starOps={value.entities['*']}
                    levels={value.attributes[name]}
                    starAll={star?.['*']}
                    expanded={expanded.has(name)}
                    disabled={readOnly}
                    error={errors[`entity:${name}`]}
                    onOperation={onOperation}
                    onLevel={onLevel}
                    onExpand={onExpand}
                  />
                )
              }
              const levels = value.attributes[row.entity]
              return (
                <AttributeRow
                  key={`a:${row.entity}.${row.name}`}
                  entity={row.entity}
                  name={row.name}
                  type={row.type}
                  level={levels?.[row.name]}
                  implied={max(levels?.['*'], star?.[row.name], star?.['*'])}
                  disabled={readOnly}
                  error={errors[`attr:${row.entity}.${row.name}`]}
                  onLevel={onLevel}
                />
              )
            })}
            {padBottom > 0 && (
              <tr aria-hidden="true" className="matrix__pad">
                <td colSpan={8} style={{ height: padBottom }} />
              </tr>
            )}
          </tbody>
        </table>
        {rows.length === 0 && <p className="empty matrix__empty">No entity matches the filter.</p>}
      </div>
    </div>
  )
}
