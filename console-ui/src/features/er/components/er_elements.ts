/*
 * React Flow nodes and edges from the laid-out graph: every edge leaves its row on the side
 * facing the other entity and enters the other entity's header on the side facing back.
 */
import type { EntityNodeType } from './entity_node'
import type { ErGraph } from './er_graph'
import type { Box } from './er_layout'
import type { RelationEdgeType } from './relation_edge'

/** Nodes with the handles their edges use (only those are rendered). */
export function toNodes(graph: ErGraph, boxes: Map<string, Box>, edges: RelationEdgeType[]): EntityNodeType[] {
  const targets = new Map<string, Set<string>>()
  const sources = new Map<string, Set<string>>()
  for (const e of edges) {
    targets.set(e.target, (targets.get(e.target) ?? new Set()).add(e.targetHandle ?? ''))
    sources.set(e.source, (sources.get(e.source) ?? new Set()).add(e.sourceHandle ?? ''))
  }
  return graph.entities.map((entity) => {
    const box = boxes.get(entity.name) ?? { x: 0, y: 0, width: 200, height: 100 }
    return {
      id: entity.name,
      type: 'entity',
      position: { x: box.x, y: box.y },
      width: box.width,
      height: box.height,
      data: {
        entity,
        targets: [...(targets.get(entity.name) ?? [])],
        sources: [...(sources.get(entity.name) ?? [])],
      },
      ariaLabel: `Entity ${entity.name}, ${entity.rows.length - 1} attributes`,
    }
  })
}

/** Header handles per side: edges into one entity are spread over them (no overlapping labels). */
export const SLOTS = 3

/** One edge: the middle; two: top and bottom; more: top, middle, then bottom. */
const slotOf = (index: number, count: number) =>
  count === 1 ? 1 : count === 2 ? index * 2 : Math.min(SLOTS - 1, index)

export function toEdges(graph: ErGraph, boxes: Map<string, Box>): RelationEdgeType[] {
  const edges = graph.relations.map((relation) => {
    const a = boxes.get(relation.source)
    const b = boxes.get(relation.target)
    let sourceSide = 'r'
    let targetSide = 'r'
    if (a && b && relation.source !== relation.target) {
      if (a.x + a.width < b.x) [sourceSide, targetSide] = ['r', 'l']
      else if (b.x + b.width < a.x) [sourceSide, targetSide] = ['l', 'r']
    }
    return { relation, sourceSide, targetSide, y: a ? a.y : 0 }
  })
  // Slots: per target side, the incoming edges in the order of their sources from top to bottom.
  const slot = new Map<string, number>()
  const crowded = new Set<string>()
  const groups = new Map<string, typeof edges>()
  for (const e of edges) {
    const key = `${e.relation.target}:${e.targetSide}`
    groups.set(key, [...(groups.get(key) ?? []), e])
  }
  for (const group of groups.values())
    group
      .sort((x, y) => x.y - y.y)
      .forEach((e, i) => {
        slot.set(e.relation.id, slotOf(i, group.length))
        if (group.length > 2) crowded.add(e.relation.id)
      })
  return edges.map(({ relation, sourceSide, targetSide }) => {
    const targetSlot = slot.get(relation.id) ?? 1
    return {
      id: relation.id,
      type: 'relation',
      source: relation.source,
      target: relation.target,
      sourceHandle: `${relation.sourceAttribute}-${sourceSide}`,
      targetHandle: `in-${targetSide}-${targetSlot}`,
      data: { relation, targetSlot, crowded: crowded.has(relation.id) },
      ariaLabel: `${relation.kind} ${relation.id} to ${relation.target}`,
    }
  })
}
