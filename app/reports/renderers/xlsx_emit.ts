/**
 * Output rows of one sheet from its plan: each entry copies a template row (height, style,
 * cells with their styles), fills aliases with the band row it prints, moves formulas and
 * merged regions, and repeats vertical band ranges to the right. Rows come out in order, so
 * the same generator feeds the in-memory workbook and the streaming writer.
 */
import type { BandInstance } from '../types.js'
import type { BandSpec } from './xlsx_bands.js'
import type { Rec, SheetPlan, Role } from './xlsx_plan.js'
import type { Area, CellRef, FormulaRef, Point, RefMapper } from './xlsx_refs.js'
import { address, decodeAddress, rewriteFormula } from './xlsx_refs.js'
import type { Aliases, CellModel, Scope } from './xlsx_values.js'
import { T } from './xlsx_values.js'

export interface RowModel {
  number: number
  cells: CellModel[]
  height?: number
  hidden?: boolean
  outlineLevel?: number
  style?: Record<string, unknown>
  [key: string]: unknown
}

export interface OutRow {
  model: RowModel
  /** Merged regions whose top-left cell is on this row (`A5:C6`). */
  merges: string[]
}

type V = { spec: BandSpec; index: number }

/** What the emitter needs of the whole workbook: every sheet's plan and the new sheet names. */
export interface BookContext {
  plans: Map<string, SheetPlan>
  renames: Map<string, string>
  aliases: Aliases
}

export interface SheetSource {
  name: string
  plan: SheetPlan
  rows: Map<number, RowModel>
  merges: Area[]
}

/** A mapper for formulas written on `sheet`, inside band row `rec` / vertical copy `v`. */
export function refMapper(book: BookContext, sheet: string, rec?: Rec, v?: V): RefMapper {
  return (ref: FormulaRef) => {
    const target = ref.sheet ?? sheet
    const plan = book.plans.get(target)
    const same = target === sheet
    const outSheet =
      ref.sheet !== undefined ? (book.renames.get(ref.sheet) ?? ref.sheet) : undefined
    if (!plan) return { sheet: outSheet, start: ref.start, end: ref.end }
    const one = (c: CellRef, role: Role): Point | null => {
      const row = plan.mapRow(c.row, role, same ? rec : undefined)
      const col = plan.mapCol(c.row, c.col, role, same ? v : undefined)
      return row === null || col === null ? null : { row, col }
    }
    if (!ref.end) {
      const p = one(ref.start, 'cell')
      return p ? { sheet: outSheet, start: p } : null
    }
    const s = one(ref.start, 'start')
    const e = one(ref.end, 'end')
    if (!s || !e || s.row > e.row || s.col > e.col) return null
    return { sheet: outSheet, start: s, end: e }
  }
}

function scopesOf(rec?: Rec): Scope[] {
  const out: Scope[] = []
  for (let r = rec; r; r = r.parent) out.push({ band: r.spec.name, instance: r.instance })
  return out
}

