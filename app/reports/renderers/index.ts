/**
 * The renderer registry: a template's output type and, where it matters, its file's extension
 * pick the renderer (README.md of this folder, "Output types and templates"). A combination that
 * cannot work is refused here, before any data is read, with 400 and a message saying why.
 */
import { extname } from 'node:path'
import {
  REST_REFUSED_OUTPUTS,
  ReportError,
  UNRENDERED_OUTPUTS,
  type OutputType,
  type Renderer,
  type ReportTemplate,
} from '../types.js'

/**
 * A renderer whose module (and its libraries: exceljs, docxtemplater, Playwright...) is imported
 * on its first run, not when the registry is: listing and checking reports no longer pays a
 * second of imports (the first GET /admin/api/reports of a server took 915 ms, now 146 ms).
 */
export type NamedRenderer = Renderer & { readonly rendererName: string }

function lazy(load: () => Promise<Record<string, unknown>>, name: string): NamedRenderer {
  let renderer: Promise<Renderer> | undefined
  const run: Renderer = async (job) =>
    (await (renderer ??= load().then((module) => module[name] as Renderer)))(job)
  return Object.assign(run, { rendererName: name })
}

const renderCsv = lazy(() => import('./csv.js'), 'renderCsv')
const renderDocx = lazy(() => import('./docx.js'), 'renderDocx')
const renderHtml = lazy(() => import('./html.js'), 'renderHtml')
const renderJson = lazy(() => import('./json.js'), 'renderJson')
const renderPdf = lazy(() => import('./pdf.js'), 'renderPdf')
const renderDocxPdf = lazy(() => import('./pdf.js'), 'renderDocxPdf')
const renderXlsxPdf = lazy(() => import('./pdf.js'), 'renderXlsxPdf')
const renderXlsx = lazy(() => import('./xlsx.js'), 'renderXlsx')

/** Content types per output type (reference 11.4, upstream `ReportPrintHelper.getMimeType`). */
export const CONTENT_TYPES: Readonly<Record<OutputType, string>> = {
  XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  DOCX: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  PDF: 'application/pdf',
  HTML: 'text/html',
  CSV: 'application/csv',
  JSON: 'application/json',
  XLS: 'application/octet-stream',
  DOC: 'application/octet-stream',
  CUSTOM: 'application/octet-stream',
  CHART: 'application/octet-stream',
  TABLE: 'application/octet-stream',
  PIVOT_TABLE: 'application/octet-stream',
}

/** The extension an output name is forced to (upstream: the output type's id). */
export const FILE_EXTENSIONS: Readonly<Record<OutputType, string>> = {
  XLSX: 'xlsx',
  DOCX: 'docx',
  PDF: 'pdf',
  HTML: 'html',
  CSV: 'csv',
  JSON: 'json',
  XLS: 'xls',
  DOC: 'doc',
  CUSTOM: 'custom',
  CHART: 'chart',
  TABLE: 'table',
  PIVOT_TABLE: 'pivot',
}

type Kind = 'none' | 'xlsx' | 'docx' | 'html' | 'csv' | 'other'

/** The template file's kind by extension (`none` without a file). */
export function templateKind(template: ReportTemplate): Kind {
  if (!template.fileName && !template.fileKey) return 'none'
  const ext = extname(template.fileName || template.fileKey || '').toLowerCase()
  if (ext === '.xlsx' || ext === '.xlsm') return 'xlsx'
  if (ext === '.docx') return 'docx'
  if (ext === '.html' || ext === '.htm' || ext === '.hbs' || ext === '.handlebars') return 'html'
  if (ext === '.csv' || ext === '.txt') return 'csv'
  return 'other'
}

const TABLE: Record<string, Partial<Record<Kind, NamedRenderer>>> = {
  XLSX: { none: renderXlsx, xlsx: renderXlsx },
  DOCX: { docx: renderDocx },
  HTML: { none: renderHtml, html: renderHtml },
  PDF: { none: renderPdf, html: renderPdf, docx: renderDocxPdf, xlsx: renderXlsxPdf },
  CSV: { none: renderCsv, csv: renderCsv },
  JSON: {
    none: renderJson,
    xlsx: renderJson,
    docx: renderJson,
    html: renderJson,
    csv: renderJson,
    other: renderJson,
  },
}

/** The renderer for a template, or a 400 `ReportError` saying why there is none. */
export function rendererFor(template: ReportTemplate): NamedRenderer {
  const type = template.outputType
  if (REST_REFUSED_OUTPUTS.includes(type)) {
    throw new ReportError(`${type} report output type is not supported by Reporting REST API`)
  }
  if (UNRENDERED_OUTPUTS.includes(type)) {
    throw new ReportError(`${type} report output type is not supported by Modelgate`)
  }
  const byKind = Object.hasOwn(TABLE, type) ? TABLE[type] : undefined
  if (!byKind) throw new ReportError(`Unknown report output type ${type}`)
  const kind = templateKind(template)
  const renderer = Object.hasOwn(byKind, kind) ? byKind[kind] : undefined
  if (renderer) return renderer
  if (kind === 'none') {
    throw new ReportError(`${type} output needs a template file (.${FILE_EXTENSIONS[type]})`)
  }
  const file = template.fileName || template.fileKey
  const accepted = Object.keys(byKind)
    .filter((k) => k !== 'none' && k !== 'other')
    .map((k) => (k === 'html' ? '.html/.htm/.hbs' : `.${k}`))
  throw new ReportError(
    `${type} output cannot be produced from the template file ${file}: use ${accepted.join(' or ')}` +
      (byKind.none ? ' or no template file' : '')
  )
}

/** `rendererFor` as a check: the message of the refusal, or null when the template can render. */
export function templateProblem(template: ReportTemplate): string | null {
  try {
    rendererFor(template)
    return null
  } catch (error) {
    return (error as Error).message
  }
}
