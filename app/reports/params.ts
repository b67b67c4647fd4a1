/**
 * Run parameters (reference 11.4): the run body's `parameters[]` by alias, converted per type,
 * defaults applied, `required` enforced, entities loaded through the caller's DataManager (so an
 * entity the caller may not read is 403/404), then the report's validation expressions.
 */
import { compileExpression } from 'filtrex'
import type { DataManager } from '#engine/data/data_manager'
import { convertValue } from '#engine/queries/params'
import { ReportError, type ReportParameter, type ReportValue } from './types.js'

export interface RunParameter {
  name?: unknown
  value?: unknown
  values?: unknown
}

/** A converted parameter: `value` binds into filters and SQL; `text` prints in documents. */
export interface ParameterValue {
  value: unknown
  text: ReportValue
}

/** An offset after a date-time's time (`Z`, `+02:00`), accepted and left to the database. */
const OFFSET = /(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(?:Z|[+-]\d{2}:?\d{2})$/

const invalid = (p: ReportParameter, raw: unknown) =>
  new ReportError(
    `Cannot convert value ${JSON.stringify(raw)} of parameter '${p.alias}' to ${p.type}`
  )

/** Query parameter types (app/engine/queries/params.ts) that read each report type's text. */
const QUERY_TYPES = {
  NUMERIC: 'double',
  BOOLEAN: 'boolean',
  DATE: 'date',
  TIME: 'time',
  DATETIME: 'dateTime',
  ENUMERATION: 'enum',
} as const

/** A simple (non-entity) value of `p` from its wire text, read as named queries read it. */
function convertSimple(data: DataManager, p: ReportParameter, raw: unknown): ParameterValue {
  if (raw !== null && typeof raw === 'object') throw invalid(p, raw)
  const text = String(raw)
  if (p.type === 'TEXT') return { value: text, text }
  if (!(p.type in QUERY_TYPES)) throw invalid(p, raw)
  const type = QUERY_TYPES[p.type as keyof typeof QUERY_TYPES]
  const read =
    type === 'dateTime' ? text.replace(OFFSET, '$1') : type === 'double' ? text.trim() : text
  const value = convertValue(
    data.context.model,
    { name: p.alias, type, enum: p.enumerationClass },
    read
  )
  if (value === undefined) throw invalid(p, raw)
  if (type === 'double' || type === 'boolean') return { value, text: value as ReportValue }
  // Times bind with seconds (`10:15` -> `10:15:00`); documents print what was sent.
  return { value: type === 'time' && text.length === 5 ? `${text}:00` : text, text }
}

/** Loads the entity with id `raw` as the caller (404 unknown, 403 not readable). */
async function loadEntity(data: DataManager, p: ReportParameter, raw: unknown) {
  if (typeof raw !== 'string' && typeof raw !== 'number') throw invalid(p, raw)
  const entity = await data.load(p.entityMetaClass!, String(raw), { fetchPlan: '_instance_name' })
  return { id: entity.id, name: (entity._instanceName ?? entity.id) as ReportValue }
}

async function convert(data: DataManager, p: ReportParameter, given: RunParameter | undefined) {
  if (p.type === 'ENTITY') {
    const raw = given?.value ?? p.defaultValue
    if (raw === undefined || raw === null || raw === '') return undefined
    const e = await loadEntity(data, p, raw)
    return { value: e.id, text: e.name }
  }
  if (p.type === 'ENTITY_LIST') {
    let raw: unknown = given?.values ?? given?.value
    if (raw === undefined && p.defaultValue) raw = p.defaultValue.split(',').map((s) => s.trim())
    if (raw === undefined || raw === null) return undefined
    if (!Array.isArray(raw)) throw invalid(p, raw)
    if (!raw.length) return undefined
    const loaded = []
    for (const id of raw) loaded.push(await loadEntity(data, p, id))
    return { value: loaded.map((e) => e.id), text: loaded.map((e) => e.name).join(', ') }
  }
  const raw = given?.value ?? p.defaultValue
  if (raw === undefined || raw === null) return undefined
  return convertSimple(data, p, raw)
}

/** The report's parameters from the run body (unknown aliases are ignored, as upstream). */
export async function runParameters(
  data: DataManager,
  declared: readonly ReportParameter[],
  given: unknown
): Promise<Map<string, ParameterValue>> {
  if (given !== undefined && given !== null && !Array.isArray(given))
    throw new ReportError('parameters must be an array of {name, value} or {name, values}')
  const byAlias = new Map<string, RunParameter>()
  for (const item of (given ?? []) as RunParameter[]) {
    if (!item || typeof item !== 'object' || typeof item.name !== 'string')
      throw new ReportError('every parameter needs a name')
    byAlias.set(item.name, item)
  }
  const values = new Map<string, ParameterValue>()
  for (const p of declared) {
    const value = await convert(data, p, byAlias.get(p.alias))
    if (value === undefined) {
      if (p.required) throw new ReportError(`Required report parameter "${p.alias}" not found`)
      values.set(p.alias, { value: null, text: null })
    } else values.set(p.alias, value)
  }
  for (const p of declared) {
    if (!p.validation) continue
    const scope = Object.fromEntries([...values].map(([k, v]) => [k, v.value]))
    const result = compileExpression(p.validation.expression)(scope)
    if (result instanceof Error || result !== true)
      throw new ReportError(
        p.validation.message ?? `Parameter '${p.alias}' is not valid (${p.validation.expression})`
      )
  }
  return values
}
