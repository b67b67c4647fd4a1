/**
 * The HTML document of a report without a template file: the report's name as the title, the
 * non-empty Root fields (parameters) as a small table, then one table per first-level band with
 * its layout's fields as columns; a child band's rows follow their parent row as a nested table
 * spanning the row. Print CSS keeps table headers on every page (PDF). Every text is escaped.
 */
import type { BandInstance, BandLayout, RenderJob } from '../types.js'
import { own } from './common.js'

const STYLE = `
@page { size: A4; margin: 14mm 12mm 16mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 9pt; color: #111; margin: 0; }
h1 { font-size: 15pt; margin: 0 0 8pt; }
h2 { font-size: 11pt; margin: 12pt 0 4pt; }
h3 { font-size: 9.5pt; margin: 4pt 0 2pt; color: #333; }
table { border-collapse: collapse; width: 100%; margin: 0 0 6pt; }
th, td { border: 0.5pt solid #999; padding: 2pt 4pt; text-align: left; vertical-align: top; }
th { background: #eee; font-weight: 600; }
thead { display: table-header-group; }
tr { page-break-inside: avoid; break-inside: avoid; }
td.nested { padding: 2pt 2pt 2pt 14pt; border-top: none; background: #fafafa; }
table.params { width: auto; }
table.params th { background: none; font-weight: 600; }
@media screen { body { margin: 16px; } }
`

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'
  )
}

/** The columns of a band: its layout fields, or (no layout) the first row's keys. */
function columns(layout: BandLayout | undefined, rows: BandInstance[]): string[] {
  if (layout && layout.fields.length) return layout.fields
  return rows.length ? Object.keys(rows[0].fields) : []
}

function bandTable(
  job: RenderJob,
  name: string,
  layout: BandLayout | undefined,
  rows: BandInstance[],
  level: number
): string[] {
  const cols = columns(layout, rows)
  const out: string[] = []
  const h = level === 0 ? 'h2' : 'h3'
  out.push(`<${h}>${escapeHtml(name)}</${h}>`)
  if (rows.length === 0) {
    out.push('<p class="empty">No rows</p>')
    return out
  }
  out.push(`<table class="band band-${escapeHtml(name)}"><thead><tr>`)
  for (const c of cols) out.push(`<th>${escapeHtml(c)}</th>`)
  out.push('</tr></thead><tbody>')
  for (const row of rows) {
    out.push('<tr>')
    for (const c of cols)
      out.push(`<td>${escapeHtml(job.value(name, c, own(row.fields, c)).text)}</td>`)
    out.push('</tr>')
    const children = childBands(layout, row)
    const nested = children.filter(([, , r]) => r.length > 0)
    if (nested.length) {
      out.push(`<tr><td class="nested" colspan="${Math.max(cols.length, 1)}">`)
      for (const [child, childLayout, childRows] of nested) {
        out.push(...bandTable(job, child, childLayout, childRows, level + 1))
      }
      out.push('</td></tr>')
    }
  }
  out.push('</tbody></table>')
  return out
}

function childBands(
  layout: BandLayout | undefined,
  row: BandInstance
): [string, BandLayout | undefined, BandInstance[]][] {
  const names = layout ? layout.children.map((c) => c.name) : Object.keys(row.bands)
  return names.map((n) => {
    const rows = own(row.bands, n)
    return [n, layout?.children.find((c) => c.name === n), Array.isArray(rows) ? rows : []]
  })
}

export function defaultHtml(job: RenderJob): string {
  const title = escapeHtml(job.report.name)
  const out: string[] = [
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>`,
    `<style>${STYLE}</style></head><body><h1>${title}</h1>`,
  ]
  const params = Object.keys(job.root.fields)
    .map((k) => [k, job.value('Root', k, job.root.fields[k]).text] as const)
    .filter(([, v]) => v !== '')
  if (params.length) {
    out.push('<table class="params"><tbody>')
    for (const [k, v] of params)
      out.push(`<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    out.push('</tbody></table>')
  }
  const top = job.layout.length
    ? job.layout.map((l) => [l.name, l] as const)
    : Object.keys(job.root.bands).map((n) => [n, undefined] as const)
  for (const [name, layout] of top) {
    const rows = own(job.root.bands, name)
    out.push(
      '<section>',
      ...bandTable(job, name, layout, Array.isArray(rows) ? rows : [], 0),
      '</section>'
    )
  }
  out.push('</body></html>')
  return out.join('')
}
