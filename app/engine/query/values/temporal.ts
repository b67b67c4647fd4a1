/**
 * Converters of the temporal datatypes, per the upstream formats (reference 4.3): ISO text
 * only, checked for real calendar values, returned in one canonical form per datatype so that
 * equal instants bind equally.
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
  /** Fraction digits without trailing zeros ('' when none). */
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
  return { hour, minute, second, fraction: (m[4] ?? '').replace(/0+$/, '') }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function formatTime(t: Pick<Parts, 'hour' | 'minute' | 'second' | 'fraction'>): string {
  const base = `${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`
  return t.fraction ? `${base}.${t.fraction}` : base
}

function formatDate(d: Pick<Parts, 'year' | 'month' | 'day'>): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`
}

/** `yyyy-MM-dd`. */
export const date: Converter = (raw) => {
  const d = typeof raw === 'string' ? dateParts(raw) : undefined
  return d ? formatDate(d) : cannotParse(raw)
}

/** `HH:mm[:ss[.f]]` -> `HH:mm:ss[.f]`. */
export const time: Converter = (raw) => {
  const t = typeof raw === 'string' ? timeParts(raw) : undefined
  return t ? formatTime(t) : cannotParse(raw)
}

function dateTimeParts(raw: unknown) {
  const m = typeof raw === 'string' ? DATE_TIME.exec(raw) : null
  const d = m ? dateParts(m[1]) : undefined
  const t = m ? timeParts(m[2]) : undefined
  return m && d && t ? { ...d, ...t, offset: m[3] } : cannotParse(raw)
}

/** Local date-time, `T` required; an offset is tolerated and ignored, as upstream. */
export const dateTime: Converter = (raw) => {
  const p = dateTimeParts(raw)
  return `${formatDate(p)}T${formatTime(p)}`
}

/** ISO date-time with an offset (`Z` or `+HH:MM`), returned as the UTC instant with millis. */
export const offsetDateTime: Converter = (raw) => {
  const p = dateTimeParts(raw)
  const o = p.offset ? OFFSET.exec(p.offset) : null
  if (!o) return cannotParse(raw)
  const offsetMinutes = o[1] ? (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) : 0
  if (Math.abs(offsetMinutes) > 18 * 60) return cannotParse(raw)
  const instant = new Date(0)
  instant.setUTCFullYear(p.year, p.month - 1, p.day)
  const millis = Number(p.fraction.padEnd(3, '0').slice(0, 3))
  instant.setUTCHours(p.hour, p.minute - offsetMinutes, p.second, millis)
  return instant.toISOString()
}
