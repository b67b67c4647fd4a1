/**
 * The temporal datatypes, per the upstream formats (reference 4.3): ISO text only, checked for
 * real calendar values, returned in the one canonical form each datatype is stored in. The
 * write pipeline (data/write/values.ts) and the filter converters use these same parsers, so a
 * filter value binds exactly as the stored value it names:
 *
 *   date            `yyyy-MM-dd`
 *   time            `HH:mm:ss[.f]`             f: 1-6 digits, no trailing zeros
 *   dateTime        `yyyy-MM-dd HH:mm:ss[.f]`  a space (SQLite's own form), f as for time
 *   offsetDateTime  `yyyy-MM-ddTHH:mm:ss.SSSZ` the UTC instant, always millis (toISOString)
 *
 * Fixed-width fields and fractions without trailing zeros sort as text in time order (SQLite
 * compares the text); PostgreSQL parses each form into its `date`/`time`/`timestamp`/
 * `timestamptz`. Digits beyond microseconds (PostgreSQL's precision) are dropped.
 */
import type { Converter } from './convert.js'
import { cannotParse } from './convert.js'

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/
const OFFSET = /^(?:Z|([+-])(\d{2}):(\d{2}))$/i
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:\d{2})?$/i

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !leap(year) ? 1 : 0)
}

function leap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
}

interface Parts {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  /** Fraction digits (at most 6) without trailing zeros ('' when none). */
  fraction: string
}

function dateParts(text: string): Pick<Parts, 'year' | 'month' | 'day'> | undefined {
  const m = DATE.exec(text)
  if (!m) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined
  return { year, month, day }
}

function timeParts(
  text: string
): Pick<Parts, 'hour' | 'minute' | 'second' | 'fraction'> | undefined {
  const m = TIME.exec(text)
  if (!m) return undefined
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)]
  if (hour > 23 || minute > 59 || second > 59) return undefined
  return { hour, minute, second, fraction: (m[4] ?? '').slice(0, 6).replace(/0+$/, '') }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function formatTime(t: Pick<Parts, 'hour' | 'minute' | 'second' | 'fraction'>): string {
  const base = `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`
  return t.fraction ? `${base}.${t.fraction}` : base
}

function formatDate(d: Pick<Parts, 'year' | 'month' | 'day'>): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`
}

function dateTimeParts(raw: unknown) {
  const m = typeof raw === 'string' ? DATE_TIME.exec(raw) : null
  const d = m ? dateParts(m[1]) : undefined
  const t = m ? timeParts(m[2]) : undefined
  return m && d && t ? { ...d, ...t, offset: m[3] } : undefined
}

/** `yyyy-MM-dd`, a real calendar day; undefined otherwise. */
export function parseDate(raw: unknown): string | undefined {
  const d = typeof raw === 'string' ? dateParts(raw) : undefined
  return d && formatDate(d)
}

/** `HH:mm[:ss[.f]]` -> `HH:mm:ss[.f]`; undefined otherwise. */
export function parseTime(raw: unknown): string | undefined {
  const t = typeof raw === 'string' ? timeParts(raw) : undefined
  return t && formatTime(t)
}

/** Local date-time, `T` required; an offset is tolerated and ignored, as upstream. */
export function parseDateTime(raw: unknown): string | undefined {
  const p = dateTimeParts(raw)
  return p && `${formatDate(p)} ${formatTime(p)}`
}

/** ISO date-time with an offset (`Z` or `+HH:MM`) -> the UTC instant with millis. */
export function parseOffsetDateTime(raw: unknown): string | undefined {
  const p = dateTimeParts(raw)
  const o = p?.offset ? OFFSET.exec(p.offset) : null
  if (!p || !o) return undefined
  const offsetMinutes = o[1] ? (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) : 0
  if (Math.abs(offsetMinutes) > 18 * 60) return undefined
  const instant = new Date(0)
  instant.setUTCFullYear(p.year, p.month - 1, p.day)
  const millis = Number(p.fraction.padEnd(3, '0').slice(0, 3))
  instant.setUTCHours(p.hour, p.minute - offsetMinutes, p.second, millis)
  const year = instant.getUTCFullYear()
  // Only four-digit years keep the text form sortable (toISOString writes `+010000-...`).
  return year >= 0 && year <= 9999 ? instant.toISOString() : undefined
}

const converter =
  (parse: (raw: unknown) => string | undefined): Converter =>
  (raw) =>
    parse(raw) ?? cannotParse(raw)

export const date = converter(parseDate)
export const time = converter(parseTime)
export const dateTime = converter(parseDateTime)
export const offsetDateTime = converter(parseOffsetDateTime)
