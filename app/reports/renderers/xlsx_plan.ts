/**
 * The row plan of one sheet: which template row each output row copies and for which band
 * row, in Jmix's order (parent row 1, its children, parent row 2 ...), and the maps that
 * move references: a template row of a static part moves with the shift; a band row maps to
 * the enclosing band row's copy, or (from outside the band) to its first copy for a cell or
 * a range start and to its last copy for a range end, so `SUM(E4:E4)` covers every copy.
 */
import type { BandInstance } from '../types.js'
import type { BandSpec, SheetBands } from './xlsx_bands.js'
import { pathDown, topRows } from './xlsx_bands.js'

/** One printed copy of a band's rows. */
export interface Rec {
  spec: BandSpec
  instance: BandInstance
  start: number
  parent?: Rec
  kids: Map<string, Rec[]>
  /** Output row where each nested child band's copies begin (also when there are none). */
  anchors: Map<string, number>
}

export interface Entry {
  tpl: number
  out: number
  rec?: Rec
  /** First copy of this template row: cells outside the band's columns print here only. */
  first: boolean
}

export type Role = 'cell' | 'start' | 'end'

export interface VerticalPlan {
  spec: BandSpec
  rows: BandInstance[]
  width: number
}

export class SheetPlan {
  entries: Entry[] = []
  recs = new Map<string, Rec[]>()
  anchors = new Map<string, number>()
  private staticOut: number[] = []
  private bandOfRow = new Map<number, BandSpec>()
  readonly vertical: VerticalPlan[]
  outRows = 0
  private lastTemplateRow: number

  constructor(
    readonly bands: SheetBands,
    root: BandInstance,
    readonly templateRows: number
  ) {
    this.vertical = bands.vertical.map((spec) => ({
      spec,
      rows: topRows(root, spec),
      width: spec.area.right - spec.area.left + 1,
    }))
    for (const spec of bands.all.values()) {
      if (spec.orientation === 'VERTICAL') continue
      for (let r = spec.area.top; r <= spec.area.bottom; r++) this.bandOfRow.set(r, spec)
    }
    const blocks = new Map(bands.blocks.map((b) => [b.area.top, b]))
    const seen = new Set<number>()
    let out = 0
    let tpl = 1
    const last = Math.max(templateRows, ...bands.blocks.map((b) => b.blockBottom))
    this.lastTemplateRow = last
    while (tpl <= last) {
      const block = blocks.get(tpl)
      if (!block) {
        this.staticOut[tpl] = ++out
        this.entries.push({ tpl, out, first: true })
        tpl++
        continue
      }
      const emit = (spec: BandSpec, instance: BandInstance, parent?: Rec) => {
        const rec: Rec = {
          spec,
          instance,
          start: out + 1,
          parent,
          kids: new Map(),
          anchors: new Map(),
        }
        this.push(spec.name, rec, this.recs)
        if (parent) this.push(spec.name, rec, parent.kids)
        for (let r = spec.area.top; r <= spec.area.bottom; r++) {
          this.entries.push({ tpl: r, out: ++out, rec, first: !seen.has(r) })
          seen.add(r)
        }
        for (const child of spec.children) {
          rec.anchors.set(child.name, out + 1)
          this.anchor(child, out + 1)
          for (const row of instance.bands[child.name] ?? []) emit(child, row, rec)
        }
      }
      this.anchor(block, out + 1)
      for (const row of topRows(root, block)) emit(block, row)
      tpl = block.blockBottom + 1
    }
    this.outRows = out
  }

  private push(name: string, rec: Rec, map: Map<string, Rec[]>) {
    const list = map.get(name)
    if (list) list.push(rec)
    else map.set(name, [rec])
  }

  private anchor(spec: BandSpec, row: number) {
    if (!this.anchors.has(spec.name)) this.anchors.set(spec.name, row)
    for (const c of spec.children) this.anchor(c, row)
  }

  /** Output row of a template row, seen from inside `rec` (or from outside every band). */
  mapRow(row: number, role: Role, rec?: Rec): number | null {
    const spec = this.bandOfRow.get(row)
    if (!spec) {
      const o = this.staticOut[row]
      if (o !== undefined) return o
      return row - this.lastTemplateRow + this.outRows
    }
    const offset = row - spec.area.top
    for (let r = rec; r; r = r.parent) if (r.spec === spec) return r.start + offset
    let copies: Rec[] = this.recs.get(spec.name) ?? []
    let anchor: number | undefined = this.anchors.get(spec.name)
    for (let r = rec; r; r = r.parent) {
      const path = pathDown(r.spec, spec)
      if (!path) continue
      copies = descend([r], path)
      anchor = path.length === 1 ? r.anchors.get(spec.name) : undefined
      break
    }
    if (copies.length > 0) {
      const pick = role === 'end' ? copies[copies.length - 1] : copies[0]
      return pick.start + offset
    }
    if (role === 'cell' || anchor === undefined) return null
    return role === 'start' ? anchor : anchor - 1
  }

  /** Output column of a template cell, seen from inside vertical band row `v` (if any). */
  mapCol(
    row: number,
    col: number,
    role: Role,
    v?: { spec: BandSpec; index: number }
  ): number | null {
    for (const p of this.vertical) {
      const a = p.spec.area
      if (row < a.top || row > a.bottom) continue
      const n = p.rows.length
      if (col < a.left) return col
      if (col > a.right) return col + (n - 1) * p.width
      const offset = col - a.left
      if (v && v.spec === p.spec) return a.left + v.index * p.width + offset
      if (n > 0) return a.left + (role === 'end' ? n - 1 : 0) * p.width + offset
      if (role === 'cell') return null
      return role === 'start' ? a.left : a.left - 1
    }
    return col
  }

  /** Output extent of a band (undefined when it printed no row). */
  extent(spec: BandSpec): { top: number; bottom: number; left: number; right: number } | undefined {
    const a = spec.area
    if (spec.orientation === 'VERTICAL') {
      const p = this.vertical.find((x) => x.spec === spec)
      if (!p || p.rows.length === 0) return undefined
      return {
        top: a.top,
        bottom: a.bottom,
        left: a.left,
        right: a.left + p.rows.length * p.width - 1,
      }
    }
    const copies = this.recs.get(spec.name)
    if (!copies || copies.length === 0) return undefined
    const lastCopy = copies[copies.length - 1]
    return {
      top: copies[0].start,
      bottom: lastCopy.start + (a.bottom - a.top),
      left: a.left,
      right: a.right,
    }
  }
}

function descend(from: Rec[], path: BandSpec[]): Rec[] {
  let level = from
  for (const step of path) level = level.flatMap((r) => r.kids.get(step.name) ?? [])
  return level
}
