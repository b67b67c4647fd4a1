/**
 * XLSX without a template: one sheet per first-level band (named after it), a bold header
 * row of the band's fields (frozen), one row per band row with typed values. Child band rows
 * follow their parent row, indented one column per level under a bold italic header of the
 * child's fields, and grouped (outline level = depth) so Excel can fold them. Written with
 * the streaming writer, so memory stays flat whatever the row count.
 */
import type ExcelJS from 'exceljs'
import type { BandInstance, BandLayout, RenderJob } from '../types.js'
import type { LimitedOutput } from './xlsx_stream.js'
import { drain, sheetName, startStream, streamingWriter } from './xlsx_stream.js'
import { cellText, dateFormat } from './xlsx_values.js'

const HEADER_FILL = {
  type: 'pattern',
  pattern: 'solid',
  fgColor: { argb: 'FFE7E6E6' },
} as const

export function renderPlain(job: RenderJob): LimitedOutput {
  return startStream(job, async (out) => {
    const writer = streamingWriter(out)
    const used = new Set<string>()
    if (job.layout.length === 0) {
      const ws = writer.addWorksheet(sheetName('Parameters', used))
      const sheet = new PlainSheet(job, ws, out)
      await sheet.header(['Parameter', 'Value'], 0, 0)
      for (const [name, raw] of Object.entries(job.root.fields)) {
        const v = job.value('Root', name, raw)
        await sheet.row([{ value: cellText(name) }, typed(v.native, v.text)], 0, 0)
      }
      ws.commit()
    }
    for (const band of job.layout) {
      const ws = writer.addWorksheet(sheetName(band.name, used), {
        views: [{ state: 'frozen', ySplit: 1 }],
      })
      ws.columns = widths(band).map((width) => ({ width }))
      const sheet = new PlainSheet(job, ws, out)
      await sheet.header(band.fields, 0, 0)
      for (const row of job.root.bands[band.name] ?? []) await sheet.band(band, row, 0)
      ws.commit()
    }
    await writer.commit()
  })
}

type Cell = { value: ExcelJS.CellValue; numFmt?: string }

function typed(native: unknown, text: string): Cell {
  if (typeof native === 'number' && Number.isFinite(native)) return { value: native }
  if (typeof native === 'boolean') return { value: native }
  if (native instanceof Date && !Number.isNaN(native.getTime())) {
    return { value: native, numFmt: dateFormat(native) }
  }
  if (native === null || native === undefined) return { value: null }
  return { value: cellText(text) }
}

/** Column widths from the header texts of the band and its descendants (indented). */
function widths(band: BandLayout): number[] {
  const w: number[] = []
  const walk = (b: BandLayout, depth: number) => {
    b.fields.forEach((f, i) => {
      const col = depth + i
      w[col] = Math.max(w[col] ?? 10, Math.min(40, f.length + 4))
    })
    for (const c of b.children) walk(c, depth + 1)
  }
  walk(band, 0)
  return Array.from(w, (x) => x ?? 10)
}

class PlainSheet {
  private next = 1

  constructor(
    private job: RenderJob,
    private ws: ExcelJS.Worksheet,
    private out: LimitedOutput
  ) {}

  async band(layout: BandLayout, row: BandInstance, depth: number): Promise<void> {
    const cells = layout.fields.map((f) => {
      const v = this.job.value(layout.name, f, row.fields[f])
      return typed(v.native, v.text)
    })
    await this.row(cells, depth, depth)
    for (const child of layout.children) {
      const rows = row.bands[child.name] ?? []
      if (rows.length === 0) continue
      await this.header(child.fields, depth + 1, depth + 1, child.name)
      for (const r of rows) await this.band(child, r, depth + 1)
    }
  }

  async header(fields: string[], indent: number, level: number, band?: string): Promise<void> {
    const row = this.ws.getRow(this.next++)
    fields.forEach((f, i) => {
      const cell = row.getCell(indent + i + 1)
      cell.value = f
      cell.font = { bold: true, italic: band !== undefined }
      cell.fill = HEADER_FILL
    })
    if (band !== undefined && indent > 0) {
      row.getCell(indent).value = band
      row.getCell(indent).font = { italic: true, color: { argb: 'FF7F7F7F' } }
    }
    row.outlineLevel = level
    row.commit()
  }

  async row(cells: Cell[], indent: number, level: number): Promise<void> {
    const row = this.ws.getRow(this.next)
    cells.forEach((c, i) => {
      if (c.value === null) return
      const cell = row.getCell(indent + i + 1)
      cell.value = c.value
      if (c.numFmt) cell.numFmt = c.numFmt
    })
    row.outlineLevel = level
    row.commit()
    if (this.next++ % 200 === 0) await drain(this.out, this.job.signal)
  }
}
