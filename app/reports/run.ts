/**
 * One report run (reference 11.4): the template (by code, or the default), the parameters, the
 * band data through the caller's DataManager, the renderer, the document name; bounded by
 * `svc.reports.*` (rows, output size, time). The HTTP layer sends the result and records it in
 * the execution history (history.ts).
 */
import type { Database } from '@adonisjs/lucid/database'
import type { DataManager } from '#engine/data/data_manager'
import type { Permissions } from '#security/policy_index'
import { parseSize } from '#files/size'
import { extractReport } from './extract.js'
import { valueFormatter } from './format.js'
import { runParameters } from './params.js'
import { CONTENT_TYPES, rendererFor } from './renderers/index.js'
import { readTemplateFile, templateFiles } from './store.js'
import {
  ReportError,
  type BandInstance,
  type RenderResult,
  type ReportDefinition,
  type ReportTemplate,
} from './types.js'

export interface RunBody {
  template?: unknown
  attachment?: unknown
  parameters?: unknown
}

export interface RunLimits {
  maxRows: number
  maxOutputBytes: number
  timeoutMs: number
  sqlTimeoutMs: number
}

export interface RunResult {
  result: RenderResult
  template: ReportTemplate
  contentType: string
  fileName: string
  attachment: boolean
  rows: number
}

/** Whether the caller may see the report over REST: the flag and the role restriction. */
export function visibleOverRest(report: ReportDefinition, permissions: Permissions) {
  if (!report.restAccess) return false
  if (!report.roles.length) return true
  return report.roles.some((role) => permissions.authorities.includes(`ROLE_${role}`))
}

/** The limits from the `svc.reports.*` properties. */
export function runLimits(get: (name: string) => unknown): RunLimits {
  return {
    maxRows: Number(get('svc.reports.max-rows')) || 100000,
    maxOutputBytes: parseSize(String(get('svc.reports.max-output-size') ?? '50MB')) || 50 * 2 ** 20,
    timeoutMs: (Number(get('svc.reports.timeout-seconds')) || 60) * 1000,
    sqlTimeoutMs: (Number(get('svc.reports.sql-timeout-seconds')) || 10) * 1000,
  }
}

const EXTENSIONS: Record<string, string> = {
  XLSX: 'xlsx',
  DOCX: 'docx',
  HTML: 'html',
  PDF: 'pdf',
  CSV: 'csv',
  JSON: 'json',
}

function firstInstance(band: BandInstance, name: string): BandInstance | undefined {
  if (band.name === name) return band
  for (const list of Object.values(band.bands))
    for (const child of list) {
      const found = firstInstance(child, name)
      if (found) return found
    }
  return undefined
}

/** The document name (upstream `resolveOutputFileName`): pattern, then the forced extension. */
export function outputName(report: ReportDefinition, template: ReportTemplate, root: BandInstance) {
  let name = template.fileName ?? report.name
  const pattern = template.outputNamePattern?.trim()
  if (pattern) {
    const match = /\$\{([A-Za-z0-9_]+)\.([A-Za-z0-9_.]+)\}/.exec(pattern)
    if (match) {
      const value = firstInstance(root, match[1])?.fields[match[2]]
      if (value === undefined || value === null)
        throw new ReportError(`No data in band [${match[1]}] parameter [${match[2]}] found`)
      name = pattern.replace(match[0], String(value))
    } else name = pattern
  }
  const extension = EXTENSIONS[template.outputType]
  if (!extension) return name
  const dot = name.lastIndexOf('.')
  return `${dot > 0 ? name.slice(0, dot) : name}.${extension}`
}

function pickTemplate(report: ReportDefinition, code: unknown) {
  if (code !== undefined && code !== null) {
    const found = report.templates.find((t) => t.code === code)
    if (!found)
      throw new ReportError(
        `Template with code ${String(code)} not found for report ${report.id}`,
        400,
        'Template not found'
      )
    return found
  }
  const template = report.templates.find((t) => t.default) ?? report.templates[0]
  if (!template) throw new ReportError(`Report ${report.name} has no template`)
  return template
}

/** Runs `report` as the DataManager's subject. */
export async function runReport(options: {
  data: DataManager
  db: Database
  report: ReportDefinition
  body: RunBody
  limits: RunLimits
  locale?: string
}): Promise<RunResult> {
  const { data, report, body, limits } = options
  const template = pickTemplate(report, body.template)
  const render = rendererFor(template)
  const params = await runParameters(data, report.inputParameters, body.parameters)
  const controller = new AbortController()
  const timer = setTimeout(
    () =>
      controller.abort(
        new ReportError(`The report run took longer than ${limits.timeoutMs / 1000} s`, 503)
      ),
    limits.timeoutMs
  )
  try {
    const extracted = await extractReport({
      data,
      db: options.db,
      report,
      params,
      maxRows: limits.maxRows,
      sqlTimeoutMs: limits.sqlTimeoutMs,
      transformTimeoutMs: Math.min(limits.timeoutMs, 10_000),
      signal: controller.signal,
    })
    const stored = (await templateFiles(options.db.connection(), report.id)).get(template.code)
    const content = stored?.fileKey ? await readTemplateFile(stored.fileKey) : undefined
    if (stored?.fileKey && !content)
      throw new ReportError(
        `The file of template ${template.code} is missing from the storage`,
        500
      )
    const result = await render({
      report: { id: report.id, name: report.name, code: report.code },
      root: extracted.root,
      layout: extracted.layout,
      template,
      content: content ?? undefined,
      value: valueFormatter(report.valueFormats, extracted.types, options.locale),
      maxOutputBytes: limits.maxOutputBytes,
      signal: controller.signal,
    })
    return {
      result,
      template,
      contentType: CONTENT_TYPES[template.outputType] ?? 'application/octet-stream',
      fileName: outputName(report, template, extracted.root),
      attachment: body.attachment === true,
      rows: extracted.rows,
    }
  } finally {
    clearTimeout(timer)
  }
}
