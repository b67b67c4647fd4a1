/**
 * The XLSX renderer's streamed outputs (app/reports/renderers/xlsx.ts): the template-less
 * workbook, a template with one large band (streaming writer), the output size limit on a
 * stream, and peak memory of a 10,000-row run measured in a child process.
 */
import { test } from '@japa/runner'
import { spawnSync } from 'node:child_process'
import ExcelJS from 'exceljs'
import { renderXlsx } from '../../app/reports/renderers/xlsx.js'
import { ReportError } from '../../app/reports/types.js'
import { band, job, layout, readBack } from './_reports_xlsx_fixtures.js'

function ordersRoot() {
  return band(
    'Root',
    { user: 'alice' },
    {
      Orders: [
        band(
          'Orders',
          { id: 1, customer: 'Ann', date: '2026-03-01', amount: 12.5 },
          {
            Lines: [
              band('Lines', { product: 'Pen', qty: 2 }),
              band('Lines', { product: 'Ink', qty: 1 }),
            ],
          }
        ),
        band(
          'Orders',
          { id: 2, customer: 'Bo', date: '2026-03-02T10:30:00Z', amount: 7 },
          { Lines: [] }
        ),
      ],
      Customers: [band('Customers', { name: 'Ann', vip: true })],
    }
  )
}

const ordersLayout = () => [
  layout('Orders', ['id', 'customer', 'date', 'amount'], [layout('Lines', ['product', 'qty'])]),
  layout('Customers', ['name', 'vip']),
]

function bigRoot(n: number) {
  const rows = Array.from({ length: n }, (_, i) =>
    band('Data', { id: i + 1, name: `Item ${i + 1}`, amount: i + 0.5, day: '2026-01-02' })
  )
  return band('Root', {}, { Header: [band('Header', { title: 'Big' })], Data: rows })
}

async function bigTemplate(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('List ${Header.title}')
  ws.getCell('A1').value = 'Title: ${title}'
  ws.getCell('A1').font = { bold: true, size: 14 }
  ;['Id', 'Name', 'Amount', 'Day'].forEach((t, i) => (ws.getCell(2, i + 1).value = t))
  ;['${id}', '${name}', '${amount}', '${day}'].forEach((t, i) => (ws.getCell(3, i + 1).value = t))
  ws.getCell('C3').numFmt = '#,##0.00'
  ws.getCell('D3').numFmt = 'dd.mm.yyyy'
  ws.getCell('C5').value = { formula: 'SUM(C3:C3)' } as ExcelJS.CellFormulaValue
  ws.getCell('B5').value = 'Total'
  ws.getColumn(2).width = 33
  wb.definedNames.add("'List ${Header.title}'!$A$1:$D$1", 'Header')
  wb.definedNames.add("'List ${Header.title}'!$A$3:$D$3", 'Data')
  return Buffer.from(await wb.xlsx.writeBuffer())
}

