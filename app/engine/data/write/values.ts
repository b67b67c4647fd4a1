/**
 * JSON -> database values per datatype: the inverse of the upstream output formats (reference
 * 4.3). Pure; the dialect only decides how booleans are bound (better-sqlite3 binds none).
 * Temporal and decimal values are parsed by the filter language's parsers (query/values), so
 * that a stored value and a filter value naming it have one canonical text.
 */
import type { AttributeMeta, Model } from '../../metadata/model.js'
import { DataError } from '../errors.js'
import { parseFileRef } from '../../../files/file_ref.js'
import { scalarText } from '../../query/values/convert.js'
import { integerDigits, parseDecimal, scaleDecimal } from '../../query/values/numbers.js'
import {
  parseDate,
  parseDateTime,
  parseOffsetDateTime,
  parseTime,
} from '../../query/values/temporal.js'

export type Dialect = 'pg' | 'sqlite'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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

/** The attribute's scale (default 2, as the model's decimal columns). */
export const decimalScale = (a: AttributeMeta) => a.definition?.scale ?? 2

/**
 * A JSON number or numeric string, rounded half away from zero to the attribute's scale (as
 * PostgreSQL's numeric does, so both databases store the same value) and sent as text (exact on
 * PostgreSQL). Too many integer digits for the precision is a validation violation
 * (validate.ts), not an error here.
 */
export function decimalText(a: AttributeMeta, value: unknown): string | undefined {
  const digits = typeof value === 'number' ? scalarText(value) : value
  const plain = typeof digits === 'string' ? parseDecimal(digits) : undefined
  return plain === undefined ? undefined : scaleDecimal(plain, decimalScale(a))
}

/**
 * The bounds (`@Digits(integer, fraction)`) of a decimal attribute when its JSON value, rounded
 * to the scale, has more integer digits than `precision - scale`; null when it fits.
 */
export function decimalOverflow(a: AttributeMeta, value: unknown) {
  const scaled = decimalText(a, value)
  const fraction = decimalScale(a)
  const whole = (a.definition?.precision ?? 19) - fraction
  return scaled !== undefined && integerDigits(scaled) > whole ? { integer: whole, fraction } : null
}

function bool(a: AttributeMeta, value: unknown, dialect: Dialect): boolean | number {
  const b = value === 'true' ? true : value === 'false' ? false : value
  if (typeof b !== 'boolean') throw invalid(a, value)
  return dialect === 'pg' ? b : b ? 1 : 0
}

/** Any scalar in its string form (upstream reads it with Gson's `getAsString`): `123` -> "123". */
function text(a: AttributeMeta, value: unknown): string {
  const s = scalarText(value)
  if (s === undefined) throw invalid(a, value)
  return s
}

/** A file attribute holds a fileRef of the shape POST /rest/files issues (app/files). */
function fileRef(a: AttributeMeta, value: unknown): string {
  if (typeof value !== 'string' || !parseFileRef(value)) throw invalid(a, value)
  return value
}

function parsed(a: AttributeMeta, value: unknown, parse: (v: unknown) => string | undefined) {
  const result = parse(value)
  if (result === undefined) throw invalid(a, value)
  return result
}

function enumId(model: Model, a: AttributeMeta, value: unknown): string {
  const definition = model.enums.get(a.definition?.enum ?? '')
  const found = definition?.values.find((v) => v.name === value)
  if (!found) {
    // Upstream's error; the details (empty upstream) list what the attribute takes.
    const names = definition?.values.map((v) => v.name) ?? []
    const more = names.length > 50 ? `, ... (${names.length - 50} more)` : ''
    throw cannotDeserialize(
      `Valid values of '${a.name}': ${names.slice(0, 50).join(', ')}${more}`,
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
      return parsed(a, value, (v) => decimalText(a, v))
    case 'boolean':
      return bool(a, value, dialect)
    case 'date':
      return parsed(a, value, parseDate)
    case 'time':
      return parsed(a, value, parseTime)
    case 'dateTime':
      return parsed(a, value, parseDateTime)
    case 'offsetDateTime':
      return parsed(a, value, parseOffsetDateTime)
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
