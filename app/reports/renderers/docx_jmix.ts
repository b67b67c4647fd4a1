/**
 * Jmix DOCX template syntax -> docxtemplater tags, at the XML level of one part
 * (`word/document.xml`, headers, footers). Word splits text across runs (`<w:r><w:t>`), so every
 * table row is read as the concatenation of its `<w:t>` texts and edited by offsets into those
 * texts: a `##band=Name` marker split over several runs is found and removed, and the row to
 * repeat (the first with an unqualified `${field}`) gets `${-w:tr Name}` before its first text
 * and `${/Name}` after its last. The `${...}` tags themselves stay as they are: docxtemplater
 * (delimiters `${` and `}`) merges a tag split across runs while parsing. One pass, linear.
 */

const TOKEN = /<(\/?)(w:tbl|w:tr|w:t)(?=[\s>/])([^>]*)>/g
const MARKER = /##band=([A-Za-z_0-9]+) */
const TAG = /\$\{([^}]*)\}/g

/** A `<w:t>` text: raw offsets into the part's XML. */
interface Seg {
  start: number
  end: number
}
interface Row {
  /** The row's own texts (a nested table's belong to its rows). */
  segs: Seg[]
  /** The first and last texts anywhere inside the row, nested tables included. */
  first?: Seg
  last?: Seg
}
interface Table {
  rows: Row[]
  /** 0 for a top-level table, 1 for a table in a cell of one... */
  depth: number
}
interface Edit {
  at: number
  remove: number
  insert: string
  /** Order of insertions at one offset (lower first): inner loops close first, outer open first. */
  rank: number
}

/** Is `${tag}` unqualified, i.e. a field of the row's own band (`customer.name` counts)? */
function unqualified(tag: string, bands: ReadonlySet<string>): boolean {
  const t = tag.trim()
  if (!t || /^[#/^@-]/.test(t)) return false
  const dot = t.indexOf('.')
  if (dot < 0) return true
  const head = t.slice(0, dot)
  return head !== 'Root' && !bands.has(head)
}

function scan(xml: string): Table[] {
  const done: Table[] = []
  const tables: Table[] = []
  const rows: Row[] = []
  TOKEN.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = TOKEN.exec(xml))) {
    const [whole, close, name, attrs] = m
    const selfClosing = attrs.endsWith('/')
    if (name === 'w:tbl') {
      if (close) {
        const t = tables.pop()
        if (t) done.push(t)
      } else if (!selfClosing) tables.push({ rows: [], depth: tables.length })
    } else if (name === 'w:tr') {
      if (close) rows.pop()
      else if (!selfClosing) {
        const row: Row = { segs: [] }
        tables[tables.length - 1]?.rows.push(row)
        rows.push(row)
      }
    } else if (!close && !selfClosing) {
      const start = m.index + whole.length
      const end = xml.indexOf('</w:t>', start)
      if (end < 0) break
      const seg = { start, end }
      rows[rows.length - 1]?.segs.push(seg)
      for (const r of rows) {
        r.first ??= seg
        r.last = seg
      }
      TOKEN.lastIndex = end + 6
    }
  }
  return done
}

const rowText = (xml: string, row: Row) => row.segs.map((s) => xml.slice(s.start, s.end)).join('')

/** Removes `[from, to)` of a row's concatenated text: one edit per `<w:t>` it spans. */
function removeSpan(row: Row, from: number, to: number, edits: Edit[]) {
  let offset = 0
  for (const seg of row.segs) {
    const len = seg.end - seg.start
    const a = Math.max(from, offset)
    const b = Math.min(to, offset + len)
    if (a < b) edits.push({ at: seg.start + (a - offset), remove: b - a, insert: '', rank: 0 })
    offset += len
  }
}

/**
 * The part with Jmix band tables turned into docxtemplater row loops. `bands`: the report's
 * band names (a `${X.y}` whose `X` is a band is not a row field). Returns the bands found.
 */
export function translateJmixPart(
  xml: string,
  bands: ReadonlySet<string>
): { xml: string; tables: string[] } {
  if (!xml.includes('<w:tbl')) return { xml, tables: [] }
  const edits: Edit[] = []
  const found: string[] = []
  for (const table of scan(xml)) {
    // Upstream reads the marker in the first row only; a later row carrying it works here too.
    let at = -1
    let marker: RegExpExecArray | null = null
    for (const [i, row] of table.rows.entries()) {
      marker = MARKER.exec(rowText(xml, row))
      if (marker) {
        at = i
        break
      }
    }
    if (!marker) continue
    const band = marker[1]
    const [from, to] = [marker.index, marker.index + marker[0].length]
    found.push(band)
    removeSpan(table.rows[at], from, to, edits)
    for (const [i, row] of table.rows.entries()) {
      let t = rowText(xml, row)
      if (i === at) t = t.slice(0, from) + t.slice(to)
      const tags = [...t.matchAll(TAG)].map((x) => x[1])
      if (!tags.some((x) => unqualified(x, bands)) || !row.first || !row.last) continue
      edits.push({
        at: row.first.start,
        remove: 0,
        insert: `\${-w:tr ${band}}`,
        rank: 1000 + table.depth,
      })
      edits.push({ at: row.last.end, remove: 0, insert: `\${/${band}}`, rank: -table.depth })
      break
    }
  }
  // Applied from the end backwards: at one offset the removal first (its text follows the
  // insertions), then the insertions last-in-text first.
  edits.sort((a, b) => b.at - a.at || b.remove - a.remove || b.rank - a.rank)
  const parts: string[] = []
  let tail = xml.length
  for (const e of edits) {
    parts.push(xml.slice(e.at + e.remove, tail), e.insert)
    tail = e.at
  }
  parts.push(xml.slice(0, tail))
  return { xml: parts.reverse().join(''), tables: found }
}
