/**
 * An instance-name pattern filled in (`{title} ({publisher.name})`): the literals around the
 * paths, with the paths' texts. When a part is empty (a null value or a null reference), its
 * brackets go with it and only one separator stays between the parts that remain:
 * `Second Book`, not `Second Book ()`; `Brontë`, not ` Brontë`; `Street, City`, not
 * `Street,  City`. Upstream's instance names come from an `@InstanceName` property or method,
 * so the reference has no rule for a pattern; with every part present the text is exact.
 */

const OPENING = '([{<«“‘'
const CLOSING = ')]}>»”’'

/** A literal between two parts: closing brackets of the left one, separator, opening ones. */
function split(literal: string) {
  let start = 0
  while (start < literal.length && CLOSING.includes(literal[start])) start++
  let end = literal.length
  while (end > start && OPENING.includes(literal[end - 1])) end--
  return {
    close: literal.slice(0, start),
    sep: literal.slice(start, end),
    open: literal.slice(end),
  }
}

/** The separator kept between two parts when those between them are empty: the most telling. */
function strongest(separators: string[]): string {
  let best = separators[0]
  for (const s of separators) if (s.trim().length > best.trim().length) best = s
  return best
}

/** Text before the first part (after the last), kept if that part is empty only with words. */
const words = (text: string) => (/[\p{L}]/u.test(text) ? text : '')

export function fillPattern(literals: readonly string[], texts: readonly string[]): string {
  if (texts.every((t) => t !== '')) {
    let result = literals[0]
    for (let i = 0; i < texts.length; i++) result += texts[i] + literals[i + 1]
    return result
  }
  const n = texts.length
  const head = split(literals[0]) // head.close is empty: nothing precedes it.
  const tail = split(literals[n])
  const inner = literals.slice(1, n).map(split)
  const open = (i: number) => (i === 0 ? head.open : inner[i - 1].open)
  const close = (i: number) => (i === n - 1 ? tail.close : inner[i].close)
  const present = texts.flatMap((t, i) => (t === '' ? [] : [i]))
  if (present.length === 0) return (words(head.sep) + words(tail.sep + tail.open)).trim()
  let result = present[0] === 0 ? literals[0] : words(head.sep)
  present.forEach((i, k) => {
    if (k > 0) result += strongest(inner.slice(present[k - 1], i).map((l) => l.sep))
    result += open(i) + texts[i] + close(i)
  })
  const last = present[present.length - 1]
  result += last === n - 1 ? tail.sep + tail.open : words(tail.sep + tail.open)
  return result.trim()
}
