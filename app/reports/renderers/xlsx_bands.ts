/**
 * Which template ranges are bands, and how they nest: a band's defined name gives its range;
 * a child band whose range starts on the row right under its parent's block (the parent's
 * rows and the blocks of the children before it) prints under each parent row; any other
 * ranged band prints all its rows (across parents) where its range is.
 */
import type { BandInstance, BandLayout, Orientation } from '../types.js'
import { ReportError } from '../types.js'
import type { SheetArea } from './xlsx_refs.js'

export interface BandSpec {
  name: string
  orientation: Orientation
  area: SheetArea
  /** Ranged children printed under each row of this band. */
  children: BandSpec[]
  parent?: BandSpec
  /** Last template row of this band and its nested children. */
  blockBottom: number
  /** Top-level spec: whether its rows are every row of the band anywhere (not first-level). */
  flat: boolean
}

export interface SheetBands {
  /** Top-level horizontal blocks, by top row. */
  blocks: BandSpec[]
  vertical: BandSpec[]
  /** Every spec on the sheet (nested ones included), by band name. */
  all: Map<string, BandSpec>
}

/** Bands per template sheet name. */
export function bandSpecs(
  layout: BandLayout[],
  ranges: Map<string, SheetArea>
): Map<string, SheetBands> {
  const sheets = new Map<string, SheetBands>()
  const sheetOf = (name: string) => {
    let s = sheets.get(name)
    if (!s) sheets.set(name, (s = { blocks: [], vertical: [], all: new Map() }))
    return s
  }
  const make = (l: BandLayout, area: SheetArea, flat: boolean): BandSpec => ({
    name: l.name,
    orientation: l.orientation ?? 'HORIZONTAL',
    area,
    children: [],
    blockBottom: area.bottom,
    flat,
  })
  const topLevel = (spec: BandSpec) => {
    const s = sheetOf(spec.area.sheet)
    if (spec.orientation === 'VERTICAL') s.vertical.push(spec)
    else s.blocks.push(spec)
  }
  /** Walks the layout; `host` = the nearest ranged horizontal ancestor. */
  const walk = (layouts: BandLayout[], host: BandSpec | undefined, depth: number) => {
    const ranged = layouts
      .map((l) => ({ l, area: ranges.get(l.name) }))
      .sort((a, b) => (a.area?.top ?? 0) - (b.area?.top ?? 0))
    for (const { l, area } of ranged) {
      if (!area) {
        walk(l.children, host, depth + 1)
        continue
      }
      const horizontal = (l.orientation ?? 'HORIZONTAL') === 'HORIZONTAL'
      const nested =
        host !== undefined &&
        horizontal &&
        area.sheet === host.area.sheet &&
        area.top === host.blockBottom + 1
      const spec = make(l, area, !nested && depth > 0)
      sheetOf(area.sheet).all.set(spec.name, spec)
      if (nested && host) {
        spec.parent = host
        host.children.push(spec)
      } else topLevel(spec)
      walk(l.children, horizontal ? spec : undefined, depth + 1)
      if (nested && host) {
        for (let h: BandSpec | undefined = host; h; h = h.parent) {
          h.blockBottom = Math.max(h.blockBottom, spec.blockBottom)
        }
      }
    }
  }
  walk(layout, undefined, 0)
  for (const s of sheets.values()) checkOverlaps(s)
  return sheets
}

function checkOverlaps(s: SheetBands): void {
  s.blocks.sort((a, b) => a.area.top - b.area.top)
  for (let i = 1; i < s.blocks.length; i++) {
    const a = s.blocks[i - 1]
    const b = s.blocks[i]
    if (b.area.top <= a.blockBottom) {
      throw new ReportError(
        `Bands ${a.name} and ${b.name} share template rows on sheet ${b.area.sheet}: horizontal band ranges must not overlap`
      )
    }
  }
  for (const v of s.vertical) {
    for (const b of s.blocks) {
      if (v.area.top <= b.blockBottom && v.area.bottom >= b.area.top) {
        throw new ReportError(
          `Vertical band ${v.name} shares template rows with horizontal band ${b.name}`
        )
      }
    }
  }
}

/** Every row of a band anywhere in the tree, in document order. */
export function allRows(root: BandInstance, band: string): BandInstance[] {
  const out: BandInstance[] = []
  const walk = (node: BandInstance) => {
    for (const [name, rows] of Object.entries(node.bands)) {
      for (const row of rows) {
        if (name === band) out.push(row)
        walk(row)
      }
    }
  }
  walk(root)
  return out
}

/** The rows a top-level spec prints. */
export function topRows(root: BandInstance, spec: BandSpec): BandInstance[] {
  return spec.flat ? allRows(root, spec.name) : (root.bands[spec.name] ?? [])
}

/** Names of the nested specs from `from` (exclusive) down to `to` (inclusive), or undefined. */
export function pathDown(from: BandSpec, to: BandSpec): BandSpec[] | undefined {
  const path: BandSpec[] = []
  for (let s: BandSpec | undefined = to; s; s = s.parent) {
    if (s === from) return path.reverse()
    path.push(s)
  }
  return undefined
}