export function* sheetRows(book: BookContext, src: SheetSource): Generator<OutRow> {
  const { plan } = src
  const mergesByTop = new Map<number, Area[]>()
  for (const m of src.merges) {
    const list = mergesByTop.get(m.top)
    if (list) list.push(m)
    else mergesByTop.set(m.top, [m])
  }
  for (const entry of plan.entries) {
    const tplRow = src.rows.get(entry.tpl)
    const merges: string[] = []
    const rec = entry.rec
    const vplan = rec
      ? undefined
      : plan.vertical.find((p) => entry.tpl >= p.spec.area.top && entry.tpl <= p.spec.area.bottom)
    const bandScopes = scopesOf(rec)
    const inBand = (col: number) =>
      !rec || (col >= rec.spec.area.left && col <= rec.spec.area.right)
    /** Copies (output column, scopes, vertical copy) of a template column on this row. */
    const copies = (col: number): [number, Scope[], V | undefined][] => {
      if (!inBand(col)) return entry.first ? [[col, [], undefined]] : []
      if (vplan && col >= vplan.spec.area.left && col <= vplan.spec.area.right) {
        const offset = col - vplan.spec.area.left
        return vplan.rows.map((instance: BandInstance, index) => [
          vplan.spec.area.left + index * vplan.width + offset,
          [{ band: vplan.spec.name, instance }],
          { spec: vplan.spec, index },
        ])
      }
      const out = plan.mapCol(entry.tpl, col, 'cell') ?? col
      return [[out, bandScopes, undefined]]
    }
    const cells: CellModel[] = []
    for (const cell of tplRow?.cells ?? []) {
      const { col } = decodeAddress(cell.address)
      for (const [outCol, scopes, v] of copies(col)) {
        cells.push(
          fillCell(
            book,
            src.name,
            cell,
            entry.out,
            outCol,
            scopes,
            scopes.length ? rec : undefined,
            v
          )
        )
      }
    }
    for (const m of mergesByTop.get(entry.tpl) ?? []) {
      for (const [, , v] of copies(m.left)) {
        const mapRec = inBand(m.left) ? rec : undefined
        const left = plan.mapCol(m.top, m.left, 'cell', v)
        const right = plan.mapCol(m.bottom, m.right, 'cell', v)
        const bottom = plan.mapRow(m.bottom, 'cell', mapRec)
        if (left === null || right === null || bottom === null || bottom < entry.out) continue
        merges.push(`${address(entry.out, left)}:${address(bottom, right)}`)
      }
    }
    const model: RowModel = { number: entry.out, cells }
    if (tplRow) {
      if (tplRow.height) model.height = tplRow.height
      model.hidden = tplRow.hidden
      model.outlineLevel = tplRow.outlineLevel
      model.style = tplRow.style
    }
    yield { model, merges }
  }
}

function fillCell(
  book: BookContext,
  sheet: string,
  cell: CellModel,
  row: number,
  col: number,
  scopes: Scope[],
  rec: Rec | undefined,
  v: V | undefined
): CellModel {
  const m: CellModel = { ...cell, address: address(row, col) }
  if (m.type === T.Merge) {
    m.type = T.Null
    delete m.master
    delete m.value
  } else if (m.type === T.Formula && typeof m.formula === 'string') {
    const map = refMapper(book, sheet, rec, v)
    m.formula = rewriteFormula(m.formula, map)
    delete m.result
    if (m.shareType === 'array' && typeof m.ref === 'string') m.ref = rewriteFormula(m.ref, map)
    else {
      delete m.shareType
      delete m.ref
    }
  } else book.aliases.fill(m, scopes)
  return m
}

/** Turns shared formulas into plain ones (each dependent cell gets its own moved text). */
export function unshareFormulas(rows: Map<number, RowModel>): void {
  const masters = new Map<string, { formula: string; row: number; col: number }>()
  for (const r of rows.values()) {
    for (const c of r.cells) {
      if (c.type === T.Formula && c.formula && c.shareType === 'shared') {
        masters.set(c.address, { formula: c.formula, ...decodeAddress(c.address) })
        delete c.shareType
        delete c.ref
      }
    }
  }
  for (const r of rows.values()) {
    for (const c of r.cells) {
      if (c.type !== T.Formula || c.formula || !c.sharedFormula) continue
      const master = masters.get(c.sharedFormula)
      delete c.sharedFormula
      if (!master) continue
      const at = decodeAddress(c.address)
      const dr = at.row - master.row
      const dc = at.col - master.col
      c.formula = rewriteFormula(master.formula, (ref) => {
        const move = (p: CellRef): Point => ({
          row: p.rowAbs ? p.row : p.row + dr,
          col: p.colAbs ? p.col : p.col + dc,
        })
        return { sheet: ref.sheet, start: move(ref.start), end: ref.end && move(ref.end) }
      })
    }
  }
}
