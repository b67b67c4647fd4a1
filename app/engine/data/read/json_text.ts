/**
 * Entity JSON text with decimals as JSON numbers that keep their scale (`130.00`, `49.99`;
 * reference 4.3: upstream writes a BigDecimal's own text). JSON.stringify writes every number in
 * its shortest form (`130`) and Node 20 has no `JSON.rawJSON`, so a decimal is a `JsonNumber`:
 *
 * - inside `stringifyJson` its `toJSON` writes a marker string, `"<nonce><number text>"`, and
 *   the markers are then replaced by their number text;
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

const NONCE = randomBytes(16).toString('hex')
/** The opening quote and the nonce: how a marker starts in JSON text. */
const MARK = `"${NONCE}`
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/
/** stringifyJson calls in progress (JSON.stringify is synchronous: 0 or 1). */
let marking = 0

/** A number written with exactly this text (a valid JSON number). */
export class JsonNumber {
  constructor(readonly text: string) {}

  toJSON(): string | number {
    return marking > 0 ? NONCE + this.text : Number(this.text)
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
  return text.includes(MARK) ? unmark(text) : text
}

const OPENERS = ':,['
const CLOSERS = ',}]'

function unmark(text: string): string {
  let out = ''
  let from = 0
  for (let at = text.indexOf(MARK); at !== -1; at = text.indexOf(MARK, at + 1)) {
    const start = at + MARK.length
    const end = text.indexOf('"', start)
    if (end < 0) break
    const before = at === 0 ? ':' : text[at - 1]
    const after = end + 1 === text.length ? ',' : text[end + 1]
    const number = text.slice(start, end)
    if (!OPENERS.includes(before) || !CLOSERS.includes(after) || !NUMBER.test(number)) continue
    out += text.slice(from, at) + number
    from = end + 1
  }
  return out + text.slice(from)
}
