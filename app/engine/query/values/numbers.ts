/**
 * Converters of the numeric datatypes. JSON numbers or their string form, as upstream; never
 * anything lossy: a fraction for an integer, an integer beyond its range, NaN or Infinity
 * (which lenient JSON allows) are refused.
 */
import type { Converter } from './convert.js'
import { boundedText, cannotParse } from './convert.js'

const INTEGER = /^[+-]?\d{1,20}$/
const FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i
const INT_MIN = -(2 ** 31)
const INT_MAX = 2 ** 31 - 1
const LONG_MIN = -(2n ** 63n)
const LONG_MAX = 2n ** 63n - 1n
/** Decimal exponents beyond this would expand into megabytes of digits. */
const MAX_EXPONENT = 1000

function integerText(raw: unknown): string | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? String(raw) : undefined
  if (typeof raw === 'string' && INTEGER.test(raw)) return raw
  return undefined
}

export const int: Converter = (raw) => {
  const t = integerText(raw)
  const n = t === undefined ? Number.NaN : Number(t)
  if (!(n >= INT_MIN && n <= INT_MAX)) cannotParse(raw)
  return n + 0 // no -0
}

/** A number while it is exact (|n| <= 2^53 - 1), beyond that its decimal text. */
export const long: Converter = (raw) => {
  const t = integerText(raw)
  if (t === undefined) cannotParse(raw)
  const n = BigInt(t)
  if (n < LONG_MIN || n > LONG_MAX) cannotParse(raw)
  const small = Number(n) + 0
  return Number.isSafeInteger(small) ? small : n.toString()
}

export const double: Converter = (raw, ctx) => {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : cannotParse(raw)
  const t = boundedText(raw, ctx)
  const n = FLOAT.test(t) ? Number(t) : Number.NaN
  return Number.isFinite(n) ? n : cannotParse(raw)
}

/** Exact plain decimal text (`-12.5`, `0.0000001`, `130`), scale-free trailing zeros dropped. */
export const decimal: Converter = (raw, ctx) => {
  if (typeof raw === 'number' && !Number.isFinite(raw)) cannotParse(raw)
  return parseDecimal(boundedText(raw, ctx)) ?? cannotParse(raw)
}

/**
 * Decimal text (`12.50`, `-.5`, `1e3`, a JSON number's own text) -> its exact plain form
 * (`12.5`, `-0.5`, `1000`); undefined when it is no number or its exponent is beyond 1000.
 */
export function parseDecimal(text: string): string | undefined {
  const m = DECIMAL.exec(text)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined
  const exponent = Number(m[4] ?? 0)
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined
  return plainDecimal(m[1], m[2], m[3] ?? '', exponent)
}

/**
 * A plain decimal (parseDecimal's form) rounded half away from zero to `scale` fraction
 * digits and written with exactly that many (`9.905`, 2 -> `9.91`; `-0.001`, 2 -> `0.00`), as
 * PostgreSQL stores a value in `numeric(p, s)`.
 */
export function scaleDecimal(plain: string, scale: number): string {
  const negative = plain.startsWith('-')
  const [whole, part = ''] = (negative ? plain.slice(1) : plain).split('.')
  let digits = whole + part.padEnd(scale, '0').slice(0, scale)
  if (part.length > scale && part.charCodeAt(scale) >= 53 /* '5' */) digits = increment(digits)
  const cut = digits.length - scale
  const body = scale ? `${digits.slice(0, cut) || '0'}.${digits.slice(cut)}` : digits
  const text = body.replace(/^0+(?=\d)/, '')
  return negative && /[1-9]/.test(text) ? `-${text}` : text
}

/** A digit string plus one (`199` -> `200`, `99` -> `100`). */
function increment(digits: string): string {
  let i = digits.length - 1
  while (i >= 0 && digits[i] === '9') i--
  if (i < 0) return `1${'0'.repeat(digits.length)}`
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - 1 - i)
}

/** Digits before the point of a plain or scaled decimal (`0.50` -> 0, `-120.5` -> 3). */
export function integerDigits(decimalText: string): number {
  const whole = decimalText.replace(/^-/, '').split('.')[0].replace(/^0+/, '')
  return whole.length
}

export function plainDecimal(sign: string, integer: string, fraction: string, exponent: number) {
  const digits = integer + fraction
  const point = integer.length + exponent
  let whole: string
  let part: string
  if (point <= 0) {
    whole = '0'
    part = '0'.repeat(-point) + digits
  } else if (point >= digits.length) {
    whole = digits + '0'.repeat(point - digits.length)
    part = ''
  } else {
    whole = digits.slice(0, point)
    part = digits.slice(point)
  }
  whole = whole.replace(/^0+(?=\d)/, '')
  part = part.replace(/0+$/, '')
  const body = part ? `${whole}.${part}` : whole
  return sign === '-' && /[1-9]/.test(body) ? `-${body}` : body
}
