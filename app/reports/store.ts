/**
 * Reports in the database: `mg_report_groups`, `mg_reports` (the definition as JSON text) and
 * `mg_report_templates` (metadata; the bytes on the file storage under `reports/<sha256>.<ext>`).
 * `normalizeReport` gives the one canonical form that is stored, exported and compared.
 */
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { fileStorage } from '../files/storages.js'
import type {
  BandDefinition,
  Dataset,
  ReportDefinition,
  ReportGroup,
  ReportTemplate,
} from './types.js'

/** The keys of each element of a report, in their canonical order (normalize, shape checks). */
export const KEYS = {
  group: ['id', 'title', 'code', 'localeNames'],
  parameter: [
    'name',
    'alias',
    'type',
    'required',
    'hidden',
    'defaultValue',
    'enumerationClass',
    'entityMetaClass',
    'validation',
  ],
  dataset: [
    'name',
    'type',
    'entity',
    'filter',
    'sort',
    'limit',
    'fetchPlan',
    'fields',
    'parameter',
    'sql',
    'link',
  ],
  format: ['name', 'format'],
  /** Stored and exported; `file` (bytes in a document) is read by definition.ts. */
  template: [
    'code',
    'outputType',
    'fileName',
    'sha256',
    'size',
    'outputNamePattern',
    'default',
    'options',
  ],
} as const
const DATASET_KEYS = KEYS.dataset

/** Keys of a band that stand for its one dataset (the definition's shorthand). */
export const SHORTHAND_KEYS = [...DATASET_KEYS.filter((k) => k !== 'name'), 'multi'] as const

/** Copies the defined keys of `source` listed in `keys`, in that order. */
function pick<T>(source: any, keys: readonly string[]): T {
  const out: Record<string, unknown> = {}
  for (const key of keys) if (source?.[key] !== undefined) out[key] = source[key]
  return out as T
}

function normalizeDataset(raw: any): Dataset {
  const type = raw.type ?? (raw.sql !== undefined ? 'sql' : 'query')
  return pick<Dataset>({ ...raw, type }, DATASET_KEYS)
}

function normalizeBand(raw: any): BandDefinition {
  const hasShorthand = SHORTHAND_KEYS.some((k) => raw[k] !== undefined)
  const datasets = raw.datasets ?? (hasShorthand ? [pick(raw, SHORTHAND_KEYS)] : [])
  const band: BandDefinition = {
    name: raw.name,
    ...(raw.orientation && raw.orientation !== 'HORIZONTAL'
      ? { orientation: raw.orientation }
      : {}),
    datasets: datasets.map(normalizeDataset),
    ...(raw.computed && Object.keys(raw.computed).length ? { computed: raw.computed } : {}),
    ...(raw.transform ? { transform: raw.transform } : {}),
    children: (raw.children ?? []).map(normalizeBand),
  }
  return band
}

function normalizeTemplate(raw: any): ReportTemplate {
  return pick<ReportTemplate>(
    { ...raw, default: raw.default === true ? true : undefined },
    KEYS.template
  )
}

/** The canonical form: fixed key order, defaults left out, band shorthand expanded. */
export function normalizeReport(raw: any): ReportDefinition {
  return {
    id: String(raw.id).toLowerCase(),
    name: raw.name,
    ...(raw.code !== undefined ? { code: raw.code } : {}),
    ...(raw.group ? { group: pick<ReportGroup>(raw.group, KEYS.group) } : {}),
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    ...(raw.localeNames !== undefined ? { localeNames: raw.localeNames } : {}),
    restAccess: raw.restAccess === true,
    roles: [...(raw.roles ?? [])],
    inputParameters: (raw.inputParameters ?? []).map((p: any) => pick(p, KEYS.parameter)),
    bands: (raw.bands ?? []).map(normalizeBand),
    valueFormats: (raw.valueFormats ?? []).map((f: any) => pick(f, KEYS.format)),
    templates: (raw.templates ?? []).map(normalizeTemplate),
  } as ReportDefinition
}

/* ------------------------------------------------------------------ reading */

interface TemplateRow {
  report_id: string
  code: string
  output_type: string
  file_name: string | null
  file_key: string | null
  sha256: string | null
  size: number | string | null
  output_name_pattern: string | null
  is_default: boolean | number
  options: string | null
}

