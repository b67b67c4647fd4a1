/**
 * A1 references for the XLSX renderer: column letters, defined-name ranges, and a formula
 * rewriter that finds the cell and range references of a formula (outside string literals)
 * and lets the caller map them, so band expansion can move and widen them.
 */

export interface Area {
  top: number
  left: number
  bottom: number
  right: number
}

export interface SheetArea extends Area {
  sheet: string
}

export function colNumber(letters: string): number {
  let n = 0
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64)
  return n
}

export function colLetters(n: number): string {
  let s = ''
  while (n > 0) {
    const m = (n - 1) % 26
    s = String.fromCharCode(65 + m) + s
    n = Math.floor((n - 1) / 26)
  }
  return s
}

export function address(row: number, col: number): string {
  return `${colLetters(col)}${row}`
}

export function decodeAddress(a: string): { row: number; col: number } {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(a)
  if (!m) throw new Error(`Bad cell address ${a}`)
  return { col: colNumber(m[1]), row: Number(m[2]) }
}

/** `Sheet 1` -> `'Sheet 1'`; plain names stay bare. */
export function quoteSheet(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name)
    ? name
    : `'${name.replace(/'/g, "''")}'`
}

/** `'Orders'!$A$4:$H$4` -> area (undefined for anything that is not one rectangular range). */
export function parseSheetRange(text: string): SheetArea | undefined {
  const m =
    /^(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/i.exec(
      text.trim()
    )
  if (!m) return undefined
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]
  const left = colNumber(m[3])
  const top = Number(m[4])
  const right = m[5] ? colNumber(m[5]) : left
  const bottom = m[6] ? Number(m[6]) : top
  return {
    sheet,
    top: Math.min(top, bottom),
    bottom: Math.max(top, bottom),
    left: Math.min(left, right),
    right: Math.max(left, right),
  }
}

export function formatSheetRange(a: SheetArea): string {
  const start = `$${colLetters(a.left)}$${a.top}`
  const end = `$${colLetters(a.right)}$${a.bottom}`
  return `${quoteSheet(a.sheet)}!${start === end ? start : `${start}:${end}`}`
}

export interface CellRef {
  row: number
  col: number
  rowAbs: boolean
  colAbs: boolean
}

/** One reference found in a formula: a cell, or a range when `end` is set. */
export interface FormulaRef {
  /** The sheet named in the reference (unquoted); undefined: the formula's own sheet. */
  sheet?: string
  start: CellRef
  end?: CellRef
}

export type Point = { row: number; col: number }

/** What a reference becomes: new corners (and sheet name), or null for `#REF!`. */
export type RefMapper = (ref: FormulaRef) => { sheet?: string; start: Point; end?: Point } | null

const SHEET = String.raw`(?:'((?:[^']|'')+)'|([A-Za-z_][A-Za-z0-9_.]*))!`
const CELL = String.raw`(\$?)([A-Za-z]{1,3})(\$?)(\d+)`
const REF = new RegExp(`(?:${SHEET})?${CELL}(?::${CELL})?`, 'y')

function cellRef(colAbs: string, col: string, rowAbs: string, row: string): CellRef {
  return { col: colNumber(col), row: Number(row), colAbs: colAbs === '$', rowAbs: rowAbs === '$' }
}

function formatCell(p: Point, like: CellRef): string {
  return `${like.colAbs ? '$' : ''}${colLetters(p.col)}${like.rowAbs ? '$' : ''}${p.row}`
}

/**
 * Rewrites every A1 reference of a formula through `map`. String literals, function names
 * (`LOG10(`), defined names and whole-row/column references (`A:A`, `4:4`) are left alone.
 */
export function rewriteFormula(formula: string, map: RefMapper): string {
  let out = ''
  let i = 0
  while (i < formula.length) {
    const ch = formula[i]
    if (ch === '"') {
      const close = formula.indexOf('"', i + 1)
      let j = close < 0 ? formula.length : close + 1
      while (formula[j] === '"') {
        const next = formula.indexOf('"', j + 1)
        j = next < 0 ? formula.length : next + 1
      }
      out += formula.slice(i, j)
      i = j
      continue
    }
    const prev = i > 0 ? formula[i - 1] : ''
    if (!/[A-Za-z0-9_.$'\]]/.test(prev)) {
      REF.lastIndex = i
      const m = REF.exec(formula)
      const after = m ? (formula[i + m[0].length] ?? '') : ''
      if (m && !/[A-Za-z0-9_(!.:]/.test(after)) {
        const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]
        const start = cellRef(m[3], m[4], m[5], m[6])
        const end = m[8] ? cellRef(m[7], m[8], m[9], m[10]) : undefined
        const mapped = map({ sheet, start, end })
        if (!mapped) out += '#REF!'
        else {
          const prefix = mapped.sheet !== undefined ? `${quoteSheet(mapped.sheet)}!` : ''
          const a = formatCell(mapped.start, start)
          out += prefix + (end && mapped.end ? `${a}:${formatCell(mapped.end, end)}` : a)
        }
        i += m[0].length
        continue
      }
    }
    out += ch
    i++
  }
  return out
}
