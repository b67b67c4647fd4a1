/*
 * The report definition as the admin API holds it (the server's app/reports/types.ts, the shapes
 * the console reads and writes) and the list, preview and execution answers of the admin API.
 */
export const OUTPUT_TYPES = ['XLSX', 'DOCX', 'HTML', 'PDF', 'CSV', 'JSON', 'XLS', 'DOC', 'CUSTOM', 'CHART', 'TABLE', 'PIVOT_TABLE'] as const
export type OutputType = (typeof OUTPUT_TYPES)[number]
/** Output types the console offers for new templates (the others only import from Jmix). */
export const RENDERED_OUTPUTS: OutputType[] = ['XLSX', 'DOCX', 'HTML', 'PDF', 'CSV', 'JSON']

export const PARAMETER_TYPES = ['TEXT', 'NUMERIC', 'BOOLEAN', 'DATE', 'DATETIME', 'TIME', 'ENUMERATION', 'ENTITY', 'ENTITY_LIST'] as const
export type ParameterType = (typeof PARAMETER_TYPES)[number]

export interface ReportParameter {
  name: string
  alias: string
  type: ParameterType
  required?: boolean
  hidden?: boolean
  defaultValue?: string
  enumerationClass?: string
  entityMetaClass?: string
  validation?: { expression: string; message?: string }
}

export const DATASET_TYPES = ['query', 'entity', 'entityList', 'sql'] as const
export type DatasetType = (typeof DATASET_TYPES)[number]

export interface Dataset {
  name?: string
  type: DatasetType
  entity?: string
  filter?: unknown
  sort?: string
  limit?: number
  fetchPlan?: string | Record<string, unknown>
  fields?: string[]
  parameter?: string
  sql?: string
  link?: string
}

export type Orientation = 'HORIZONTAL' | 'VERTICAL'

export interface BandDefinition {
  name: string
  orientation?: Orientation
  datasets: Dataset[]
  computed?: Record<string, string>
  transform?: string
  children: BandDefinition[]
}

export interface ValueFormat {
  name: string
  format: string
}

export interface ReportTemplate {
  code: string
  outputType: OutputType
  fileName?: string
  fileKey?: string
  sha256?: string
  size?: number
  outputNamePattern?: string
  default?: boolean
  options?: { delimiter?: string; bom?: boolean }
  /** Only sent: a new file as `base64:...` (create, or a template not stored yet). */
  file?: string
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
  roles: string[]
  inputParameters: ReportParameter[]
  bands: BandDefinition[]
  valueFormats: ValueFormat[]
  templates: ReportTemplate[]
}

/** An entry of GET /admin/api/reports. */
export interface ReportSummary {
  id: string
  name: string
  code?: string
  group?: ReportGroup | null
  description?: string
  restAccess: boolean
  roles: string[]
  templates: { code: string; outputType: OutputType; default?: boolean; fileName?: string }[]
  parameters: number
  lastRun: { startedAt: string; outcome: string } | null
}

export interface ReportList {
  reports: ReportSummary[]
  groups: ReportGroup[]
}

/** A run's parameter as the REST run body carries it. */
export interface RunParameter {
  name: string
  value?: string
  values?: string[]
}

export interface PreviewAnswer {
  band: string
  fields: string[]
  rows: Record<string, unknown>[]
  total: number
}

export interface Execution {
  id: string | number
  reportId: string
  reportName: string
  template?: string | null
  outputType?: string | null
  user?: string | null
  startedAt: string
  durationMs?: number | null
  sizeBytes?: number | null
  rows?: number | null
  parameters?: unknown
  outcome: string
  error?: string | null
}
