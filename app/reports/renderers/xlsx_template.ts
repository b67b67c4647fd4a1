/**
 * XLSX from an uploaded workbook (Jmix's convention): reads the template, plans every sheet
 * (xlsx_plan.ts), then writes the rows either into the loaded workbook (buffered) or, for one
 * large band without children, through exceljs's streaming writer.
 */
import ExcelJS from 'exceljs'
import type { RenderJob, RenderResult } from '../types.js'
import { ReportError } from '../types.js'
import type { BandSpec, SheetBands } from './xlsx_bands.js'
import { bandSpecs, topRows } from './xlsx_bands.js'
import type { BookContext, RowModel, SheetSource } from './xlsx_emit.js'
import { refMapper, sheetRows, unshareFormulas } from './xlsx_emit.js'
import { SheetPlan } from './xlsx_plan.js'
import type { Area, SheetArea } from './xlsx_refs.js'
import { formatSheetRange, parseSheetRange, rewriteFormula } from './xlsx_refs.js'
import { abortError, drain, sheetName, startStream, streamingWriter } from './xlsx_stream.js'
import { Aliases } from './xlsx_values.js'

/** A band with more rows than this (alone, without children) is written by the streaming writer. */
export const STREAM_ROWS = 2000

type SheetModel = ReturnType<typeof modelOf>
interface Sheet extends SheetSource {
  model: SheetModel
  ws: ExcelJS.Worksheet
  outName: string
}
interface DefinedName {
  name: string
  ranges: string[]
}
interface ColModel {
  min: number
  max: number
  width?: number
  [key: string]: unknown
}

function modelOf(ws: ExcelJS.Worksheet) {
  return ws.model as unknown as {
    name: string
    rows: RowModel[]
    merges: string[]
    cols?: ColModel[]
    media: unknown[]
    tables: unknown[]
    conditionalFormattings?: unknown[]
    dataValidations?: Record<string, unknown>
    headerFooter?: Record<string, string | undefined>
    [key: string]: unknown
  }
}

const EMPTY: SheetBands = { blocks: [], vertical: [], all: new Map() }

export async function renderTemplate(job: RenderJob, content: Buffer): Promise<RenderResult> {
  const wb = new ExcelJS.Workbook()
  try {
    await wb.xlsx.load(content as unknown as ArrayBuffer)
  } catch {
    throw new ReportError('Template is not a readable XLSX workbook')
  }
  const names = wb.definedNames.model as DefinedName[]
  if (names.length === 0) throw new ReportError('Template does not contain named ranges')
  const ranges = new Map<string, SheetArea>()
  for (const n of names) {
    const area = n.ranges.map(parseSheetRange).find((a) => a !== undefined)
    if (area) ranges.set(n.name, area)
  }
  const specs = bandSpecs(job.layout, ranges)
  const aliases = new Aliases(job)
  const book: BookContext = { plans: new Map(), renames: new Map(), aliases }
  const used = new Set<string>()
  const sheets: Sheet[] = wb.worksheets.map((ws) => {
    const model = modelOf(ws)
    const rows = new Map(model.rows.map((r) => [r.number, r]))
    unshareFormulas(rows)
    const last = model.rows.reduce((m, r) => Math.max(m, r.number), 0)
    const plan = new SheetPlan(specs.get(ws.name) ?? EMPTY, job.root, last)
    book.plans.set(ws.name, plan)
    const outName = sheetName(aliases.text(ws.name, []), used)
    if (outName !== ws.name) book.renames.set(ws.name, outName)
    const merges = model.merges.map((m) => parseSheetRange(`x!${m}`)).filter((a) => !!a) as Area[]
    return { name: ws.name, plan, rows, merges, model, ws, outName }
  })
  const definedNames = mapNames(names, book)
  if (streamable(job, sheets)) return { stream: streamTemplate(job, book, sheets, definedNames) }
  return { body: await bufferTemplate(job, wb, book, sheets, definedNames) }
}

