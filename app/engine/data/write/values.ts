/**
 * JSON -> database values per datatype: the inverse of the upstream output formats (reference
 * 4.3). Pure; the dialect only decides how booleans and timestamps are bound (better-sqlite3
 * binds neither booleans nor Date objects).
 */
import type { AttributeMeta, Model } from '../../metadata/model.js'
import { DataError } from '../errors.js'
import { parseFileRef } from '../../../files/file_ref.js'

export type Dialect = 'pg' | 'sqlite'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DATE = /^\d{4}-\d{2}-\d{2}$/
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/

/** Upstream 400 for a value the serializer cannot read; `error` is the upstream string. */
export function cannotDeserialize(
  details: string,
  error = 'Cannot deserialize an entity from JSON'
) {
  return new DataError(400, error, details)
}

const invalid = (a: AttributeMeta, value: unknown) =>
  cannotDeserialize(
    `Invalid value ${JSON.stringify(value)} for attribute '${a.name}' of type ${a.type}`
  )

function integer(a: AttributeMeta, value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw invalid(a, value)
  if (a.datatype === 'int' && (n > 2147483647 || n < -2147483648)) throw invalid(a, value)
  return n
}

function float(a: AttributeMeta, value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid(a, value)
  return n
}

/** Decimals travel as strings so that PostgreSQL keeps every digit. */
function decimal(a: AttributeMeta, value: unknown): string {
  const digits = typeof value === 'number' && Number.isFinite(value) ? String(value) : value
  if (typeof digits !== 'string' || !DECIMAL.test(digits.trim())) throw invalid(a, value)
  return digits.trim()
}

function bool(a: AttributeMeta, value: unknown, dialect: Dialect): boolean | number {
  const b = value === 'true' ? true : value === 'false' ? false : value
  if (typeof b !== 'boolean') throw invalid(a, value)
  return dialect === 'pg' ? b : b ? 1 : 0
}

function text(a: AttributeMeta, value: unknown): string {
  if (typeof value !== 'string') throw invalid(a, value)
  return value
}

/** A file attribute holds a fileRef of the shape POST /rest/files issues (app/files). */
function fileRef(a: AttributeMeta, value: unknown): string {
  if (typeof value !== 'string' || !parseFileRef(value)) throw invalid(a, value)
  return value
}

/** `yyyy-MM-ddTHH:mm:ss[.SSS]`; an offset is tolerated and ignored (reference 4.3). */
function localDateTime(a: AttributeMeta, value: unknown): string {
  const m = typeof value === 'string' ? DATE_TIME.exec(value) : null
  if (!m || Number.isNaN(Date.parse(`${m[1]}T${m[2]}Z`))) throw invalid(a, value)
  const time = m[2].length === 5 ? `${m[2]}:00` : m[2]
  return `${m[1]} ${time}`
}

/** An instant with its offset; stored as UTC ISO text (sortable on SQLite, timestamptz on PG). */
function offsetDateTime(a: AttributeMeta, value: unknown): string {
  const m = typeof value === 'string' ? DATE_TIME.exec(value) : null
  if (!m || !m[3]) throw invalid(a, value)
  const ms = Date.parse(value as string)
  if (Number.isNaN(ms)) throw invalid(a, value)
  return new Date(ms).toISOString()
}

function enumId(model: Model, a: AttributeMeta, value: unknown): string {
  const definition = model.enums.get(a.definition?.enum ?? '')
  const found = definition?.values.find((v) => v.name === value)
  if (!found) {
    throw cannotDeserialize(
      '',
      `An error occurred while parsing enum. Class [class ${a.definition?.enum}]. Value [${String(value)}].`
    )
  }
  return found.id
}

/** The database value of a datatype attribute from its JSON value (null stays null). */
export function toDbValue(model: Model, a: AttributeMeta, value: unknown, dialect: Dialect) {
  if (value === null || value === undefined) return null
  switch (a.datatype) {
    case 'string':
    case 'text':
      return text(a, value)
    case 'file':
      return fileRef(a, value)
    case 'uuid':
      if (typeof value !== 'string' || !UUID.test(value)) throw invalid(a, value)
      return value.toLowerCase()
    case 'int':
    case 'long':
      return integer(a, value)
    case 'double':
      return float(a, value)
    case 'decimal':
      return decimal(a, value)
    case 'boolean':
      return bool(a, value, dialect)
    case 'date':
      if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value)))
        throw invalid(a, value)
      return value
    case 'time': {
      const m = typeof value === 'string' ? TIME.exec(value) : null
      if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59)
        throw invalid(a, value)
      return `${m[1]}:${m[2]}:${m[3] ?? '00'}`
    }
    case 'dateTime':
      return localDateTime(a, value)
    case 'offsetDateTime':
      return offsetDateTime(a, value)
    case 'enum':
      return enumId(model, a, value)
    case 'json':
      return JSON.stringify(value)
    default:
      throw invalid(a, value)
  }
}

/** The id value of `idType` from JSON (ids travel as strings; numbers are accepted). */
export function toIdValue(idType: string, value: unknown): string | number | undefined {
  if (idType === 'long') {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value
    return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined
  }
  if (typeof value === 'number' && idType === 'string') return String(value)
  if (typeof value !== 'string' || value === '') return undefined
  if (idType === 'uuid') return UUID.test(value) ? value.toLowerCase() : undefined
  return value
}
