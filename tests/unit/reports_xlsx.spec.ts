/**
 * The XLSX renderer from an uploaded template (app/reports/renderers/xlsx.ts): templates are
 * built with exceljs here in Jmix's convention, rendered, and the result read back with
 * exceljs: band rows, typed cells, shifted and widened formulas, merges, names, sheet names.
 */
import { test } from '@japa/runner'
import ExcelJS from 'exceljs'
import { renderXlsx } from '../../app/reports/renderers/xlsx.js'
import type { BandInstance } from '../../app/reports/types.js'
import { ReportError } from '../../app/reports/types.js'
import { band, job, layout, readBack } from './_reports_xlsx_fixtures.js'

const SHEET = 'Orders ${Header.title}'

/** Header A1:G2, column titles row 3, Data A4:G4 with child Lines A5:G5, totals row 7, a note row 8. */
async function masterDetailTemplate(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet(SHEET)
  ws.getCell('A1').value = '${title}'
  ws.getCell('A2').value = 'Generated for ${user}'
  ;['Id', 'Customer', '', 'Date', 'Amount', 'Double', 'Paid'].forEach((t, i) => {
    ws.getCell(3, i + 1).value = t
  })
  ws.getCell('A4').value = '${id}'
  ws.getCell('B4').value = '${customer}'
  ws.mergeCells('B4:C4')
  ws.getCell('D4').value = '${date}'
  ws.getCell('D4').numFmt = 'dd.mm.yyyy'
  ws.getCell('E4').value = '${amount}'
  ws.getCell('E4').numFmt = '#,##0.00'
  ws.getCell('E4').font = { bold: true }
  ws.getCell('F4').value = { formula: 'E4*2' } as ExcelJS.CellFormulaValue
  ws.getCell('G4').value = '${paid}'
  ws.getRow(4).height = 24
  ws.getCell('B5').value = 'Line: ${product} x ${qty}'
  ws.getCell('C5').value = '${qty}'
  ws.getCell('D7').value = 'Total'
  ws.getCell('C7').value = { formula: 'SUM(C5:C5)' } as ExcelJS.CellFormulaValue
  ws.getCell('E7').value = { formula: 'SUM(E4:E4)' } as ExcelJS.CellFormulaValue
  ws.getCell('F7').value = { formula: 'SUM($F$4:$F$4)+E7' } as ExcelJS.CellFormulaValue
  ws.getCell('A8').value = 'Report by ${Root.user} for ${Header.title}: "${Unknown.x}"'
  ws.headerFooter.oddHeader = '&CReport ${Header.title}'
  ws.getColumn(2).width = 30
  const sum = wb.addWorksheet('Summary')
  sum.getCell('A1').value = { formula: `SUM('${SHEET}'!E4:E4)` } as ExcelJS.CellFormulaValue
  sum.getCell('A2').value = '${Header.title}'
  sum.getCell('A4').value = 'Month'
  sum.getCell('A5').value = 'Value'
  sum.getCell('B4').value = '${month}'
  sum.getCell('B5').value = '${value}'
  sum.getCell('C4').value = 'after'
  sum.getCell('D5').value = { formula: 'SUM(B5:B5)' } as ExcelJS.CellFormulaValue
  sum.getColumn(2).width = 17
  wb.definedNames.add(`'${SHEET}'!$A$1:$G$2`, 'Header')
  wb.definedNames.add(`'${SHEET}'!$A$4:$G$4`, 'Data')
  wb.definedNames.add(`'${SHEET}'!$A$5:$G$5`, 'Lines')
  wb.definedNames.add(`'${SHEET}'!$E$7`, 'GrandTotal')
  wb.definedNames.add(`'Summary'!$B$4:$B$5`, 'Months')
  wb.definedNames.add(`'Summary'!$A$10:$B$10`, 'NotABand')
  return Buffer.from(await wb.xlsx.writeBuffer())
}

function masterDetailData(): BandInstance {
  return band(
    'Root',
    { user: 'alice' },
    {
      Header: [band('Header', { title: 'Q1', user: 'bob' })],
      Data: [
        band(
          'Data',
          { id: 1, customer: 'Ann', date: '2026-01-15', amount: 10.5, paid: true },
          {
            Lines: [
              band('Lines', { product: 'Pen', qty: 2 }),
              band('Lines', { product: 'Ink', qty: 3 }),
            ],
          }
        ),
        band(
          'Data',
          { id: 2, customer: 'Bo', date: '2026-02-01', amount: 20, paid: false },
          { Lines: [] }
        ),
        band(
          'Data',
          { id: 3, customer: 'Cy', date: null, amount: 30, paid: true },
          {
            Lines: [band('Lines', { product: 'Pad', qty: 5 })],
          }
        ),
      ],
      Months: ['Jan', 'Feb', 'Mar'].map((m, i) => band('Months', { month: m, value: i + 1 })),
    }
  )
}