/** One large band without nested children, and nothing the streaming writer would drop. */
function streamable(job: RenderJob, sheets: Sheet[]): boolean {
  const specs: BandSpec[] = sheets.flatMap((s) => [...s.plan.bands.all.values()])
  const big = specs.filter((s) => (s.parent ? 0 : topRows(job.root, s).length) > STREAM_ROWS)
  if (big.length !== 1 || big[0].children.length > 0 || big[0].orientation !== 'HORIZONTAL') {
    return false
  }
  return sheets.every(
    (s) =>
      s.model.media.length === 0 &&
      s.model.tables.length === 0 &&
      (s.model.conditionalFormattings ?? []).length === 0 &&
      Object.keys(s.model.dataValidations ?? {}).length === 0
  )
}

/** Defined names after expansion: a band's name covers its copies (dropped when it printed none). */
function mapNames(names: DefinedName[], book: BookContext): DefinedName[] {
  const out: DefinedName[] = []
  for (const n of names) {
    const mapped: string[] = []
    for (const text of n.ranges) {
      const a = parseSheetRange(text)
      const plan = a && book.plans.get(a.sheet)
      if (!a || !plan) {
        mapped.push(text)
        continue
      }
      const sheet = book.renames.get(a.sheet) ?? a.sheet
      const spec = plan.bands.all.get(n.name)
      if (spec && spec.area.top === a.top && spec.area.left === a.left) {
        const ext = plan.extent(spec)
        if (ext) mapped.push(formatSheetRange({ sheet, ...ext }))
        continue
      }
      const top = plan.mapRow(a.top, 'start')
      const bottom = plan.mapRow(a.bottom, 'end')
      const left = plan.mapCol(a.top, a.left, 'start')
      const right = plan.mapCol(a.bottom, a.right, 'end')
      if (top === null || bottom === null || left === null || right === null) continue
      if (top > bottom || left > right) continue
      mapped.push(formatSheetRange({ sheet, top, bottom, left, right }))
    }
    if (mapped.length > 0) out.push({ name: n.name, ranges: mapped })
  }
  return out
}

/**
 * exceljs keeps defined names as one entry per cell (80,000 for a 10,000 x 8 band); the
 * workbook only reads `.model` when writing, so it gets the finished list instead.
 */
function setDefinedNames(wb: ExcelJS.Workbook, names: DefinedName[]): void {
  ;(wb as unknown as { _definedNames: unknown })._definedNames = {
    get model() {
      return names.map((n) => ({ name: n.name, ranges: [...n.ranges] }))
    },
  }
}

/** Print areas and a range auto-filter follow the rows as formulas do. */
function pageSetup(s: Sheet, book: BookContext): Record<string, unknown> {
  const setup = { ...((s.model.pageSetup as Record<string, unknown> | undefined) ?? {}) }
  if (typeof setup.printArea === 'string') {
    const map = refMapper(book, s.name)
    const areas = setup.printArea
      .split('&&')
      .map((a) => rewriteFormula(a, map))
      .filter((a) => !a.includes('#REF!'))
    if (areas.length > 0) setup.printArea = areas.join('&&')
    else delete setup.printArea
  }
  return setup
}

function autoFilter(s: Sheet, book: BookContext): unknown {
  const filter = s.model.autoFilter
  if (typeof filter !== 'string') return filter
  const mapped = rewriteFormula(filter, refMapper(book, s.name))
  return mapped.includes('#REF!') ? undefined : mapped
}

function headerFooter(s: Sheet, aliases: Aliases): Record<string, string | undefined> {
  const hf = { ...(s.model.headerFooter ?? {}) }
  for (const [k, v] of Object.entries(hf)) if (typeof v === 'string') hf[k] = aliases.text(v, [])
  return hf
}

