/**
 * `contains`, `doesNotContain`, `startsWith`, `endsWith`: case-insensitive LIKE on strings.
 * The condition keeps the raw text; the SQL builder turns it into a pattern with `likePattern`,
 * so `%`, `_` and the escape character in a value always match literally (catalogue FQ5).
 */
import type { LikeCondition } from '../filter_ast.js'
import { convertValue } from '../values/registry.js'
import type { OperatorDefinition } from './types.js'

/** The escape character the SQL builder declares with `ESCAPE '\'`. */
export const LIKE_ESCAPE = '\\'

/** Escapes the LIKE wildcards `%` and `_` and the escape character itself. */
export function escapeLike(value: string, escape: string = LIKE_ESCAPE): string {
  if (escape.length !== 1 || escape === '%' || escape === '_')
    throw new Error(`invalid LIKE escape character: ${escape}`)
  let out = ''
  for (const ch of value) out += ch === '%' || ch === '_' || ch === escape ? escape + ch : ch
  return out
}

/** The complete LIKE pattern of a condition (wildcards added around the escaped value). */
export function likePattern(
  condition: Pick<LikeCondition, 'match' | 'value'>,
  escape: string = LIKE_ESCAPE
): string {
  const body = escapeLike(condition.value, escape)
  if (condition.match === 'startsWith') return `${body}%`
  if (condition.match === 'endsWith') return `%${body}`
  return `%${body}%`
}

/**
 * How the database's `lower()` folds case (what `lower(col) LIKE lower(?)` means):
 * - `ascii`: only A-Z fold (SQLite's built-in `lower()` and case-insensitive LIKE; PostgreSQL
 *   with a `C`/`POSIX` LC_CTYPE);
 * - `unicode`: Unicode simple lower-case mapping without language tailoring (PostgreSQL with a
 *   glibc `C.UTF-8` LC_CTYPE). Here two non-ASCII characters lower to ASCII letters as well:
 *   U+0130 (capital I with dot above) to `i`, U+212A (Kelvin sign) to `k`.
 */
export type CaseFolding = 'ascii' | 'unicode'

/** Half-open bounds `from <= s < below` (`below` null: no upper bound), in code-point order. */
export interface PrefixRange {
  from: string
  below: string | null
}

const MAX_CODE_POINT = 0x10ffff

/**
 * The smallest string above every string that starts with `prefix`, in code-point order
 * (UTF-8 byte order): the last code point incremented, dropped first when it is U+10FFFF
 * already. Null when every code point is U+10FFFF (no string bounds them).
 */
export function prefixSuccessor(prefix: string): string | null {
  const points = [...prefix].map((ch) => ch.codePointAt(0)!)
  while (points.length) {
    const last = points.pop()!
    if (last < MAX_CODE_POINT) {
      // Surrogates are not characters: nothing is encoded between U+D7FF and U+E000.
      return String.fromCodePoint(...points, last === 0xd7ff ? 0xe000 : last + 1)
    }
  }
  return null
}

/**
 * A sargable superset of `startsWith value` (`lower(col) LIKE lower('value%')` with the
 * wildcards of `value` escaped): every string the LIKE matches lies in `[from, below)` in
 * code-point order, so `col >= from AND col < below` may be ANDed to the LIKE (which stays and
 * decides) and lets an ordinary index on `col` serve the condition, in the index's order.
 *
 * Valid ONLY where `>=`/`<` on the column compare code points (UTF-8 bytes): SQLite's BINARY
 * collation on a UTF-8 database, PostgreSQL's `C`/`POSIX` (and glibc `C.UTF-8`) collations.
 * Under a linguistic collation (`en_US`, ICU) strings with a common prefix are not contiguous
 * (ignorable characters, contractions), and the range would drop rows.
 *
 * Case: each ASCII letter may appear in the row in either case, so the bounds use the smallest
 * variant (upper case) for `from` and the largest (lower case; for `unicode` folding U+0130 for
 * `i` and U+212A for `k`) for `below`. Under `unicode` folding the characters that lower to a
 * non-ASCII character are not enumerated: the range stops before the first non-ASCII character
 * of `value` (still a superset). Null when no bound helps (empty value, or the range would start
 * at the first character under `unicode` folding) or `value` is not well-formed UTF-16 (a lone
 * surrogate is sent to the database as U+FFFD).
 */
export function prefixRange(value: string, folding: CaseFolding): PrefixRange | null {
  if (/\p{Surrogate}/u.test(value)) return null
  let from = ''
  let top = ''
  for (const ch of value) {
    if (ch.codePointAt(0)! >= 0x80) {
      if (folding === 'unicode') break
      from += ch
      top += ch
      continue
    }
    const lower = ch.toLowerCase()
    const upper = ch.toUpperCase()
    from += upper
    if (folding === 'unicode' && lower === 'i') top += '\u0130'
    else if (folding === 'unicode' && lower === 'k') top += '\u212a'
    else top += lower
  }
  if (from === '') return null
  return { from, below: prefixSuccessor(top) }
}

/** Case variants enumerated by `prefixCaseRanges`: 2^3 = 8 ranges at most. */
export const MAX_CASE_LETTERS = 3

/**
 * A narrower sargable superset of `startsWith value` than `prefixRange` under `ascii` folding:
 * one exact range per case variant of the value's ASCII letters (`b05` -> `[B05, B06)` and
 * `[b05, b06)`), the value cut before its (MAX_CASE_LETTERS + 1)-th letter so that at most
 * 2^MAX_CASE_LETTERS ranges are made. OR-ed and ANDed to the LIKE, they let an index serve a
 * selective prefix whose single case-spanning range (`[B05, b06)`) would cover half the table.
 * Same validity as `prefixRange` (code-point order); null when no range helps.
 */
export function prefixCaseRanges(value: string): PrefixRange[] | null {
  if (/\p{Surrogate}/u.test(value)) return null
  let variants = ['']
  let letters = 0
  for (const ch of value) {
    const upper = ch.toUpperCase()
    const lower = ch.toLowerCase()
    if (ch.codePointAt(0)! < 0x80 && upper !== lower) {
      if (letters === MAX_CASE_LETTERS) break
      letters++
      variants = variants.flatMap((v) => [v + upper, v + lower])
    } else variants = variants.map((v) => v + ch)
  }
  if (variants[0] === '') return null
  return variants.map((from) => ({ from, below: prefixSuccessor(from) }))
}

function like(
  token: 'contains' | 'doesNotContain' | 'startsWith' | 'endsWith',
  match: LikeCondition['match'],
  negated: boolean
): OperatorDefinition {
  return {
    token,
    categories: new Set(['string']),
    valueRequired: true,
    build: ({ raw, target }) => ({
      family: 'like',
      match,
      negated,
      value: String(convertValue(target, raw)),
      caseInsensitive: true,
      escape: true,
    }),
  }
}

export const LIKE_OPERATORS: readonly OperatorDefinition[] = [
  like('contains', 'contains', false),
  like('doesNotContain', 'contains', true),
  like('startsWith', 'startsWith', false),
  like('endsWith', 'endsWith', false),
]
