import { describe, expect, it } from 'vitest'
import type { ModelEntity } from '../../../lib/model'
import { buildGraph, neighbours } from './er_graph'
import { entitySize, layoutGraph } from './er_layout'
import { toEdges } from './er_elements'
import { bigModel as sharedBigModel } from '../../../../../scripts/er_model.js'

const model: ModelEntity[] = [
  {
    name: 'shop_Order',
    attributes: [
      { name: 'number', type: 'string', length: 20, mandatory: true },
      { name: 'customer', type: 'association', target: 'shop_Customer', cardinality: 'MANY_TO_ONE', mandatory: true },
      { name: 'lines', type: 'composition', target: 'shop_Line', cardinality: 'ONE_TO_MANY', mappedBy: 'order' },
      { name: 'address', type: 'composition', target: 'shop_Address', cardinality: 'ONE_TO_ONE' },
    ],
  },
  {
    name: 'shop_Line',
    attributes: [
      { name: 'order', type: 'association', target: 'shop_Order', cardinality: 'MANY_TO_ONE', mandatory: true },
      { name: 'tags', type: 'association', target: 'shop_Tag', cardinality: 'MANY_TO_MANY' },
    ],
  },
  { name: 'shop_Customer', attributes: [{ name: 'status', type: 'enum', enum: 'com.shop.Status' }] },
  { name: 'shop_Address', attributes: [{ name: 'city', type: 'string' }] },
  { name: 'shop_Tag', attributes: [] },
  { name: 'shop_Lonely', idType: 'long', attributes: [{ name: 'price', type: 'decimal', precision: 10, scale: 3 }] },
]

/** The model of the browser benchmark and test: 4 modules of 50 entities, trees with cross links. */
const bigModel = (count?: number) => sharedBigModel(count) as ModelEntity[]

describe('ER graph', () => {
  it('merges the two sides of a relation into one edge with kind, parent and cardinalities', () => {
    const graph = buildGraph(model)
    expect(graph.relations.map((r) => r.id).sort()).toEqual([
      'shop_Line.order',
      'shop_Line.tags',
      'shop_Order.address',
      'shop_Order.customer',
    ])
    const byId = new Map(graph.relations.map((r) => [r.id, r]))
    expect(byId.get('shop_Line.order')).toMatchObject({
      kind: 'composition',
      parent: 'target',
      targetAttribute: 'lines',
      sourceLabel: '*',
      targetLabel: '1',
      rankFrom: 'shop_Order',
    })
    expect(byId.get('shop_Order.address')).toMatchObject({ kind: 'composition', parent: 'source', targetLabel: '0..1' })
    expect(byId.get('shop_Order.customer')).toMatchObject({ kind: 'association', sourceLabel: '*', targetLabel: '1' })
    expect(byId.get('shop_Line.tags')).toMatchObject({ sourceLabel: '*', targetLabel: '*' })
    expect([...neighbours(graph, 'shop_Line')].sort()).toEqual(['shop_Line', 'shop_Order', 'shop_Tag'])
  })

  it('lists every attribute with a readable type; only owning sides carry an edge handle', () => {
    const order = buildGraph(model).entities.find((e) => e.name === 'shop_Order')!
    expect(order.rows.map((r) => [r.name, r.type, r.handle ?? false])).toEqual([
      ['id', 'uuid', false],
      ['number', 'string(20)', false],
      ['customer', 'shop_Customer', true],
      ['lines', 'shop_Line', false],
      ['address', 'shop_Address', true],
    ])
    const entities = buildGraph(model).entities
    expect(entities.find((e) => e.name === 'shop_Customer')!.rows[1]!.type).toBe('Status')
    expect(entities.find((e) => e.name === 'shop_Lonely')!.rows.map((r) => r.type)).toEqual(['long', 'decimal(10,3)'])
  })

  it('lays out without overlaps and connects each edge on the facing sides', () => {
    const graph = buildGraph(model)
    const boxes = layoutGraph(graph)
    const all = [...boxes.values()]
    for (const [i, a] of all.entries())
      for (const b of all.slice(i + 1))
        expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y).toBe(true)
    for (const e of toEdges(graph, boxes)) {
      const s = boxes.get(e.source)!
      const t = boxes.get(e.target)!
      if (s.x + s.width < t.x) expect([e.sourceHandle, e.targetHandle]).toEqual([`${e.data!.relation.sourceAttribute}-r`, `in-l-${e.data!.targetSlot}`])
    }
    expect(entitySize(graph.entities[0]!).height).toBe(34 + 5 * 22 + 10)
  })

  it('lays out 200 entities quickly and about as wide as high', () => {
    const graph = buildGraph(bigModel())
    const started = performance.now()
    const boxes = layoutGraph(graph)
    const ms = performance.now() - started
    console.log(`layout of 200 entities: ${ms.toFixed(0)} ms`)
    expect(boxes.size).toBe(200)
    const width = Math.max(...[...boxes.values()].map((b) => b.x + b.width))
    const height = Math.max(...[...boxes.values()].map((b) => b.y + b.height))
    expect(width / height).toBeGreaterThan(0.5)
    expect(width / height).toBeLessThan(4)
  })
})
