/**
 * Value formats (upstream `ReportValueFormat`, reference reports-upstream 2.3) as a `ValueOf`:
 * the format named `Band.field` wins over one named `field`. Numbers follow Java's
 * `DecimalFormat` patterns (`#,##0.00`, `0.###`, `#%`, `0.00E0`, `pos;neg`, quoted literals,
 * HALF_EVEN rounding as Java's default), temporal values Java's `SimpleDateFormat` letters
 * (`dd.MM.yyyy HH:mm`) through Luxon, booleans `Yes|No`, strings `%s`. The field's datatype
 * decides `native` (typed cells): numbers as number, `date` as a local Date (no timezone
 * shift), `dateTime` as local time, `offsetDateTime` as its instant, booleans as boolean.
 * Without a format `text` is the value as the REST API writes it. No format fetches anything.
 */
import { DateTime } from 'luxon'
import type { FieldTypes, FieldValue, ReportValue, ValueFormat, ValueOf } from './types.js'

const NUMERIC = new Set(['int', 'integer', 'long', 'double', 'float', 'decimal', 'bigdecimal'])
const TEMPORAL = new Set(['date', 'time', 'dateTime', 'localDateTime', 'offsetDateTime'])
const EMPTY: FieldValue = Object.freeze({ text: '', native: null }) as FieldValue

const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined

/** `valueFormatter(report.valueFormats, types, 'de')` -> the run's `job.value`. */
export function valueFormatter(
  formats: ValueFormat[],
  types: FieldTypes,
  locale?: string
): ValueOf {
  const byName = new Map<string, string>()
  for (const f of formats) if (f.format) byName.set(f.name, f.format)
  const loc = locale || 'en'
  const numbers = new Map<string, (v: number | string) => string>()
  const dates = new Map<string, DatePart[]>()

  return (band, field, value) => {
    if (value === null || value === undefined) return { ...EMPTY }
    const type = own(own(types, band), field)
    const pattern = byName.get(`${band}.${field}`) ?? byName.get(field)
    const native = nativeOf(value, type)
    if (!pattern) return { text: String(value), native }
    let text: string
    if (typeof native === 'number' || (typeof value === 'string' && NUMERIC.has(type ?? ''))) {
      let fmt = numbers.get(pattern)
      if (!fmt) numbers.set(pattern, (fmt = decimalFormat(pattern, loc)))
      text = fmt(typeof value === 'string' && isDecimalText(value) ? value : Number(native))
    } else if (typeof native === 'boolean') {
      text = booleanFormat(pattern, native)
    } else {
      const dt = typeof value === 'string' ? temporal(value, type) : null
      if (dt) {
        let parts = dates.get(pattern)
        if (!parts) dates.set(pattern, (parts = datePattern(pattern)))
        text = formatDate(dt.setLocale(loc), parts)
      } else {
        text = pattern.includes('%s') ? pattern.split('%s').join(String(value)) : String(value)
      }
    }
    return { text, native }
  }
}

/* ------------------------------------------------------------------ datatypes */

function nativeOf(
  value: Exclude<ReportValue, null>,
  type: string | undefined
): FieldValue['native'] {
  if (type && NUMERIC.has(type)) {
    const n = typeof value === 'number' ? value : Number(value)
    return Number.isFinite(n) ? n : String(value)
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value
    return value === 'true' ? true : value === 'false' ? false : String(value)
  }
  if (type && TEMPORAL.has(type) && type !== 'time') {
    const dt = typeof value === 'string' ? temporal(value, type) : null
    return dt ? dt.toJSDate() : String(value)
  }
  if (type && type !== 'unknown') return typeof value === 'string' ? value : String(value)
  return value
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const ISO_TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i

/**
 * ISO text of a temporal value as a Luxon DateTime: `date` and `dateTime` in local time (their
 * wall-clock values, never shifted), `offsetDateTime` in the offset it was written with.
 */
function temporal(value: string, type: string | undefined): DateTime | null {
  if (type && !TEMPORAL.has(type)) return null
  let dt: DateTime | null = null
  if (ISO_DATE.test(value) && type !== 'time') dt = DateTime.fromISO(value)
  else if (ISO_TIME.test(value)) dt = DateTime.fromISO(value)
  else if (ISO_DATE_TIME.test(value)) {
    const iso = value.replace(' ', 'T')
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(iso)
    dt =
      zoned && type !== 'dateTime'
        ? DateTime.fromISO(iso, { setZone: true })
        : DateTime.fromISO(iso.replace(/(Z|[+-]\d{2}:?\d{2})$/i, ''))
  }
  return dt && dt.isValid ? dt : null
}

function isDecimalText(value: string): boolean {
  return /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value.trim())
}

