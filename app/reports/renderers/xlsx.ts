/**
 * The XLSX renderer (README.md of this folder, section XLSX). With an uploaded workbook:
 * Jmix's named-range bands (xlsx_template.ts); without one: a plain table per first-level
 * band (xlsx_plain.ts). Large single-band templates and every template-less report are
 * written by exceljs's streaming writer and answered as a stream.
 */
import type { Renderer } from '../types.js'
import { renderPlain } from './xlsx_plain.js'
import { renderTemplate } from './xlsx_template.js'

export const renderXlsx: Renderer = async (job) => {
  if (job.content === undefined) return { stream: renderPlain(job) }
  return renderTemplate(job, job.content)
}
