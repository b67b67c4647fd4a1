/**
 * The console's band preview: one band's rows for given parameter values, from a stored or an
 * unsaved report, read as the admin through DataManager with a small row cap.
 */
import type { Database } from '@adonisjs/lucid/database'
import type { DataManager } from '#engine/data/data_manager'
import type { Problem } from '#engine/metadata/validate'
import { checkReport } from './check.js'
import { extractReport } from './extract.js'
import { runParameters } from './params.js'
import { normalizeReport } from './store.js'
import { ReportError, type BandInstance, type ReportValue } from './types.js'

const PREVIEW_ROWS = 50
const PREVIEW_MAX_ROWS = 2000

function collect(band: BandInstance, name: string, out: Record<string, ReportValue>[]) {
  for (const [child, list] of Object.entries(band.bands))
    for (const instance of list) {
      if (child === name) out.push(instance.fields)
      collect(instance, name, out)
    }
  return out
}

export async function previewBand(
  data: DataManager,
  db: Database,
  raw: unknown,
  band: unknown,
  parameters: unknown
): Promise<
  { problems: Problem[] } | { band: string; fields: string[]; rows: unknown[]; total: number }
> {
  if (!raw || typeof raw !== 'object')
    return { problems: [{ path: '$.report', message: 'must be a report' }] }
  const report = normalizeReport({ id: '00000000-0000-4000-8000-000000000000', ...(raw as object) })
  const problems: Problem[] = []
  checkReport(data.context.model, report, '$.report', problems)
  if (problems.length) return { problems }
  if (typeof band !== 'string')
    return { problems: [{ path: '$.band', message: 'must be a band name' }] }
  const params = await runParameters(data, report.inputParameters, parameters)
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new ReportError('The preview took too long', 503)),
    15_000
  )
  try {
    const extracted = await extractReport({
      data,
      db,
      report,
      params,
      maxRows: PREVIEW_MAX_ROWS,
      sqlTimeoutMs: 5000,
      transformTimeoutMs: 5000,
      signal: controller.signal,
    })
    const find = (layouts: typeof extracted.layout): string[] | undefined => {
      for (const l of layouts) {
        if (l.name === band) return l.fields
        const inner = find(l.children)
        if (inner) return inner
      }
    }
    const fields = find(extracted.layout)
    if (!fields) return { problems: [{ path: '$.band', message: `unknown band '${band}'` }] }
    const rows = collect(extracted.root, band, [])
    return { band, fields, rows: rows.slice(0, PREVIEW_ROWS), total: rows.length }
  } finally {
    clearTimeout(timer)
  }
}
