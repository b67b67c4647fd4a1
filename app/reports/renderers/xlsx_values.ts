/**
 * `${...}` aliases of XLSX templates (Jmix's convention): `${field}` is the field of the band
 * row being printed, `${Band.field}` the field of the current row of that band when it
 * encloses the cell, else of its first row anywhere (`Root`: the parameters). A cell that is
 * exactly one alias gets the typed value (number, date, boolean), keeping its style.
 */
import type { BandInstance, BandLayout, FieldValue, RenderJob } from '../types.js'

/** The band rows enclosing a cell, innermost first. */
export interface Scope {
  band: string
  instance: BandInstance
}

/** A cell model as exceljs reads and writes it (`ws.model.rows[].cells[]`). */
export interface CellModel {
  address: string
  type: number
  value?: unknown
  style?: Record<string, unknown>
  formula?: string
  sharedFormula?: string
  shareType?: string
  ref?: string
  result?: unknown
  master?: string
  [key: string]: unknown
}

/** exceljs `ValueType` numbers used in cell models. */
export const T = {
  Null: 0,
  Merge: 1,
  Number: 2,
  String: 3,
  Date: 4,
  Hyperlink: 5,
  Formula: 6,
  SharedString: 7,
  RichText: 8,
  Boolean: 9,
} as const

// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g
/** Excel's longest cell text. */
const MAX_TEXT = 32767

/** Text a cell can hold: no characters XML 1.0 forbids, at most 32,767 characters. */
export function cellText(text: string): string {
  const clean = text.replace(NOT_XML, '')
  return clean.length > MAX_TEXT ? clean.slice(0, MAX_TEXT) : clean
}

const ALIAS = /\$\{([^{}]+)\}/g
const EXACT = /^\s*\$\{([^{}]+)\}\s*$/

export class Aliases {
  private bandNames = new Set<string>(['Root'])
  private firstRows = new Map<string, BandInstance | null>()

  constructor(private job: RenderJob) {
    const walk = (layouts: BandLayout[]) => {
      for (const l of layouts) {
        this.bandNames.add(l.name)
        walk(l.children)
      }
    }
    walk(job.layout)
  }

  /** The first row of a band anywhere in the tree (depth first, in order). */
  first(band: string): BandInstance | null {
    if (band === 'Root') return this.job.root
    if (!this.firstRows.has(band)) {
      const find = (node: BandInstance): BandInstance | null => {
        for (const [name, rows] of Object.entries(node.bands)) {
          if (name === band && rows.length > 0) return rows[0]
          for (const row of rows) {
            const hit = find(row)
            if (hit) return hit
          }
        }
        return null
      }
      this.firstRows.set(band, find(this.job.root))
    }
    return this.firstRows.get(band) ?? null
  }

  /** The value of an alias in a scope; undefined: not an alias we know (left as written). */
  resolve(alias: string, scopes: Scope[]): FieldValue | undefined {
    const name = alias.trim()
    const own = scopes[0]
    if (own && Object.hasOwn(own.instance.fields, name)) {
      return this.job.value(own.band, name, own.instance.fields[name])
    }
    const dot = name.indexOf('.')
    const band = dot > 0 ? name.slice(0, dot) : ''
    if (band && this.bandNames.has(band)) {
      const field = name.slice(dot + 1)
      const row = scopes.find((s) => s.band === band)?.instance ?? this.first(band)
      return this.job.value(
        band,
        field,
        row && Object.hasOwn(row.fields, field) ? row.fields[field] : undefined
      )
    }
    if (own) return this.job.value(own.band, name, undefined)
    return undefined
  }

  /** Text with every known alias replaced by its display text. */
  text(source: string, scopes: Scope[]): string {
    if (!source.includes('${')) return source
    return source.replace(ALIAS, (whole, alias: string) => {
      const v = this.resolve(alias, scopes)
      return v === undefined ? whole : v.text
    })
  }

  /** Fills a string/rich-text/hyperlink cell model in place. */
  fill(cell: CellModel, scopes: Scope[]): void {
    if (cell.type === T.Hyperlink) {
      const v = cell.value as { text?: string; hyperlink?: string } | undefined
      if (v?.text?.includes('${')) cell.value = { ...v, text: cellText(this.text(v.text, scopes)) }
      return
    }
    let source: string
    if (cell.type === T.String || cell.type === T.SharedString) source = String(cell.value ?? '')
    else if (cell.type === T.RichText) {
      const runs = (cell.value as { richText?: { text: string }[] })?.richText ?? []
      source = runs.map((r) => r.text).join('')
      if (!source.includes('${')) return
    } else return
    if (!source.includes('${')) return
    const exact = EXACT.exec(source)
    const v = exact ? this.resolve(exact[1], scopes) : undefined
    if (exact && v !== undefined) {
      setNative(cell, v)
      return
    }
    cell.type = T.String
    cell.value = cellText(this.text(source, scopes))
  }
}

/** A typed cell (number, date, boolean), an empty one for null, else the display text. */
export function setNative(cell: CellModel, v: FieldValue): void {
  const n = v.native
  if (n === null || n === undefined) {
    cell.type = T.Null
    delete cell.value
  } else if (typeof n === 'number' && Number.isFinite(n)) {
    cell.type = T.Number
    cell.value = n
  } else if (typeof n === 'boolean') {
    cell.type = T.Boolean
    cell.value = n
  } else if (n instanceof Date && !Number.isNaN(n.getTime())) {
    cell.type = T.Date
    cell.value = n
    if (!cell.style?.numFmt) cell.style = { ...cell.style, numFmt: dateFormat(n) }
  } else {
    cell.type = T.String
    cell.value = cellText(v.text)
  }
}

/** A date without a time of day shows as a date, others with the time. */
export function dateFormat(d: Date): string {
  const midnight =
    d.getUTCHours() === 0 &&
    d.getUTCMinutes() === 0 &&
    d.getUTCSeconds() === 0 &&
    d.getUTCMilliseconds() === 0
  return midnight ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm:ss'
}
