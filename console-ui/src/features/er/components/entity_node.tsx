import { memo } from 'react'
import { Handle, Position, useStore, type Node, type NodeProps, type ReactFlowState } from '@xyflow/react'
import type { ErEntity, ErRow } from './er_graph'
import { HEADER_HEIGHT, ROW_HEIGHT, ROWS_TOP } from './er_layout'

export interface EntityNodeData extends Record<string, unknown> {
  entity: ErEntity
  /** Header handles edges enter (`in-l-0` … `in-r-2`). */
  targets: string[]
  /** Row handles edges leave (`<attribute>-l` / `-r`). */
  sources: string[]
}

export type EntityNodeType = Node<EntityNodeData, 'entity'>

/** Below this zoom the rows are unreadable: boxes show their name only (much less to draw). */
export const COMPACT_ZOOM = 0.35
export const compactSelector = (s: ReactFlowState) => s.transform[2] < COMPACT_ZOOM

const SLOT_TOP = [7, 17, 27]

function rowTitle(row: ErRow) {
  if (!row.relation) return `${row.name}: ${row.type}${row.mandatory ? ' (mandatory)' : ''}`
  return `${row.name}: ${row.relation} to ${row.target ?? '?'}${row.many ? ' (many)' : ''}`
}

function headerTitle(entity: ErEntity) {
  const traits = entity.traits.length ? ` · ${entity.traits.join(', ')}` : ''
  return `${entity.caption ?? entity.name}${traits}`
}

function Tag({ row }: { row: ErRow }) {
  if (row.system && row.name === 'id') return <span className="er-tag er-tag--pk">PK</span>
  if (row.handle && !row.many) return <span className="er-tag">FK</span>
  return null
}

const Rows = memo(function Rows({ rows }: { rows: ErRow[] }) {
  return (
    <ul className="er-node__rows">
      {rows.map((row) => (
        <li
          key={row.name}
          className={[
            'er-row',
            row.relation ? `er-row--${row.relation}` : '',
            row.system ? 'er-row--system' : '',
            row.mandatory ? 'er-row--mandatory' : '',
          ].join(' ')}
          title={rowTitle(row)}
        >
          <span className="er-row__name">{row.name}</span>
          <span className="er-row__type">
            {row.relation === 'composition' ? '◆ ' : row.relation ? '→ ' : ''}
            {row.type}
            {row.many ? ' [*]' : ''}
          </span>
          <Tag row={row} />
        </li>
      ))}
    </ul>
  )
})

/**
 * One entity: its name and attribute rows (relation rows marked); edges leave from their row
 * and enter the header. The handles sit at fixed offsets, so they stay put when the box
 * switches between detailed and compact drawing with the zoom.
 */
export const EntityNode = memo(function EntityNode({ data }: NodeProps<EntityNodeType>) {
  const { entity } = data
  const compact = useStore(compactSelector)
  return (
    <div className={compact ? 'er-node er-node--compact' : 'er-node'} data-testid="er-node" data-entity={entity.name}>
      {data.targets.map((id) => (
        <Handle
          key={id}
          type="target"
          id={id}
          position={id.startsWith('in-l') ? Position.Left : Position.Right}
          isConnectable={false}
          className="er-handle"
          style={{ top: SLOT_TOP[Number(id.slice(-1))] }}
        />
      ))}
      {data.sources.map((id) => {
        const row = entity.rows.findIndex((r) => `${r.name}-l` === id || `${r.name}-r` === id)
        return (
          <Handle
            key={id}
            type="source"
            id={id}
            position={id.endsWith('-l') ? Position.Left : Position.Right}
            isConnectable={false}
            className="er-handle"
            style={{ top: HEADER_HEIGHT + ROWS_TOP + row * ROW_HEIGHT + ROW_HEIGHT / 2 }}
          />
        )
      })}
      <div className="er-node__header" title={headerTitle(entity)}>
        <span className="er-node__name">{entity.name}</span>
      </div>
      {compact ? <div className="er-node__compact" /> : <Rows rows={entity.rows} />}
    </div>
  )
})
