/**
 * Shared by the XLSX renderer specs (reports_xlsx*.spec.ts): a simple ValueOf, band data and
 * layout builders, a render job, and reading a result (body or stream) back with exceljs.
 */
import ExcelJS from 'exceljs'
import type { BandInstance, BandLayout, RenderJob, RenderResult } from '../../app/reports/types.js'

/** A simple ValueOf: numbers and booleans stay typed, ISO dates become Dates. */
export function valueOf(_band: string, _field: string, raw: unknown) {
  if (raw === null || raw === undefined) return { text: '', native: null }
  if (typeof raw === 'number' || typeof raw === 'boolean') return { text: String(raw), native: raw }
  if (typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}/.test(raw)) {
    return { text: raw, native: new Date(raw.length === 10 ? `${raw}T00:00:00Z` : raw) }
  }
  return { text: String(raw), native: String(raw) }
}

export function band(
  name: string,
  fields: BandInstance['fields'],
  bands: BandInstance['bands'] = {}
) {
  return { name, fields, bands }
}

export function layout(
  name: string,
  fields: string[],
  children: BandLayout[] = [],
  vertical = false
) {
  return { name, fields, children, orientation: vertical ? 'VERTICAL' : 'HORIZONTAL' } as BandLayout
}

export function job(
  root: BandInstance,
  bands: BandLayout[],
  content?: Buffer,
  max = 50e6
): RenderJob {
  return {
    report: { id: 'r1', name: 'Orders' },
    root,
    layout: bands,
    template: { code: 'DEFAULT', outputType: 'XLSX' },
    content,
    value: valueOf,
    maxOutputBytes: max,
    signal: new AbortController().signal,
  }
}

export async function readBack(result: RenderResult): Promise<ExcelJS.Workbook> {
  let body: Buffer
  if ('body' in result) body = result.body
  else {
    const chunks: Buffer[] = []
    for await (const chunk of result.stream) chunks.push(chunk as Buffer)
    body = Buffer.concat(chunks)
  }
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(body as unknown as ArrayBuffer)
  return wb
}