function booleanFormat(pattern: string, value: boolean): string {
  const bar = pattern.indexOf('|')
  if (bar < 0) return String(value)
  return value ? pattern.slice(0, bar) : pattern.slice(bar + 1)
}

/* ------------------------------------------------------------------ DecimalFormat */

interface Affixes {
  prefix: string
  suffix: string
  multiplier: number
}

/** Splits `pre#,##0.00suf` into affixes (quotes, `%`, `‰`, `¤` handled) and the digit body. */
/** The quoted literal starting at `pattern[i]` (`''` is a quote, in or out of quotes) and the index after it. */
function quoted(pattern: string, i: number): [string, number] {
  if (pattern[i + 1] === "'") return ["'", i + 2]
  let text = ''
  let j = i + 1
  while (j < pattern.length) {
    if (pattern[j] === "'" && pattern[j + 1] === "'") {
      text += "'"
      j += 2
    } else if (pattern[j] === "'") return [text, j + 1]
    else text += pattern[j++]
  }
  return [text, j]
}

function splitPattern(pattern: string): { affixes: Affixes; body: string } {
  let prefix = ''
  let suffix = ''
  let body = ''
  let multiplier = 1
  let phase: 'prefix' | 'body' | 'suffix' = 'prefix'
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    let literal = c
    if (c === "'") {
      const [text, next] = quoted(pattern, i)
      literal = text
      i = next - 1
      if (phase === 'body') phase = 'suffix'
    } else if (phase !== 'suffix' && /[#0,.]/.test(c)) {
      phase = 'body'
      body += c
      continue
    } else if (phase === 'body' && c === 'E' && /^E0+/.test(pattern.slice(i))) {
      const e = /^E0+/.exec(pattern.slice(i))![0]
      body += e
      i += e.length - 1
      continue
    } else {
      if (phase === 'body') phase = 'suffix'
      if (c === '%') multiplier = 100
      else if (c === '\u2030') multiplier = 1000
      literal = c === '\u00a4' ? '' : c
    }
    if (phase === 'prefix') prefix += literal
    else suffix += literal
  }
  return { affixes: { prefix, suffix, multiplier }, body }
}

