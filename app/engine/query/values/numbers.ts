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
  const t = boundedText(raw, ctx)
  const m = DECIMAL.exec(t)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) cannotParse(raw)
  const exponent = Number(m[4] ?? 0)
  if (Math.abs(exponent) > MAX_EXPONENT) cannotParse(raw)
  return plainDecimal(m[1], m[2], m[3] ?? '', exponent)
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
