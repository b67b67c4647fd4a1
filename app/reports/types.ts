/**
 * The reports wing's shared shapes (README.md of this folder): the stored report definition
 * (what the definition's `reports` section holds), the band data a run extracts, and the
 * renderer contract every output type implements.
 */
import type { Readable } from 'node:stream'

/** Output types (upstream `ReportOutputType` names, plus our `JSON`: the band tree). */
export const OUTPUT_TYPES = [
  'XLSX',
  'DOCX',
  'HTML',
  'PDF',
  'CSV',
  'JSON',
  'XLS',
  'DOC',
  'CUSTOM',
  'CHART',
  'TABLE',
  'PIVOT_TABLE',
] as const
export type OutputType = (typeof OUTPUT_TYPES)[number]

/** Declared so Jmix definitions import, refused by the REST run with 400 (reference 11.4). */
export const REST_REFUSED_OUTPUTS: readonly OutputType[] = ['CHART', 'TABLE', 'PIVOT_TABLE']
/** Declared so Jmix definitions import; no renderer here (400 `... is not supported`). */
export const UNRENDERED_OUTPUTS: readonly OutputType[] = ['XLS', 'DOC', 'CUSTOM']

export const PARAMETER_TYPES = [
  'TEXT',
  'NUMERIC',
  'BOOLEAN',
  'DATE',
  'DATETIME',
  'TIME',
  'ENUMERATION',
  'ENTITY',
  'ENTITY_LIST',
] as const
export type ParameterType = (typeof PARAMETER_TYPES)[number]

export interface ReportParameter {
  /** Caption. */
  name: string
  /** The key used when running (`parameters[].name` of the run body) and in datasets (`:alias`). */
  alias: string
  type: ParameterType
  required?: boolean
  hidden?: boolean
  /** Text in the type's wire format (DATE `yyyy-MM-dd`, TIME `HH:mm:ss`, ...). */
  defaultValue?: string
  /** ENUMERATION: the enum's name. */
  enumerationClass?: string
  /** ENTITY, ENTITY_LIST: the entity's name. */
  entityMetaClass?: string
  /** A filtrex expression over the parameter values (by alias) that must be true to run. */
  validation?: { expression: string; message?: string }
}

export type DatasetType = 'query' | 'entity' | 'entityList' | 'sql'

export interface Dataset {
  name?: string
  /** `query` when `entity` is given and `type` absent. */
  type: DatasetType
  /** query: the entity searched. */
  entity?: string
  /** query: a filter of the filter language; string values `:alias` / `:Band.field` bind. */
  filter?: unknown
  /** query: `attr`, `-attr`, comma-separated (as the REST `sort` option). */
  sort?: string
  /** query: most rows (the run's row cap applies as well). */
  limit?: number
  /** query/entity/entityList: a named fetch plan or an inline one. */
  fetchPlan?: string | Record<string, unknown>
  /** Property paths the band exposes (`number`, `customer.name`); without a fetch plan they make one. */
  fields?: string[]
  /** entity/entityList: the alias of the ENTITY / ENTITY_LIST parameter. */
  parameter?: string
  /** sql: one read-only statement; `${alias}` and `${Band.field}` become bindings. */
  sql?: string
  /** Rows of a later dataset join the first dataset's rows on this field (default: by index). */
  link?: string
}

export type Orientation = 'HORIZONTAL' | 'VERTICAL'

export interface BandDefinition {
  /** Unique in the report; Latin letters, digits, `_`; `Root` is the implicit top band. */
  name: string
  orientation?: Orientation
  datasets: Dataset[]
  /** Computed fields: field name -> filtrex expression over the row's fields. */
  computed?: Record<string, string>
  /** A JSONata expression mapping the band's rows (an array) to rows; run in a worker. */
  transform?: string
  children: BandDefinition[]
}

export interface ValueFormat {
  /** `Band.field` or `field` (the band-qualified one wins). */
  name: string
  /** Java-style pattern: numbers `#,##0.00`, dates `dd.MM.yyyy HH:mm`; booleans `Yes|No`. */
  format: string
}

export interface ReportTemplate {
  code: string
  outputType: OutputType
  /** The uploaded file's name; its extension picks the renderer (`.xlsx`, `.docx`, `.html`...). */
  fileName?: string
  /** Where the uploaded file is stored: `reports/<sha256>.<ext>` on the configured storage. */
  fileKey?: string
  sha256?: string
  size?: number
  /** `${Band.field}` (the first match is replaced) or a literal name; extension forced by type. */
  outputNamePattern?: string
  default?: boolean
  /** CSV: `delimiter` (default `,`), `bom` (default false). */
  options?: { delimiter?: string; bom?: boolean }
}

export interface ReportGroup {
  id: string
  title: string
  code?: string
  localeNames?: Record<string, string>
}

export interface ReportDefinition {
  id: string
  name: string
  code?: string
  group?: ReportGroup
  description?: string
  localeNames?: Record<string, string>
  restAccess: boolean
  /** Resource role codes; empty: everyone (with `reports.rest.enabled`) may see it. */
  roles: string[]
  inputParameters: ReportParameter[]
  /** The children of the implicit `Root` band. */
  bands: BandDefinition[]
  valueFormats: ValueFormat[]
  templates: ReportTemplate[]
}

/* ------------------------------------------------------------------ band data */

/** A value as the REST API writes it (ids as strings, dates as ISO text, decimals as numbers). */
export type ReportValue = string | number | boolean | null

/** One row of a band, with its child bands' rows (Jmix's `Root.bands.X[i].fields.y`). */
export interface BandInstance {
  name: string
  fields: Record<string, ReportValue>
  /** Child band rows by band name, in definition order; every child band has a key. */
  bands: Record<string, BandInstance[]>
}

/** Datatypes of fields (the definition's attribute types: `string`, `date`, `decimal`...). */
export type FieldTypes = Record<string, Record<string, string>>

/** A value ready to print: `text` with value formats applied; `native` for typed cells. */
export interface FieldValue {
  text: string
  native: string | number | boolean | Date | null
}

/** (band, field, raw value) -> printable value, honouring value formats and datatypes. */
export type ValueOf = (band: string, field: string, value: ReportValue | undefined) => FieldValue

export interface BandLayout {
  name: string
  orientation: Orientation
  /** Fields in order (the dataset `fields`, or those the rows carried, computed ones last). */
  fields: string[]
  children: BandLayout[]
}

/* ------------------------------------------------------------------ renderers */

export interface RenderJob {
  report: { id: string; name: string; code?: string }
  /** `Root`: its fields are the parameters (display text) and the Root datasets' first row. */
  root: BandInstance
  /** The band tree below Root. */
  layout: BandLayout[]
  template: ReportTemplate
  /** The uploaded template file; undefined when the template has none. */
  content?: Buffer
  value: ValueOf
  /** Output larger than this is refused (`OutputTooLarge`), never sent half-way silently. */
  maxOutputBytes: number
  signal: AbortSignal
}

/** A document: whole bytes, or a stream the HTTP layer pipes (large XLSX/CSV). */
export type RenderResult = { body: Buffer } | { stream: Readable }

export type Renderer = (job: RenderJob) => Promise<RenderResult>

/** A renderer's refusal the caller can fix (400 `Run report error`, details = message). */
export class ReportError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 403 | 413 | 500 | 503 = 400,
    readonly error = 'Run report error'
  ) {
    super(message)
  }
}
