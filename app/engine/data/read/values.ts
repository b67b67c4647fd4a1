/**
 * Stored column values -> upstream JSON values (reference 4.3), for both dialects: SQLite hands
 * back text, 0/1 and doubles for `numeric`; node-pg numeric text for `numeric`/`bigint`, parsed
 * `jsonb`, and for `date`/`timestamp`/`timestamptz` text on the read pipeline's direct path
 * (schema/dialects/pg_text_types.ts), Date objects elsewhere (local time for `date`/`timestamp`,
 * an instant for `timestamptz`): both give the same text. Decimals become JsonNumbers with the attribute's scale (json_text.ts).
 */
import type { AttributeMeta, Model } from '../../metadata/model.js'
import { parseDecimal, scaleDecimal } from '../../query/values/numbers.js'
import { JsonNumber, jsonNumber } from './json_text.js'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** A fraction with minimal digits, none when zero (upstream's ISO formatter). */
function fraction(ms: number): string {
  return ms ? `.${pad(ms, 3).replace(/0+$/, '')}` : ''
}

function localDate(d: Date): string {
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

function localDateTime(d: Date): string {
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  return `${localDate(d)}T${time}${fraction(d.getMilliseconds())}`
}

/** `2021-02-06 12:03:38.000` / `...T12:03:38.049` text -> `2021-02-06T12:03:38.049`. */
function dateTimeText(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2})?(\.\d+)?/.exec(text)
  if (!m) return text
  const frac = (m[4] ?? '').replace(/0+$/, '')
  return `${m[1]}T${m[2]}${m[3] ?? ':00'}${frac === '.' ? '' : frac}`
}

/** The form `toISOString` writes (SQLite's stored form; PostgreSQL's as direct reads take it). */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

function instant(value: unknown): string {
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'number') return new Date(value).toISOString()
  const text = String(value)
  if (ISO_INSTANT.test(text)) return text
  // Text from SQLite: keep the stored offset; a bare local text is read as UTC.
  const parsed = new Date(/[zZ]|[+-]\d{2}(:?\d{2})?$/.test(text) ? text : `${text}Z`)
  return Number.isNaN(parsed.getTime()) ? text : parsed.toISOString()
}

function number(value: unknown): number {
  return typeof value === 'number' ? value : Number(value)
}

const SCALED = /^-?\d+(?:\.\d+)?$/

/** `130.00` for a numeric(p, 2) value: PostgreSQL's text as it is, SQLite's double with toFixed. */
function decimal(a: AttributeMeta, value: unknown): JsonNumber | number {
  const scale = a.definition?.scale ?? 2
  if (typeof value === 'number') {
    return Math.abs(value) < 1e21 ? new JsonNumber(value.toFixed(scale)) : value
  }
  const text = String(value)
  const point = text.indexOf('.')
  const digits = point < 0 ? 0 : text.length - point - 1
  if (digits === scale && SCALED.test(text)) return jsonNumber(text)
  const plain = parseDecimal(text)
  return plain === undefined ? Number(text) : jsonNumber(scaleDecimal(plain, scale))
}

/** `10:00:00.500` -> `10:00:00.5`, `10:00:00.000` -> `10:00:00` (ISO_LOCAL_TIME's fraction). */
function timeText(text: string): string {
  if (!text.includes('.')) return text
  const trimmed = text.replace(/0+$/, '')
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed
}

/** The JSON value of a datatype attribute's stored value (never called with null). */
export function formatValue(model: Model, a: AttributeMeta, value: unknown): unknown {
  switch (a.datatype) {
    case 'int':
    case 'long':
    case 'double':
      return number(value)
    case 'decimal':
      return decimal(a, value)
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 'true'
    case 'date':
      return value instanceof Date ? localDate(value) : String(value).slice(0, 10)
    case 'time':
      return timeText(String(value))
    case 'dateTime':
      return value instanceof Date ? localDateTime(value) : dateTimeText(String(value))
    case 'offsetDateTime':
      return instant(value)
    case 'json':
      if (typeof value !== 'string') return value
      try {
        return JSON.parse(value)
      } catch {
        return value
      }
    case 'enum': {
      const enumName = a.definition?.enum
      const def = enumName ? model.enums.get(enumName) : undefined
      return def?.values.find((v) => v.id === String(value))?.name ?? String(value)
    }
    default:
      return typeof value === 'string' ? value : String(value)
  }
}

/** Ids are JSON strings in every entity object (reference 4.1). */
export function formatId(value: unknown): string {
  return String(value)
}