function templateOf(row: TemplateRow): ReportTemplate {
  return normalizeTemplate({
    code: row.code,
    outputType: row.output_type,
    fileName: row.file_name ?? undefined,
    fileKey: row.file_key ?? undefined,
    sha256: row.sha256 ?? undefined,
    size: row.size === null ? undefined : Number(row.size),
    outputNamePattern: row.output_name_pattern ?? undefined,
    default: Boolean(row.is_default),
    options: row.options ? JSON.parse(row.options) : undefined,
  })
}

/** Stored reports (canonical form, templates without bytes), by name. */
export async function loadReports(client: QueryClientContract, id?: string) {
  const query = client.from('mg_reports').orderBy('name').select('*')
  if (id !== undefined) query.where('id', id.toLowerCase())
  const rows = await query
  if (!rows.length) return []
  const groups = new Map<string, ReportGroup>(
    (await client.from('mg_report_groups').select('*')).map((g: any) => [
      g.id,
      pick<ReportGroup>(
        {
          ...g,
          code: g.code ?? undefined,
          localeNames: g.locale_names ? JSON.parse(g.locale_names) : undefined,
        },
        ['id', 'title', 'code', 'localeNames']
      ),
    ])
  )
  const templateQuery = client.from('mg_report_templates').orderBy('report_id').orderBy('position')
  if (id !== undefined) templateQuery.where('report_id', id.toLowerCase())
  const templates = new Map<string, TemplateRow[]>()
  for (const t of (await templateQuery.select('*')) as TemplateRow[])
    templates.set(t.report_id, [...(templates.get(t.report_id) ?? []), t])
  return rows.map((row: any) =>
    normalizeReport({
      ...JSON.parse(row.definition),
      id: row.id,
      name: row.name,
      code: row.code ?? undefined,
      group: row.group_id ? groups.get(row.group_id) : undefined,
      restAccess: Boolean(row.rest_access),
      templates: (templates.get(row.id) ?? []).map(templateOf),
    })
  )
}

export async function findReport(client: QueryClientContract, id: string) {
  return (await loadReports(client, id))[0] ?? null
}

/** The template rows of a report with their storage keys (for running). */
export async function templateFiles(client: QueryClientContract, reportId: string) {
  const rows = (await client
    .from('mg_report_templates')
    .where('report_id', reportId)
    .select('*')) as TemplateRow[]
  return new Map(rows.map((r) => [r.code, { ...templateOf(r), fileKey: r.file_key ?? undefined }]))
}

export async function loadGroups(client: QueryClientContract): Promise<ReportGroup[]> {
  const rows = await client.from('mg_report_groups').orderBy('title').select('*')
  return rows.map((g: any) =>
    pick<ReportGroup>(
      {
        ...g,
        code: g.code ?? undefined,
        localeNames: g.locale_names ? JSON.parse(g.locale_names) : undefined,
      },
      ['id', 'title', 'code', 'localeNames']
    )
  )
}

/* ------------------------------------------------------------------ template files */

export const reportStorage = (name: string) => {
  const storage = fileStorage(name)
  if (!storage) throw new Error(`file storage '${name}' is not configured`)
  return storage
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

const extensionOf = (fileName: string | undefined) =>
  /\.([A-Za-z0-9]{1,10})$/.exec(fileName ?? '')?.[1]?.toLowerCase() ?? 'bin'

/** The storage key of a template file: content-addressed, so writing it twice is harmless. */
export const templateKey = (hash: string, fileName?: string) =>
  `reports/${hash}.${extensionOf(fileName)}`

/** The bytes of a stored template file (`<storage>:<key>`); null when the storage lost them. */
export async function readTemplateFile(fileKey: string) {
  const at = fileKey.indexOf(':')
  const file = await reportStorage(fileKey.slice(0, at)).find(fileKey.slice(at + 1))
  return file ? buffer(await file.open()) : null
}

/** Writes a template file; an existing key already holds these bytes (content-addressed). */
export async function writeTemplateFile(storageName: string, key: string, bytes: Buffer) {
  const storage = reportStorage(storageName)
  if (await storage.find(key)) return
  await storage.write(key, Readable.from([bytes]))
}
