/**
 * Run parameters (reference 11.4): the run body's `parameters[]` by alias, converted per type,
 * defaults applied, `required` enforced, entities loaded through the caller's DataManager (so an
 * entity the caller may not read is 403/404), then the report's validation expressions.
 */
import { compileExpression } from 'filtrex'
import type { DataManager } from '#engine/data/data_manager'
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

const DATE = /^\d{4}-\d{2}-\d{2}$/
const TIME = /^\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

function validDate(text: string) {
  const d = new Date(`${text.slice(0, 10)}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text.slice(0, 10)
}

function validTime(text: string) {
  const [h, m, s] = text.split(':').map(Number.parseFloat)
  return h < 24 && m < 60 && (s === undefined || s < 60)
}

const invalid = (p: ReportParameter, raw: unknown) =>
  new ReportError(
    `Cannot convert value ${JSON.stringify(raw)} of parameter '${p.alias}' to ${p.type}`
  )

/** A simple (non-entity) value of `p` from its wire text. */
function convertSimple(data: DataManager, p: ReportParameter, raw: unknown): ParameterValue {
  if (raw !== null && typeof raw === 'object') throw invalid(p, raw)
  const text = String(raw)
  switch (p.type) {
    case 'TEXT':
      return { value: text, text }
    case 'NUMERIC': {
      if (!NUMBER.test(text.trim())) throw invalid(p, raw)
      const n = Number(text)
      return { value: n, text: n }
    }
    case 'BOOLEAN': {
      const lower = text.toLowerCase()
      if (lower !== 'true' && lower !== 'false') throw invalid(p, raw)
      return { value: lower === 'true', text: lower === 'true' }
    }
    case 'DATE':
      if (!DATE.test(text) || !validDate(text)) throw invalid(p, raw)
      return { value: text, text }
    case 'TIME':
      if (!TIME.test(text) || !validTime(text)) throw invalid(p, raw)
      return { value: text.length === 5 ? `${text}:00` : text, text }
    case 'DATETIME':
      if (!DATE_TIME.test(text) || !validDate(text) || !validTime(text.slice(11, 19)))
        throw invalid(p, raw)
      return { value: text, text }
    case 'ENUMERATION': {
      const values = data.context.model.enums.get(p.enumerationClass ?? '')?.values ?? []
      if (!values.some((v) => v.name === text)) throw invalid(p, raw)
      return { value: text, text }
    }
    default:
      throw invalid(p, raw)
  }
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
