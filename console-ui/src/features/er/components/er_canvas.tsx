import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useNavigate } from 'react-router'
import {
  Background,
  Controls,
  getNodesBounds,
  getViewportForBounds,
  MiniMap,
  ReactFlow,
  useReactFlow,
  useStore,
  type NodeMouseHandler,
  type ReactFlowState,
} from '@xyflow/react'
import { useTheme } from '../../../app/theme'
import type { ModelEntity } from '../../../lib/model'
import { EntityNode, type EntityNodeType } from './entity_node'
import { buildGraph, neighbours } from './er_graph'
import { layoutGraph } from './er_layout'
import { toEdges, toNodes } from './er_elements'
import { ErMarkers, RelationEdge } from './relation_edge'
import { ErSearch } from './er_search'

const MIN_ZOOM = 0.03
const minimapSize = { width: 170, height: 120 }
const nodeTypes = { entity: EntityNode }
const edgeTypes = { relation: RelationEdge }
const ariaLabels = {
  'node.a11yDescription.default': 'Press Enter to open this entity in the model designer.',
}

/**
 * Ready: every drawn node measured (size and handles known, so its edges are routed). Not React
 * Flow's `useNodesInitialized()`: by default it reads `measured` on the nodes passed in, which
 * these controlled nodes never get written back, and with `includeHiddenNodes` it waits for the
 * hidden nodes too, which are never rendered hence never measured ("Only related entities" kept
 * the flag false for good, also when the page was shown again with that state).
 */
const everyShownNodeMeasured = (s: ReactFlowState) => {
  if (s.nodeLookup.size === 0) return false
  for (const node of s.nodeLookup.values()) {
    const measured = node.internals.handleBounds && node.measured.width && node.measured.height
    if (!node.hidden && !measured) return false
  }
  return true
}

export const entityPath = (name: string) => `/model/entities/${name}`

/** The diagram: laid out once per model, focused on one entity (and its neighbours) on demand. */
export function ErCanvas({ entities }: { entities: ModelEntity[] }) {
  const navigate = useNavigate()
  const [theme] = useTheme()
  const flow = useReactFlow()
  const [focus, setFocus] = useState<string | null>(null)
  const [onlyRelated, setOnlyRelated] = useState(false)

  const graph = useMemo(() => buildGraph(entities), [entities])
  const base = useMemo(() => {
    const started = performance.now()
    const boxes = layoutGraph(graph)
    performance.measure('er:layout', { start: started, end: performance.now() })
    const edges = toEdges(graph, boxes)
    return { nodes: toNodes(graph, boxes, edges), edges }
  }, [graph])

  // The first view fits the whole model, computed before the first paint (no jump, and a model
  // too large to read starts in the compact drawing at once).
  const canvasRef = useRef<HTMLDivElement>(null)
  const [size, setSize] = useState<{ width: number; height: number } | null>(null)
  useLayoutEffect(() => {
    const rect = canvasRef.current?.getBoundingClientRect()
    if (rect) setSize({ width: rect.width, height: rect.height })
  }, [])
  const initialView = useMemo(
    () =>
      size &&
      getViewportForBounds(getNodesBounds(base.nodes), size.width, size.height, MIN_ZOOM, 1, 0.08),
    [size, base.nodes]
  )

  const related = useMemo(() => (focus ? neighbours(graph, focus) : null), [graph, focus])
  const nodes = useMemo(() => {
    if (!related) return base.nodes
    return base.nodes.map((n) => ({
      ...n,
      className: n.id === focus ? 'er-focus' : related.has(n.id) ? 'er-related' : 'er-dim',
      hidden: onlyRelated && !related.has(n.id),
    }))
  }, [base.nodes, related, focus, onlyRelated])
  const edges = useMemo(() => {
    if (!focus) return base.edges
    return base.edges.map((e) => {
      const touches = e.source === focus || e.target === focus
      return { ...e, className: touches ? 'er-related' : 'er-dim', hidden: onlyRelated && !touches }
    })
  }, [base.edges, focus, onlyRelated])

  const ready = useStore(everyShownNodeMeasured)
  useEffect(() => {
    if (!ready || performance.getEntriesByName('er:ready').length) return
    performance.mark('er:ready')
    if (performance.getEntriesByName('er:mount').length) performance.measure('er:render', 'er:mount', 'er:ready')
  }, [ready])

  const show = (name: string | null) => {
    setFocus(name)
    const ids = name ? [...neighbours(graph, name)].map((id) => ({ id })) : undefined
    window.setTimeout(() => void flow.fitView({ nodes: ids, duration: 300, maxZoom: 1.1, padding: 0.15 }), 0)
  }

  const open: NodeMouseHandler<EntityNodeType> = (_event, node) => void navigate(entityPath(node.id))
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement
    const id = target.classList.contains('react-flow__node') ? target.dataset.id : undefined
    if (id && event.key === 'Enter') void navigate(entityPath(id))
  }

  return (
    <>
      <ErSearch
        names={graph.entities.map((e) => e.name)}
        focus={focus}
        onFocus={show}
        onlyRelated={onlyRelated}
        onOnlyRelated={setOnlyRelated}
        onFit={() => void flow.fitView({ duration: 300 })}
      />
      <div
        className="er-canvas"
        data-testid="er-canvas"
        data-ready={ready ? 'true' : 'false'}
        ref={canvasRef}
        onKeyDown={onKeyDown}
        role="region"
        aria-label="Entity-relationship diagram"
      >
        <ErMarkers />
        {initialView && (
          <ReactFlow
            defaultViewport={initialView}
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            colorMode={theme}
            onNodeClick={open}
            nodesConnectable={false}
            elementsSelectable={false}
            edgesFocusable={false}
            nodesDraggable={false}
            minZoom={MIN_ZOOM}
            maxZoom={2}
            ariaLabelConfig={ariaLabels}
          >
            <Background gap={24} size={1} />
            <Controls showInteractive={false} />
            <MiniMap pannable zoomable ariaLabel="Overview of the whole diagram" nodeClassName="er-minimap-node" style={minimapSize} />
          </ReactFlow>
        )}
      </div>
    </>
  )
}
