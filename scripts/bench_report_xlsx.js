/*
 * XLSX renderer benchmark (app/reports/renderers/xlsx.ts), no server needed:
 *   node scripts/bench_report_xlsx.js [--rows=10000]      every mode, one child process each
 *   node scripts/bench_report_xlsx.js <mode> [--rows=N]   one mode, prints one JSON line
 * Modes: `template` (a named-range template with one large band: the streaming writer),
 * `plain` (no template: the streaming writer), `buffered` (a master-detail template: rows/10
 * parents with 9 children each, filled in memory). Rows have 8 columns. "idle" is the RSS
 * once the modules are loaded and the band data is built (the data a run holds anyway);
 * "peak above idle" is the process's peak RSS (getrusage) minus idle; the output is drained
 * and counted, not kept.
 */
import './ts_loader.js'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const MODES = ['template', 'plain', 'buffered']
const rowsArg = Number(process.argv.find((a) => a.startsWith('--rows='))?.split('=')[1] ?? 10000)
const mode = process.argv.slice(2).find((a) => MODES.includes(a))

if (!mode) {
  const self = fileURLToPath(import.meta.url)
  for (const m of MODES) {
    const run = spawnSync(process.execPath, [self, m, `--rows=${rowsArg}`], { encoding: 'utf8' })
    if (run.status !== 0) {
      console.error(run.stderr)
      process.exit(1)
    }
    const r = JSON.parse(run.stdout.trim().split('\n').pop())
    console.log(
      `xlsx ${r.mode.padEnd(8)} ${r.rows} rows x 8: ${r.ms} ms, ${(r.bytes / 1e6).toFixed(2)} MB, ` +
        `peak RSS above idle ${r.peakAboveIdleMB} MB (idle ${r.idleMB} MB, ${r.result})`
    )
  }
  process.exit(0)
}

const ExcelJS = (await import('exceljs')).default
const { renderXlsx } = await import('../app/reports/renderers/xlsx.js')

const FIELDS = ['id', 'number', 'date', 'text', 'amount', 'qty', 'status', 'city']
const CITIES = ['Zürich', 'Łódź', 'São Paulo', 'Köln', 'Malmö']

function makeRow(i, name = 'Data') {
  return {
    name,
    fields: {
      id: i,
      number: `ORD-${String(i).padStart(6, '0')}`,
      date: new Date(Date.UTC(2026, 0, 1) + (i % 365) * 86400000).toISOString().slice(0, 10),
      text: `Item ${i} Ä "quotes", <tag>`,
      amount: Math.round(i * 137.31) / 100,
      qty: i % 17,
      status: ['NEW', 'PAID', 'SHIPPED'][i % 3],
      city: CITIES[i % CITIES.length],
    },
    bands: {},
  }
}

function value(_band, _field, raw) {
  if (raw === null || raw === undefined) return { text: '', native: null }
  if (typeof raw === 'number' || typeof raw === 'boolean') return { text: String(raw), native: raw }
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return { text: raw, native: new Date(`${raw}T00:00:00Z`) }
  return { text: String(raw), native: raw }
}

async function template(withChild) {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('Orders ${Header.title}')
  ws.getCell('A1').value = '${title}'
  ws.getCell('A1').font = { bold: true, size: 14 }
  FIELDS.forEach((f, i) => {
    ws.getCell(2, i + 1).value = f
    ws.getCell(3, i + 1).value = `\${${f}}`
    ws.getColumn(i + 1).width = 14
  })
  ws.getCell('C3').numFmt = 'dd.mm.yyyy'
  ws.getCell('E3').numFmt = '#,##0.00'
  let next = 4
  if (withChild) {
    ws.getCell('B4').value = '${number}'
    ws.getCell('E4').value = '${amount}'
    wb.definedNames.add("'Orders ${Header.title}'!$A$4:$H$4", 'Lines')
    next = 5
  }
  ws.getCell(next + 1, 5).value = { formula: 'SUM(E3:E3)' }
  wb.definedNames.add("'Orders ${Header.title}'!$A$1:$H$1", 'Header')
  wb.definedNames.add("'Orders ${Header.title}'!$A$3:$H$3", 'Data')
  return Buffer.from(await wb.xlsx.writeBuffer())
}

const n = rowsArg
let root
let layout = [
  { name: 'Header', orientation: 'HORIZONTAL', fields: ['title'], children: [] },
  { name: 'Data', orientation: 'HORIZONTAL', fields: FIELDS, children: [] },
]
if (mode === 'buffered') {
  const parents = Array.from({ length: Math.round(n / 10) }, (_, p) => {
    const row = makeRow(p)
    row.bands.Lines = Array.from({ length: 9 }, (_, c) => makeRow(p * 9 + c, 'Lines'))
    return row
  })
  root = { name: 'Root', fields: {}, bands: { Header: [{ name: 'Header', fields: { title: 'Bench' }, bands: {} }], Data: parents } }
  layout[1].children = [{ name: 'Lines', orientation: 'HORIZONTAL', fields: FIELDS, children: [] }]
} else {
  root = {
    name: 'Root',
    fields: {},
    bands: {
      Header: [{ name: 'Header', fields: { title: 'Bench' }, bands: {} }],
      Data: Array.from({ length: n }, (_, i) => makeRow(i)),
    },
  }
}
if (mode === 'plain') layout = layout.slice(1)
const content = mode === 'plain' ? undefined : await template(mode === 'buffered')

globalThis.gc?.()
await new Promise((r) => setTimeout(r, 50))
const idle = process.memoryUsage().rss
const started = performance.now()
const result = await renderXlsx({
  report: { id: 'bench', name: 'Bench' },
  root,
  layout,
  template: { code: 'DEFAULT', outputType: 'XLSX' },
  content,
  value,
  maxOutputBytes: 200e6,
  signal: new AbortController().signal,
})
let bytes = 0
if ('body' in result) bytes = result.body.length
else for await (const chunk of result.stream) bytes += chunk.length
const ms = Math.round(performance.now() - started)
const peak = process.resourceUsage().maxRSS * 1024
const mb = (x) => Math.round((x / 1048576) * 10) / 10
console.log(
  JSON.stringify({
    mode,
    rows: n,
    ms,
    bytes,
    result: 'body' in result ? 'body' : 'stream',
    idleMB: mb(idle),
    peakMB: mb(peak),
    peakAboveIdleMB: mb(peak - idle),
  })
)
