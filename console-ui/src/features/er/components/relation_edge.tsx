import { memo } from 'react'
import { BaseEdge, getSmoothStepPath, Position, useStore, type Edge, type EdgeProps } from '@xyflow/react'
import { compactSelector } from './entity_node'
import type { ErRelation } from './er_graph'

export interface RelationEdgeData extends Record<string, unknown> {
  relation: ErRelation
  /** Which of the target header's handles (0 top, 1 middle, 2 bottom) the edge enters. */
  targetSlot: number
  /** More than two edges enter that side: the middle one's label moves out of the way. */
  crowded: boolean
}

export type RelationEdgeType = Edge<RelationEdgeData, 'relation'>

/** Where a cardinality label goes: just outside the handle, above the line (below it for the bottom slot). */
function endLabel(x: number, y: number, position: Position, slot = 1, crowded = false) {
  const out = position === Position.Left ? -1 : 1
  const away = slot === 1 && crowded ? 34 : 10
  return { x: x + out * away, y: slot === 2 ? y + 13 : y - 5, anchor: out < 0 ? ('end' as const) : ('start' as const) }
}

/**
 * A relation: association (thin line, an arrow towards the target when only the source
 * navigates) or composition (thicker line, filled diamond at the parent), with the cardinality
 * at both ends and the attribute name(s) in the middle.
 */
export const RelationEdge = memo(function RelationEdge(props: EdgeProps<RelationEdgeType>) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data } = props
  const compact = useStore(compactSelector)
  const [path, labelX, labelY] = getSmoothStepPath({
    sourceX,
    sourceY,
    sourcePosition,
    targetX,
    targetY,
    targetPosition,
    borderRadius: 10,
    offset: 24,
  })
  if (!data) return null
  const r = data.relation
  const composition = r.kind === 'composition'
  const markerStart = composition && r.parent === 'source' ? 'url(#er-diamond)' : undefined
  const markerEnd =
    composition && r.parent === 'target'
      ? 'url(#er-diamond)'
      : !composition && !r.targetAttribute
        ? 'url(#er-arrow)'
        : undefined
  const s = endLabel(sourceX, sourceY, sourcePosition)
  const t = endLabel(targetX, targetY, targetPosition, data.targetSlot, data.crowded)
  const name = r.targetAttribute ? `${r.sourceAttribute} / ${r.targetAttribute}` : r.sourceAttribute
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerStart={markerStart}
        markerEnd={markerEnd}
        className={composition ? 'er-edge er-edge--composition' : 'er-edge'}
      />
      <g className="er-edge__labels" data-testid="er-edge" data-kind={r.kind}>
        {!compact && (
          <>
            <text x={s.x} y={s.y} textAnchor={s.anchor} className="er-edge__card">
              {r.sourceLabel}
            </text>
            <text x={t.x} y={t.y} textAnchor={t.anchor} className="er-edge__card">
              {r.targetLabel}
            </text>
            <text x={labelX} y={labelY - 4} textAnchor="middle" className="er-edge__name">
              {name}
            </text>
          </>
        )}
      </g>
    </>
  )
})

/** The markers the edges refer to (rendered once per page). */
export function ErMarkers() {
  return (
    <svg className="er-markers" aria-hidden="true" focusable="false">
      <defs>
        <marker id="er-diamond" viewBox="0 0 20 12" refX="19" refY="6" markerWidth="20" markerHeight="12" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
          <path d="M1 6 L10 1 L19 6 L10 11 Z" className="er-marker er-marker--filled" />
        </marker>
        <marker id="er-arrow" viewBox="0 0 12 12" refX="11" refY="6" markerWidth="12" markerHeight="12" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
          <path d="M1 1 L11 6 L1 11" className="er-marker er-marker--open" />
        </marker>
      </defs>
    </svg>
  )
}