/** Column models with the widths of vertical band columns repeated for every copy. */
function columns(s: Sheet): ColModel[] | undefined {
  const cols = s.model.cols
  if (!cols || s.plan.vertical.length === 0) return cols
  const byCol = new Map<number, ColModel>()
  for (const c of cols) for (let i = c.min; i <= c.max; i++) byCol.set(i, { ...c, min: i, max: i })
  for (const p of s.plan.vertical) {
    const { left } = p.spec.area
    for (let k = 0; k < p.rows.length * p.width; k++) {
      const from = byCol.get(left + (k % p.width))
      if (from && k >= p.width) byCol.set(left + k, { ...from, min: left + k, max: left + k })
    }
  }
  return [...byCol.values()].sort((a, b) => a.min - b.min)
}

async function bufferTemplate(
  job: RenderJob,
  wb: ExcelJS.Workbook,
  book: BookContext,
  sheets: Sheet[],
  names: DefinedName[]
): Promise<Buffer> {
  for (const s of sheets) {
    const rows: RowModel[] = []
    const mergeCells: string[] = []
    let n = 0
    for (const r of sheetRows(book, s)) {
      if (r.model.cells.length > 0 || r.model.height) rows.push(r.model)
      mergeCells.push(...r.merges)
      if (++n % 2000 === 0) {
        if (job.signal.aborted) throw abortError()
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    const hf = headerFooter(s, book.aliases)
    for (const merge of s.model.merges) s.ws.unMergeCells(merge)
    s.ws.model = {
      ...s.model,
      name: s.outName,
      rows,
      mergeCells,
      cols: columns(s),
      headerFooter: hf,
      pageSetup: pageSetup(s, book),
      autoFilter: autoFilter(s, book),
    } as never
  }
  setDefinedNames(wb, names)
  wb.calcProperties.fullCalcOnLoad = true
  const body = Buffer.from(await wb.xlsx.writeBuffer())
  if (body.length > job.maxOutputBytes) {
    throw new ReportError(`Report output exceeds ${job.maxOutputBytes} bytes`, 413)
  }
  return body
}

function streamTemplate(job: RenderJob, book: BookContext, sheets: Sheet[], names: DefinedName[]) {
  return startStream(job, async (out) => {
    const writer = streamingWriter(out)
    for (const s of sheets) {
      const m = s.model
      const ws = writer.addWorksheet(s.outName, {
        properties: m.properties,
        pageSetup: pageSetup(s, book),
        autoFilter: autoFilter(s, book),
        headerFooter: headerFooter(s, book.aliases),
        views: m.views,
        state: m.state,
      } as never)
      const defs: Partial<ExcelJS.Column>[] = []
      for (const c of columns(s) ?? []) {
        for (let i = c.min; i <= c.max; i++) {
          defs[i - 1] = {
            width: c.width,
            hidden: c.hidden as boolean | undefined,
            style: c.style as never,
            outlineLevel: c.outlineLevel as number | undefined,
          }
        }
      }
      ws.columns = Array.from(defs, (d) => d ?? {})
      // the columns setter would take the first rows for headers: none are given
      const lag = s.merges.reduce((max, a) => Math.max(max, a.bottom - a.top), 0)
      const pending: ExcelJS.Row[] = []
      for (const r of sheetRows(book, s)) {
        const row = ws.getRow(r.model.number)
        ;(row as unknown as { model: RowModel }).model = r.model
        for (const merge of r.merges) ws.mergeCells(merge)
        pending.push(row)
        while (pending.length > 0 && r.model.number - pending[0].number >= lag) {
          pending.shift()!.commit()
        }
        if (r.model.number % 200 === 0) await drain(out, job.signal)
      }
      for (const row of pending) row.commit()
      ;(ws as unknown as { commit(): void }).commit()
    }
    ;(writer as unknown as { _definedNames: unknown })._definedNames = {
      model: names,
    }
    await writer.commit()
  })
}