const masterDetailLayout = () => [
  layout('Header', ['title', 'user']),
  layout(
    'Data',
    ['id', 'customer', 'date', 'amount', 'paid'],
    [layout('Lines', ['product', 'qty'])]
  ),
  layout('Months', ['month', 'value'], [], true),
]

function formulaOf(ws: ExcelJS.Worksheet, address: string): string | undefined {
  const v = ws.getCell(address).value as { formula?: string } | null
  return v?.formula
}

test.group('reports xlsx: template bands', () => {
  test('master-detail rows print in order with typed values and styles', async ({ assert }) => {
    const result = await renderXlsx(
      job(masterDetailData(), masterDetailLayout(), await masterDetailTemplate())
    )
    assert.property(result, 'body')
    const wb = await readBack(result)
    const ws = wb.worksheets[0]
    assert.equal(ws.name, 'Orders Q1')
    assert.equal(ws.getCell('A1').value, 'Q1')
    assert.equal(ws.getCell('A2').value, 'Generated for bob')
    assert.equal(ws.getCell('A3').value, 'Id')
    const col = (c: string) => [4, 5, 6, 7, 8, 9].map((r) => ws.getCell(`${c}${r}`).value)
    assert.deepEqual(col('A'), [1, null, null, 2, 3, null])
    assert.deepEqual(col('B'), [
      'Ann',
      'Line: Pen x 2',
      'Line: Ink x 3',
      'Bo',
      'Cy',
      'Line: Pad x 5',
    ])
    assert.deepEqual(col('C').slice(1, 3), [2, 3])
    assert.deepEqual(col('E'), [10.5, null, null, 20, 30, null])
    assert.deepEqual(col('G'), [true, null, null, false, true, null])
    const date = ws.getCell('D4').value as Date
    assert.instanceOf(date, Date)
    assert.equal(date.toISOString(), '2026-01-15T00:00:00.000Z')
    assert.equal(ws.getCell('D4').numFmt, 'dd.mm.yyyy')
    assert.isNull(ws.getCell('D8').value)
    assert.equal(ws.getCell('E7').numFmt, '#,##0.00')
    assert.isTrue(ws.getCell('E8').font.bold)
    assert.equal(ws.getRow(7).height, 24)
    assert.equal(ws.getColumn(2).width, 30)
  })

  test('formulas move with their rows and widen over every band row', async ({ assert }) => {
    const wb = await readBack(
      await renderXlsx(job(masterDetailData(), masterDetailLayout(), await masterDetailTemplate()))
    )
    const ws = wb.worksheets[0]
    assert.deepEqual(
      ['F4', 'F7', 'F8'].map((a) => formulaOf(ws, a)),
      ['E4*2', 'E7*2', 'E8*2']
    )
    assert.equal(ws.getCell('D11').value, 'Total')
    assert.equal(formulaOf(ws, 'E11'), 'SUM(E4:E8)')
    assert.equal(formulaOf(ws, 'C11'), 'SUM(C5:C9)')
    assert.equal(formulaOf(ws, 'F11'), 'SUM($F$4:$F$8)+E11')
    // a band name nobody declared is not an alias: the text stays as written
    assert.equal(ws.getCell('A12').value, 'Report by alice for Q1: "${Unknown.x}"')
    assert.equal(formulaOf(wb.getWorksheet('Summary')!, 'A1'), "SUM('Orders Q1'!E4:E8)")
    assert.equal(ws.headerFooter.oddHeader, '&CReport Q1')
  })

  test('merged cells repeat per band row; defined names cover the copies', async ({ assert }) => {
    const wb = await readBack(
      await renderXlsx(job(masterDetailData(), masterDetailLayout(), await masterDetailTemplate()))
    )
    const ws = wb.worksheets[0]
    const merges = (ws.model as unknown as { merges: string[] }).merges.sort()
    assert.deepEqual(merges, ['B4:C4', 'B7:C7', 'B8:C8'])
    const names = Object.fromEntries(
      (wb.definedNames.model as { name: string; ranges: string[] }[]).map((n) => [
        n.name,
        n.ranges[0],
      ])
    )
    assert.equal(names.Header, "'Orders Q1'!$A$1:$G$2")
    assert.equal(names.Data, "'Orders Q1'!$A$4:$G$8")
    assert.equal(names.Lines, "'Orders Q1'!$A$5:$G$9")
    assert.equal(names.GrandTotal, "'Orders Q1'!$E$11")
    assert.equal(names.Months, 'Summary!$B$4:$D$5')
    assert.equal(names.NotABand, 'Summary!$A$10:$B$10')
  })

  test('a vertical band copies to the right and moves what is beside it', async ({ assert }) => {
    const wb = await readBack(
      await renderXlsx(job(masterDetailData(), masterDetailLayout(), await masterDetailTemplate()))
    )
    const ws = wb.getWorksheet('Summary')!
    assert.equal(ws.getCell('A2').value, 'Q1')
    assert.deepEqual(
      ['A4', 'B4', 'C4', 'D4', 'E4'].map((a) => ws.getCell(a).value),
      ['Month', 'Jan', 'Feb', 'Mar', 'after']
    )
    assert.deepEqual(
      ['B5', 'C5', 'D5'].map((a) => ws.getCell(a).value),
      [1, 2, 3]
    )
    assert.equal(formulaOf(ws, 'F5'), 'SUM(B5:D5)')
    assert.deepEqual(
      [2, 3, 4].map((c) => ws.getColumn(c).width),
      [17, 17, 17]
    )
  })

  test('a first-level band with no rows keeps one empty row: the totals below read 0', async ({
    assert,
  }) => {
    const root = band(
      'Root',
      { user: 'alice' },
      {
        Header: [band('Header', { title: 'Empty', user: 'bob' })],
        Data: [],
        Months: [],
      }
    )
    const wb = await readBack(
      await renderXlsx(job(root, masterDetailLayout(), await masterDetailTemplate()))
    )
    const ws = wb.worksheets[0]
    assert.equal(ws.name, 'Orders Empty')
    assert.equal(ws.getCell('A3').value, 'Id')
    assert.isNull(ws.getCell('A4').value)
    const rows: [number, string | null][] = []
    for (let n = 1; n <= ws.rowCount; n++) rows.push([n, formulaOf(ws, `E${n}`) ?? null])
    const total = rows.find(([n]) => ws.getCell(`D${n}`).value === 'Total')
    assert.isDefined(total, JSON.stringify(rows))
    assert.notInclude(String(total![1]), '#REF!')
    assert.match(String(total![1]), /^SUM\(E4:E4\)$/)
    const names = (wb.definedNames.model as { name: string }[]).map((n) => n.name).sort()
    assert.includeMembers(names, ['Data', 'Header'])
  })

  test('shared formulas in a band become one formula per row', async ({ assert }) => {
    const tpl = new ExcelJS.Workbook()
    const ws = tpl.addWorksheet('S')
    ws.getCell('A2').value = '${n}'
    ws.getCell('B2').value = { formula: 'A2*10' } as ExcelJS.CellFormulaValue
    ws.getCell('C2').value = { sharedFormula: 'B2' } as ExcelJS.CellSharedFormulaValue
    ws.getCell('A4').value = { formula: 'SUM(C2:C2)' } as ExcelJS.CellFormulaValue
    tpl.definedNames.add('S!$A$2:$C$2', 'Rows')
    const content = Buffer.from(await tpl.xlsx.writeBuffer())
    const root = band('Root', {}, { Rows: [1, 2].map((n) => band('Rows', { n })) })
    const wb = await readBack(await renderXlsx(job(root, [layout('Rows', ['n'])], content)))
    const out = wb.worksheets[0]
    assert.deepEqual(
      ['C2', 'C3'].map((a) => formulaOf(out, a)),
      ['B2*10', 'B3*10']
    )
    assert.equal(formulaOf(out, 'A5'), 'SUM(C2:C3)')
  })

  test('a template without defined names is refused; unknown ranges are ignored', async ({
    assert,
  }) => {
    const tpl = new ExcelJS.Workbook()
    tpl.addWorksheet('S').getCell('A1').value = '${x}'
    const bare = Buffer.from(await tpl.xlsx.writeBuffer())
    const root = band('Root', {}, { Rows: [band('Rows', { x: 1 })] })
    const error = await renderXlsx(job(root, [layout('Rows', ['x'])], bare)).catch((e) => e)
    assert.instanceOf(error, ReportError)
    assert.equal(error.message, 'Template does not contain named ranges')
    assert.equal(error.status, 400)

    tpl.definedNames.add('S!$A$1', 'Other')
    const other = Buffer.from(await tpl.xlsx.writeBuffer())
    const wb = await readBack(await renderXlsx(job(root, [layout('Rows', ['x'])], other)))
    assert.equal(wb.worksheets[0].getCell('A1').value, '${x}')
  })

  test('a buffered result over maxOutputBytes is refused with 413', async ({ assert }) => {
    const error = await renderXlsx(
      job(masterDetailData(), masterDetailLayout(), await masterDetailTemplate(), 2000)
    ).catch((e) => e)
    assert.instanceOf(error, ReportError)
    assert.equal(error.status, 413)
    assert.equal(error.message, 'Report output exceeds 2000 bytes')
  })
})
