/**
 * The XLSX renderer (README.md of this folder, section XLSX). With an uploaded workbook:
 * Jmix's named-range bands (xlsx_template.ts); without one: a plain table per first-level
 * band (xlsx_plain.ts). Large single-band templates and every template-less report are
 * written by exceljs's streaming writer and answered as a stream.
 */
import type { BandInstance, RenderJob, Renderer } from '../types.js'
import { renderPlain } from './xlsx_plain.js'
import { renderTemplate } from './xlsx_template.js'

/**
 * A first-level band without rows keeps one empty row in a template (upstream's
 * `put-empty-row-if-no-data-selected`, limited to the top level): totals below it read 0
 * instead of `#REF!`, and the layout around it stays as designed.
 */
function withEmptyRows(job: RenderJob): RenderJob {
  const bands: BandInstance['bands'] = { ...job.root.bands }
  for (const band of job.layout)
    if (!bands[band.name]?.length) bands[band.name] = [{ name: band.name, fields: {}, bands: {} }]
  return { ...job, root: { ...job.root, bands } }
}

export const renderXlsx: Renderer = async (job) => {
  if (job.content === undefined) return { stream: renderPlain(job) }
  return renderTemplate(withEmptyRows(job), job.content)
}