test.group('reports xlsx: without a template', () => {
  test('one sheet per first-level band, bold header, typed rows, child rows indented', async ({
    assert,
  }) => {
    const result = await renderXlsx(job(ordersRoot(), ordersLayout()))
    assert.property(result, 'stream')
    const wb = await readBack(result)
    assert.deepEqual(
      wb.worksheets.map((w) => w.name),
      ['Orders', 'Customers']
    )
    const ws = wb.getWorksheet('Orders')!
    assert.deepEqual(ws.getRow(1).values, [undefined, 'id', 'customer', 'date', 'amount'])
    assert.isTrue(ws.getCell('A1').font.bold)
    assert.equal(ws.getCell('A2').value, 1)
    assert.equal(ws.getCell('B2').value, 'Ann')
    assert.equal((ws.getCell('C2').value as Date).toISOString(), '2026-03-01T00:00:00.000Z')
    assert.equal(ws.getCell('C2').numFmt, 'yyyy-mm-dd')
    assert.equal(ws.getCell('D2').value, 12.5)
    // the child band: its name, then its fields one column in, then its rows (grouped)
    assert.deepEqual(ws.getRow(3).values, [undefined, 'Lines', 'product', 'qty'])
    assert.isTrue(ws.getCell('B3').font.bold)
    assert.deepEqual(ws.getRow(4).values, [undefined, undefined, 'Pen', 2])
    assert.deepEqual(ws.getRow(5).values, [undefined, undefined, 'Ink', 1])
    assert.equal(ws.getRow(4).outlineLevel, 1)
    // an order without lines has no child header
    assert.equal(ws.getCell('A6').value, 2)
    assert.equal(ws.getCell('C6').numFmt, 'yyyy-mm-dd hh:mm:ss')
    assert.isNull(ws.getCell('A7').value)
    const customers = wb.getWorksheet('Customers')!
    assert.deepEqual(customers.getRow(2).values, [undefined, 'Ann', true])
  })

  test('a stream over maxOutputBytes errors with 413 instead of ending', async ({ assert }) => {
    const result = await renderXlsx(
      job(bigRoot(3000), [layout('Data', ['id', 'name', 'amount', 'day'])], undefined, 5000)
    )
    const error = await readBack(result).catch((e) => e)
    assert.instanceOf(error, ReportError)
    assert.equal(error.status, 413)
    assert.equal(error.message, 'Report output exceeds 5000 bytes')
  })

  test('an aborted run errors the stream', async ({ assert }) => {
    const controller = new AbortController()
    const j = { ...job(bigRoot(5000), [layout('Data', ['id', 'name'])]), signal: controller.signal }
    const result = await renderXlsx(j)
    controller.abort()
    const error = await readBack(result).catch((e) => e)
    assert.instanceOf(error, ReportError)
    assert.equal(error.message, 'Report run cancelled')
  })
})

test.group('reports xlsx: one large band through the streaming writer', () => {
  test('10,000 rows keep the header rows, styles and widths; the total covers them all', async ({
    assert,
  }) => {
    const layouts = [layout('Header', ['title']), layout('Data', ['id', 'name', 'amount', 'day'])]
    const result = await renderXlsx(job(bigRoot(10000), layouts, await bigTemplate()))
    assert.property(result, 'stream')
    const wb = await readBack(result)
    const ws = wb.worksheets[0]
    assert.equal(ws.name, 'List Big')
    assert.equal(ws.getCell('A1').value, 'Title: Big')
    assert.isTrue(ws.getCell('A1').font.bold)
    assert.equal(ws.getCell('B2').value, 'Name')
    assert.equal(ws.getCell('A3').value, 1)
    assert.equal(ws.getCell('B10002').value, 'Item 10000')
    assert.equal(ws.getCell('C10002').value, 9999.5)
    assert.equal(ws.getCell('C10002').numFmt, '#,##0.00')
    assert.instanceOf(ws.getCell('D5000').value, Date)
    assert.equal(ws.getCell('D5000').numFmt, 'dd.mm.yyyy')
    assert.equal(ws.getCell('B10004').value, 'Total')
    assert.equal((ws.getCell('C10004').value as { formula: string }).formula, 'SUM(C3:C10002)')
    assert.equal(ws.getColumn(2).width, 33)
    const names = Object.fromEntries(
      (wb.definedNames.model as { name: string; ranges: string[] }[]).map((n) => [
        n.name,
        n.ranges[0],
      ])
    )
    assert.equal(names.Data, "'List Big'!$A$3:$D$10002")
  }).timeout(60000)

  test('a 10,000 x 8 run stays under 100 MB RSS above idle (child process)', async ({ assert }) => {
    for (const mode of ['template', 'plain']) {
      const run = spawnSync(
        process.execPath,
        ['scripts/bench_report_xlsx.js', mode, '--rows=10000'],
        {
          encoding: 'utf8',
        }
      )
      assert.equal(run.status, 0, run.stderr)
      const figures = JSON.parse(run.stdout.trim().split('\n').pop()!)
      console.log(`xlsx ${mode}: ${JSON.stringify(figures)}`)
      assert.equal(figures.result, 'stream')
      assert.isAbove(figures.bytes, 100000)
      assert.isBelow(figures.peakAboveIdleMB, 100)
    }
  }).timeout(120000)
})
