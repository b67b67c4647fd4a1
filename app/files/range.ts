/**
 * The `Range` header of a download (RFC 9110 14.2): one byte range is honoured; several ranges
 * are ignored (the whole file, as RFC 9110 allows), so a header of a thousand ranges costs one
 * regular expression (catalogue FL18). Pure.
 */
export type RangeAnswer =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' }

const SINGLE = /^bytes=(\d{0,15})-(\d{0,15})$/

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'full' }
  const m = SINGLE.exec(header.trim())
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' }
  if (m[1] === '') {
    // Suffix range: the last n bytes.
    const n = Number(m[2])
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 }
  }
  const start = Number(m[1])
  if (start >= size) return { kind: 'unsatisfiable' }
  const end = m[2] === '' ? size - 1 : Number(m[2])
  if (end < start) return { kind: 'full' }
  return { kind: 'partial', start, end: Math.min(end, size - 1) }
}