/** A Java `DecimalFormat` pattern as a formatter of numbers or exact decimal text. */
export function decimalFormat(pattern: string, locale = 'en'): (value: number | string) => string {
  const semi = pattern.indexOf(';')
  const pos = splitPattern(semi < 0 ? pattern : pattern.slice(0, semi))
  const neg = semi < 0 ? null : splitPattern(pattern.slice(semi + 1)).affixes
  const exp = pos.body.indexOf('E')
  const mantissa = exp < 0 ? pos.body : pos.body.slice(0, exp)
  const dot = mantissa.indexOf('.')
  const intPart = dot < 0 ? mantissa : mantissa.slice(0, dot)
  const fracPart = dot < 0 ? '' : mantissa.slice(dot + 1)
  const minInt = (intPart.match(/0/g) ?? []).length
  const minFrac = (fracPart.match(/0/g) ?? []).length
  const maxFrac = minFrac + (fracPart.match(/#/g) ?? []).length
  const nf = new Intl.NumberFormat(locale, {
    minimumIntegerDigits: Math.max(1, Math.min(minInt, 21)),
    minimumFractionDigits: Math.min(minFrac, 100),
    maximumFractionDigits: Math.min(Math.max(maxFrac, minFrac), 100),
    useGrouping: exp < 0 && intPart.includes(','),
    notation: exp < 0 ? 'standard' : 'scientific',
    signDisplay: 'never',
    roundingMode: 'halfEven',
  } as Intl.NumberFormatOptions)
  const decimalSep = nf.formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.'
  const multiplier = pos.affixes.multiplier
  return (value) => {
    let v: number | string = value
    const negative = typeof v === 'string' ? v.trim().startsWith('-') : v < 0 || Object.is(v, -0)
    if (multiplier !== 1) v = Number(v) * multiplier
    if (typeof v === 'number' && !Number.isFinite(v))
      return Number.isNaN(v) ? 'NaN' : negative ? '-∞' : '∞'
    let digits = nf.format(v as number)
    if (minInt === 0 && exp < 0 && digits.startsWith(`0${decimalSep}`)) digits = digits.slice(1)
    const isZero = Number(value) === 0
    if (negative && !isZero) {
      return neg
        ? `${neg.prefix}${digits}${neg.suffix}`
        : `-${pos.affixes.prefix}${digits}${pos.affixes.suffix}`
    }
    return `${pos.affixes.prefix}${digits}${pos.affixes.suffix}`
  }
}

/* ------------------------------------------------------------------ SimpleDateFormat */

/** A date pattern part: literal text, or a Luxon token formatted on its own. */
export type DatePart = string | { token: string }

/**
 * Java `SimpleDateFormat` letters -> parts: literal text (quoted `'...'`, `''` a quote, any
 * non-letter) kept verbatim, letter runs as Luxon tokens.
 */
export function datePattern(pattern: string): DatePart[] {
  const parts: DatePart[] = []
  let literal = ''
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]
    if (c === "'") {
      const [text, next] = quoted(pattern, i)
      literal += text
      i = next
      continue
    }
    let n = 1
    while (/[A-Za-z]/.test(c) && pattern[i + n] === c) n++
    const token = /[A-Za-z]/.test(c) ? dateToken(c, n) : null
    if (token === null) literal += pattern.slice(i, i + n)
    else {
      if (literal) parts.push(literal)
      literal = ''
      parts.push({ token })
    }
    i += n
  }
  if (literal) parts.push(literal)
  return parts
}

function formatDate(dt: DateTime, parts: DatePart[]): string {
  return parts.map((p) => (typeof p === 'string' ? p : dt.toFormat(p.token))).join('')
}

function dateToken(letter: string, n: number): string | null {
  const pad = (t: string) => (n >= 2 ? t + t : t)
  switch (letter) {
    case 'y':
      return n === 2 ? 'yy' : n >= 4 ? 'yyyy' : 'y'
    case 'Y':
      return n === 2 ? 'kk' : 'kkkk'
    case 'M':
    case 'L':
      return n >= 4 ? `${letter}${letter}${letter}${letter}` : letter.repeat(n)
    case 'd':
      return pad('d')
    case 'H':
    case 'k':
      return pad('H')
    case 'h':
    case 'K':
      return pad('h')
    case 'm':
      return pad('m')
    case 's':
      return pad('s')
    case 'S':
      return n >= 3 ? 'SSS' : 'S'
    case 'E':
      return n >= 4 ? 'EEEE' : 'EEE'
    case 'u':
      return 'E'
    case 'a':
      return 'a'
    case 'D':
      return n >= 3 ? 'ooo' : 'o'
    case 'w':
      return pad('W')
    case 'G':
      return 'G'
    case 'z':
      return n >= 4 ? 'ZZZZZ' : 'ZZZZ'
    case 'Z':
      return 'ZZZ'
    case 'X':
      return n === 1 ? 'ZZZ' : 'ZZ'
    default:
      return null
  }
}
