/**
 * CSV, streamed with csv-stringify (RFC 4180: CRLF records, quotes only where needed, doubled
 * quotes), `escape_formulas` against spreadsheet injection (a cell starting `=`, `+`, `-`, `@`,
 * tab or CR gets a leading `'`; a negative number stays a number), delimiter and BOM from the
 * template's `options`. Records are produced 500 at a time as the reader pulls them.
 *
 * Without a template file: the header is the first first-level band's layout fields and the rows
 * are that band's instances (other bands are not in the file). With a CSV template (Jmix): the
 * lines without `${...}` are header lines, the line with `${field}` aliases gives the columns and
 * (between its aliases) the separator; the rows are every first-level band's instances, as
 * upstream. `${Root.alias}` in the alias line prints the parameter in every row.
 */
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream'
import { stringify } from 'csv-stringify/sync'
import { ReportError, type BandInstance, type RenderJob, type RenderResult } from '../types.js'
import { byteLimit, checkAborted, own } from './common.js'

const BATCH = 500
const NEGATIVE_NUMBER = /^-\d[\d.,\s\u00a0\u202f'’]*%?$/

interface Plan {
  header: string[][]
  columns: string[]
  delimiter: string
  /** The bands whose instances are the rows. */
  bands: string[]
}

/** Splits one template line on `sep`, honouring double quotes. */
function splitLine(line: string, sep: string): string[] {
  const cells: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"' && cell === '') quoted = true
    else if (line.startsWith(sep, i)) {
      cells.push(cell)
      cell = ''
      i += sep.length - 1
    } else cell += c
  }
  cells.push(cell)
  return cells
}

function plan(job: RenderJob): Plan {
  const configured = job.template.options?.delimiter
  const firstLevel = job.layout.length ? job.layout.map((l) => l.name) : Object.keys(job.root.bands)
  if (!job.content) {
    const first = firstLevel[0]
    const layout = job.layout[0]
    const rows = first ? own(job.root.bands, first) : undefined
    const columns = layout?.fields.length ? layout.fields : Object.keys(rows?.[0]?.fields ?? {})
    return { header: [columns], columns, delimiter: configured || ',', bands: first ? [first] : [] }
  }
  const lines = job.content
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
  const aliasLine = lines.find((l) => l.includes('${'))
  if (!aliasLine) throw new ReportError('The CSV template has no line with ${field} aliases')
  const columns = [...aliasLine.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1].trim())
  const between = aliasLine
    .replace(/\$\{[^}]*\}/g, '\u0000')
    .split('\u0000')
    .slice(1, -1)
  const detected = between.map((s) => s.trim() || s).find((s) => s.length > 0)
  const delimiter = configured || detected || ','
  const header = lines
    .filter((l) => l !== aliasLine && l.trim() !== '')
    .map((l) => splitLine(l, delimiter))
  return { header, columns, delimiter, bands: firstLevel }
}

function cellOf(
  job: RenderJob,
  band: string,
  row: BandInstance,
  alias: string
): [string | number, string] {
  let from = band
  let fields = row.fields
  let field = alias
  const dot = alias.indexOf('.')
  if (dot > 0 && (alias.slice(0, dot) === 'Root' || alias.slice(0, dot) === band)) {
    if (alias.slice(0, dot) === 'Root') {
      from = 'Root'
      fields = job.root.fields
    }
    field = alias.slice(dot + 1)
  }
  const v = job.value(from, field, own(fields, field))
  if (typeof v.native === 'number' && NEGATIVE_NUMBER.test(v.text)) return [v.native, v.text]
  return [v.text, v.text]
}

async function* records(job: RenderJob, p: Plan): AsyncGenerator<string> {
  let first = true
  let rows: (string | number)[][] = p.header.slice()
  let texts: string[][] = p.header.slice()
  const flush = () => {
    const out = stringify(rows, {
      delimiter: p.delimiter,
      bom: first && job.template.options?.bom === true,
      escape_formulas: true,
      record_delimiter: 'windows',
      cast: { number: (value, ctx) => texts[ctx.records]?.[ctx.index] ?? String(value) },
    })
    first = false
    rows = []
    texts = []
    return out
  }
  for (const band of p.bands) {
    const instances = own(job.root.bands, band) ?? []
    for (const row of instances) {
      const pairs = p.columns.map((c) => cellOf(job, band, row, c))
      rows.push(pairs.map((x) => x[0]))
      texts.push(pairs.map((x) => x[1]))
      if (rows.length >= BATCH) {
        checkAborted(job.signal)
        yield flush()
      }
    }
  }
  if (rows.length || first) yield flush()
}

export async function renderCsv(job: RenderJob): Promise<RenderResult> {
  checkAborted(job.signal)
  const p = plan(job)
  const source = Readable.from(records(job, p), { objectMode: false })
  const limit = byteLimit(job.maxOutputBytes)
  const onAbort = () =>
    source.destroy(
      job.signal.reason instanceof Error
        ? job.signal.reason
        : new ReportError('The report run was cancelled', 500)
    )
  job.signal.addEventListener('abort', onAbort, { once: true })
  pipeline(source, limit, () => job.signal.removeEventListener('abort', onAbort))
  return { stream: limit }
}
