/*
 * The model as a graph: one box per entity (its attribute rows) and one edge per relation. The
 * two sides of a bidirectional relation (`Order.lines` mappedBy `OrderLine.order`) are one edge,
 * drawn from the owning side's row to the other entity; a composition on either side makes the
 * edge a composition, with the diamond at the parent.
 */
import { isRelation, type ModelAttribute, type ModelEntity } from '../../../lib/model'

export type RelationKind = 'association' | 'composition'

export interface ErRow {
  name: string
  /** What the row shows after the name: `string(80)`, `Genre`, `bookstore_Book`. */
  type: string
  relation?: RelationKind
  /** The relation's cardinality symbol at the far end (`*`, `1`, `0..1`). */
  many?: boolean
  target?: string
  mandatory?: boolean
  /** A row an edge starts from (the owning side of a relation). */
  handle?: boolean
  system?: boolean
}

export interface ErEntity {
  name: string
  caption?: string
  traits: string[]
  rows: ErRow[]
}

export interface ErRelation {
  id: string
  /** The entity whose row the edge starts from (the owning side). */
  source: string
  sourceAttribute: string
  target: string
  /** The other side's attribute, when the relation is bidirectional. */
  targetAttribute?: string
  kind: RelationKind
  /** Where the composition's diamond goes (the parent). */
  parent?: 'source' | 'target'
  /** Cardinality labels at each end. */
  sourceLabel: string
  targetLabel: string
  /** For the layout: the edge runs from the "one" side to the "many" side (parent first). */
  rankFrom: string
  rankTo: string
}

export interface ErGraph {
  entities: ErEntity[]
  relations: ErRelation[]
}

function typeText(a: ModelAttribute): string {
  if (isRelation(a)) return a.target ?? '?'
  if (a.type === 'enum' && typeof a.enum === 'string') return a.enum.split('.').pop() ?? a.enum
  if (a.type === 'string' && typeof a.length === 'number') return `string(${a.length})`
  if (a.type === 'decimal' && (a.precision !== undefined || a.scale !== undefined))
    return `decimal(${String(a.precision ?? 19)},${String(a.scale ?? 2)})`
  return a.type
}

/** Cardinality labels [near the source, near the target] of an owning attribute. */
export function cardinalityLabels(a: ModelAttribute): [string, string] {
  const one = a.mandatory ? '1' : '0..1'
  switch (a.cardinality) {
    case 'ONE_TO_ONE':
      return ['0..1', one]
    case 'ONE_TO_MANY':
      return [one === '1' ? '1' : '0..1', '*']
    case 'MANY_TO_MANY':
      return ['*', '*']
    default:
      return ['*', one]
  }
}

export function buildGraph(model: ModelEntity[]): ErGraph {
  const byName = new Map(model.map((e) => [e.name, e]))
  const owner = (e: ModelEntity, a: ModelAttribute) => {
    if (!a.mappedBy || !a.target) return undefined
    const other = byName.get(a.target)?.attributes.find((x) => x.name === a.mappedBy)
    return other && isRelation(other) && other.target === e.name ? other : undefined
  }
  const relations: ErRelation[] = []
  const entities: ErEntity[] = model.map((e) => {
    const rows: ErRow[] = [{ name: 'id', type: e.idType ?? 'uuid', mandatory: true, system: true }]
    for (const a of e.attributes) {
      const relation = isRelation(a) ? (a.type as RelationKind) : undefined
      const inverseOf = relation ? owner(e, a) : undefined
      const owning = relation !== undefined && inverseOf === undefined
      rows.push({
        name: a.name,
        type: typeText(a),
        relation,
        many: relation ? a.cardinality === 'ONE_TO_MANY' || a.cardinality === 'MANY_TO_MANY' : undefined,
        target: relation ? a.target : undefined,
        mandatory: a.mandatory === true,
        handle: owning && a.target !== undefined && byName.has(a.target),
      })
      if (!owning || !a.target || !byName.has(a.target)) continue
      const inverse = byName
        .get(a.target)
        ?.attributes.find((x) => x.mappedBy === a.name && x.target === e.name && isRelation(x))
      const parent =
        a.type === 'composition' ? 'source' : inverse?.type === 'composition' ? 'target' : undefined
      const [sourceLabel, targetLabel] = cardinalityLabels(a)
      const sourceFirst = parent === 'source' || a.cardinality === 'ONE_TO_MANY'
      relations.push({
        id: `${e.name}.${a.name}`,
        source: e.name,
        sourceAttribute: a.name,
        target: a.target,
        targetAttribute: inverse?.name,
        kind: parent ? 'composition' : 'association',
        parent,
        sourceLabel,
        targetLabel,
        rankFrom: sourceFirst ? e.name : a.target,
        rankTo: sourceFirst ? a.target : e.name,
      })
    }
    return { name: e.name, caption: e.caption?.en, traits: e.traits ?? [], rows }
  })
  return { entities, relations }
}

/** The entities related to `name` (both directions), for focusing one entity. */
export function neighbours(graph: ErGraph, name: string): Set<string> {
  const out = new Set([name])
  for (const r of graph.relations) {
    if (r.source === name) out.add(r.target)
    if (r.target === name) out.add(r.source)
  }
  return out
}
