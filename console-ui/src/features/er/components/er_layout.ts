/*
 * Automatic layout: every connected group of entities is laid out by dagre (left to right, the
 * "one" side before the "many" side), then the groups are packed in rows to a landscape shape,
 * so a large model with unrelated parts does not become one endless column.
 */
import { Graph, layout } from '@dagrejs/dagre'
import type { ErEntity, ErGraph, ErRelation } from './er_graph'

export const HEADER_HEIGHT = 34
export const ROW_HEIGHT = 22
/** From the header's bottom to the first row: the box's border and the list's padding. */
export const ROWS_TOP = 5
const PADDING = 10
const GAP = 70
const CHAR = 7.4

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

/** The box size of an entity (the node's CSS uses the same numbers). */
export function entitySize(entity: ErEntity): { width: number; height: number } {
  let width = entity.name.length * 7.6 + 24
  for (const row of entity.rows) {
    const type = row.type.length + (row.relation ? 2 : 0) + (row.many ? 4 : 0)
    const tag = row.system || (row.handle && !row.many) ? 32 : 0
    width = Math.max(width, 36 + row.name.length * CHAR + type * 7 + tag)
  }
  return {
    width: Math.round(Math.min(440, Math.max(180, width))),
    height: HEADER_HEIGHT + entity.rows.length * ROW_HEIGHT + PADDING,
  }
}

/**
 * The relations that shape the layout: many-to-many links are drawn but left out, they join
 * otherwise separate parts of a model and make dagre's work (and the picture) much bigger.
 */
const backbone = (graph: ErGraph) =>
  graph.relations.filter((r) => !(r.sourceLabel === '*' && r.targetLabel === '*'))

/** Connected groups (union-find over the backbone), biggest first. */
function components(graph: ErGraph, relations: ErRelation[]): string[][] {
  const parent = new Map(graph.entities.map((e) => [e.name, e.name]))
  const find = (x: string): string => {
    let root = x
    while (parent.get(root) !== root) root = parent.get(root) ?? root
    parent.set(x, root)
    return root
  }
  for (const r of relations) parent.set(find(r.source), find(r.target))
  const groups = new Map<string, string[]>()
  for (const e of graph.entities) {
    const root = find(e.name)
    groups.set(root, [...(groups.get(root) ?? []), e.name])
  }
  return [...groups.values()].sort((a, b) => b.length - a.length)
}

export function layoutGraph(graph: ErGraph): Map<string, Box> {
  const sizes = new Map(graph.entities.map((e) => [e.name, entitySize(e)]))
  const relations = backbone(graph)
  const placed: Group[] = []
  for (const names of components(graph, relations)) {
    const boxes = new Map<string, Box>()
    if (names.length === 1) {
      const size = sizes.get(names[0]!)!
      boxes.set(names[0]!, { x: 0, y: 0, ...size })
      placed.push({ boxes, width: size.width, height: size.height })
      continue
    }
    const g = new Graph({ multigraph: true })
    g.setGraph({ rankdir: 'LR', nodesep: 24, ranksep: 110, edgesep: 12, marginx: 0, marginy: 0 })
    g.setDefaultEdgeLabel(() => ({}))
    const members = new Set(names)
    for (const name of names) g.setNode(name, { ...sizes.get(name)! })
    for (const r of relations)
      if (members.has(r.source) && r.rankFrom !== r.rankTo) g.setEdge(r.rankFrom, r.rankTo, {}, r.id)
    layout(g)
    let width = 0
    let height = 0
    for (const name of names) {
      const n = g.node(name)
      const size = sizes.get(name)!
      const box = { x: n.x - size.width / 2, y: n.y - size.height / 2, ...size }
      boxes.set(name, box)
      width = Math.max(width, box.x + box.width)
      height = Math.max(height, box.y + box.height)
    }
    placed.push({ boxes, width, height })
  }
  // Shelf packing: rows of groups; the row width that gives about 16:10 overall wins.
  const area = placed.reduce((sum, p) => sum + (p.width + GAP) * (p.height + GAP), 0)
  const widest = Math.max(...placed.map((p) => p.width))
  let best: Packed | null = null
  for (const factor of [0.5, 0.7, 0.85, 1, 1.2, 1.5, 2, 3]) {
    const packed = pack(placed, Math.max(widest, Math.sqrt(area * 1.6) * factor))
    const score = Math.abs(Math.log(packed.width / Math.max(1, packed.height) / 1.6))
    if (!best || score < best.score) best = { ...packed, score }
  }
  return best?.boxes ?? new Map()
}

interface Group {
  boxes: Map<string, Box>
  width: number
  height: number
}
type Packed = Group & { score: number }

function pack(groups: Group[], rowWidth: number): Group {
  const boxes = new Map<string, Box>()
  let x = 0
  let y = 0
  let shelf = 0
  let width = 0
  for (const g of groups) {
    if (x > 0 && x + g.width > rowWidth) {
      x = 0
      y += shelf + GAP
      shelf = 0
    }
    for (const [name, box] of g.boxes) boxes.set(name, { ...box, x: box.x + x, y: box.y + y })
    width = Math.max(width, x + g.width)
    x += g.width + GAP
    shelf = Math.max(shelf, g.height)
  }
  return { boxes, width, height: y + shelf }
}
