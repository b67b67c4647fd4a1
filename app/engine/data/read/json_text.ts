/**
 * Entity JSON text with decimals as JSON numbers that keep their scale (`130.00`, `49.99`;
 * reference 4.3: upstream writes a BigDecimal's own text). JSON.stringify writes every number in
 * its shortest form (`130`) and Node 20 has no `JSON.rawJSON`, so a decimal is a `JsonNumber`:
 *
 * - inside `stringifyJson` its `toJSON` writes a marker string, `"\u007f<nonce><number text>"`,
 *   and the markers are then replaced by their number text;
 * - anywhere else (`JSON.stringify`, a response sent as an object, comparisons) it is the plain
 *   JS number, so the marker never leaves this module's stringify.
 *
 * Sound against injection: the nonce is 128 random bits of this process, never written out; the
 * text put in is checked to be a JSON number; and a marker is replaced only where it is a whole
 * JSON string value: its opening quote follows `:`, `,` or `[` (inside a string a quote is always
 * escaped as `\"`, so such a quote opens a string) and its closing quote is followed by `,`,
 * `}` or `]` (a key would be followed by `:`). A user string can therefore never become raw
 * JSON; the output is valid JSON whatever the values hold.
 */
import { randomBytes } from 'node:crypto'

/**
 * A marker is DEL (U+007F: JSON.stringify leaves it as it is, and a one-character search is a
 * fast scan where a 33-character pattern costs several µs per page) and the nonce.
 */
const LEAD = '\u007f'
const NONCE = randomBytes(16).toString('hex')
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/
/** stringifyJson calls in progress (JSON.stringify is synchronous: 0 or 1). */
let marking = 0

/** A number written with exactly this text (a valid JSON number). */
export class JsonNumber {
  constructor(readonly text: string) {}

  toJSON(): string | number {
    return marking > 0 ? LEAD + NONCE + this.text : Number(this.text)
  }

  valueOf(): number {
    return Number(this.text)
  }
}

/** A JsonNumber when `text` is a plain JSON number, else the JS number of it. */
export function jsonNumber(text: string): JsonNumber | number {
  return NUMBER.test(text) ? new JsonNumber(text) : Number(text)
}

/** JSON.stringify, with each JsonNumber written as its own text. */
export function stringifyJson(value: unknown): string {
  let text: string | undefined
  marking++
  try {
    text = JSON.stringify(value)
  } finally {
    marking--
  }
  if (text === undefined) return 'null'
  return text.includes(LEAD) ? unmark(text) : text
}

const QUOTE = 34
/** `:`, `,`, `[` before a value's opening quote; `,`, `}`, `]` after its closing quote. */
const opens = (c: number) => c === 58 || c === 44 || c === 91
const closes = (c: number) => c === 44 || c === 125 || c === 93

function unmark(text: string): string {
  let out = ''
  let from = 0
  for (let at = text.indexOf(LEAD); at !== -1; at = text.indexOf(LEAD, at + 1)) {
    // `"` LEAD NONCE number `"`, the opening quote at `open`
    const open = at - 1
    if (text.charCodeAt(open) !== QUOTE || !text.startsWith(NONCE, at + 1)) continue
    const start = at + 1 + NONCE.length
    const end = text.indexOf('"', start)
    if (end < 0) break
    const before = open === 0 ? 58 : text.charCodeAt(open - 1)
    const after = end + 1 === text.length ? 44 : text.charCodeAt(end + 1)
    if (!opens(before) || !closes(after)) continue
    const number = text.slice(start, end)
    if (!NUMBER.test(number)) continue
    out += text.slice(from, open) + number
    from = end + 1
  }
  return out + text.slice(from)
}

/** Strings JSON.stringify writes as they are, between quotes (any surrogate: let it decide). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

/**
 * `JSON.stringify(text)` for a string, about half the cost for the common one that needs no
 * escape (a name, a code, an id): checked by one regex, then quoted. The entity writer calls it
 * several times per row (json_writer.ts).
 */
export const quote = (text: string): string =>
  PLAIN.test(text) ? `"${text}"` : JSON.stringify(text)
