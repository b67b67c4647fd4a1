/**
 * XLSX template details (app/reports/renderers/xlsx.ts): a two-row band with a vertical merge,
 * cells beside a band, print area and auto-filter following the rows, parameters as typed
 * cells, and text a cell cannot hold (control characters, over 32,767 characters).
 */
import { test } from '@japa/runner'
import ExcelJS from 'exceljs'
import { renderXlsx } from '../../app/reports/renderers/xlsx.js'
import { band, job, layout, readBack } from './_reports_xlsx_fixtures.js'

async function twoRowTemplate(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook()
  const ws = wb.addWorksheet('S')
  ws.getCell('A1').value = '${Root.count}'
  ws.getCell('A1').numFmt = '0.0'
  ws.getCell('A2').value = 'Name'
  ws.getCell('B2').value = 'Value'
  ws.getCell('A3').value = '${name}'
  ws.mergeCells('A3:A4')
  ws.getCell('B3').value = '${a}'
  ws.getCell('B4').value = '${b}'
  ws.getCell('C3').value = { formula: 'B3+B4' } as ExcelJS.CellFormulaValue
  ws.getCell('E3').value = 'Beside the band'
  ws.getCell('A6').value = 'Sum'
  ws.getCell('B6').value = { formula: 'SUM(B3:B4)' } as ExcelJS.CellFormulaValue
  ws.pageSetup.printArea = 'A1:C6'
  ws.autoFilter = 'A2:C4'
  wb.definedNames.add('S!$A$3:$C$4', 'Rows')
  return Buffer.from(await wb.xlsx.writeBuffer())
}

const rows = () =>
  band(
    'Root',
    { count: 3 },
    {
      Rows: [
        band('Rows', { name: 'one', a: 1, b: 2 }),
        band('Rows', { name: 'bad\u0001chars\u0007', a: 3, b: 4 }),
        band('Rows', { name: 'x'.repeat(40000), a: 5, b: 6 }),
      ],
    }
  )

test.group('reports xlsx: template layout details', () => {
  test('a two-row band repeats with its vertical merge and per-copy formulas', async ({
    assert,
  }) => {
    const wb = await readBack(
      await renderXlsx(job(rows(), [layout('Rows', ['name', 'a', 'b'])], await twoRowTemplate()))
    )
    const ws = wb.worksheets[0]
    assert.deepEqual(
      [3, 4, 5, 6, 7, 8].map((r) => ws.getCell(`B${r}`).value),
      [1, 2, 3, 4, 5, 6]
    )
    assert.deepEqual(
      [3, 5, 7].map((r) => (ws.getCell(`C${r}`).value as { formula: string }).formula),
      ['B3+B4', 'B5+B6', 'B7+B8']
    )
    const merges = (ws.model as unknown as { merges: string[] }).merges.sort()
    assert.deepEqual(merges, ['A3:A4', 'A5:A6', 'A7:A8'])
    assert.equal(ws.getCell('A10').value, 'Sum')
    assert.equal((ws.getCell('B10').value as { formula: string }).formula, 'SUM(B3:B8)')
  })

  test('cells beside a band print once; print area and auto-filter grow with the rows', async ({
    assert,
  }) => {
    const wb = await readBack(
      await renderXlsx(job(rows(), [layout('Rows', ['name', 'a', 'b'])], await twoRowTemplate()))
    )
    const ws = wb.worksheets[0]
    assert.equal(ws.getCell('E3').value, 'Beside the band')
    assert.isNull(ws.getCell('E5').value)
    assert.isNull(ws.getCell('E7').value)
    assert.equal(ws.pageSetup.printArea, 'A1:C10')
    assert.equal(ws.autoFilter, 'A2:C8')
  })

  test('a parameter alone in a cell is typed; unprintable text is cleaned and capped', async ({
    assert,
  }) => {
    const wb = await readBack(
      await renderXlsx(job(rows(), [layout('Rows', ['name', 'a', 'b'])], await twoRowTemplate()))
    )
    const ws = wb.worksheets[0]
    assert.strictEqual(ws.getCell('A1').value, 3)
    assert.equal(ws.getCell('A1').numFmt, '0.0')
    assert.equal(ws.getCell('A5').value, 'badchars')
    assert.equal((ws.getCell('A7').value as string).length, 32767)
  })
})
