/**
 * The renderer registry (app/reports/renderers/index.ts): output type x template file picks the
 * renderer, impossible combinations and refused types answer 400 with the upstream messages,
 * content types and extensions per output type.
 */
import { test } from '@japa/runner'
import {
  CONTENT_TYPES,
  FILE_EXTENSIONS,
  rendererFor,
  templateProblem,
} from '../../app/reports/renderers/index.js'
import { renderCsv } from '../../app/reports/renderers/csv.js'
import { renderDocx } from '../../app/reports/renderers/docx.js'
import { renderHtml } from '../../app/reports/renderers/html.js'
import { renderJson } from '../../app/reports/renderers/json.js'
import { renderDocxPdf, renderPdf, renderXlsxPdf } from '../../app/reports/renderers/pdf.js'
import { renderXlsx } from '../../app/reports/renderers/xlsx.js'
import { ReportError, type OutputType } from '../../app/reports/types.js'

const t = (outputType: OutputType, fileName?: string) => ({ code: 'T', outputType, fileName })

test.group('reports renderer registry', () => {
  // The registry loads each renderer's module on its first run; it names the export it runs.
  test('output type and template extension pick the renderer', ({ assert }) => {
    assert.equal(rendererFor(t('XLSX', 'a.xlsx')).rendererName, renderXlsx.name)
    assert.equal(rendererFor(t('XLSX')).rendererName, renderXlsx.name)
    assert.equal(rendererFor(t('DOCX', 'Letter.DOCX')).rendererName, renderDocx.name)
    assert.equal(rendererFor(t('HTML', 'list.html')).rendererName, renderHtml.name)
    assert.equal(rendererFor(t('HTML', 'list.hbs')).rendererName, renderHtml.name)
    assert.equal(rendererFor(t('HTML')).rendererName, renderHtml.name)
    assert.equal(rendererFor(t('PDF', 'list.htm')).rendererName, renderPdf.name)
    assert.equal(rendererFor(t('PDF')).rendererName, renderPdf.name)
    assert.equal(rendererFor(t('PDF', 'letter.docx')).rendererName, renderDocxPdf.name)
    assert.equal(rendererFor(t('PDF', 'book.xlsx')).rendererName, renderXlsxPdf.name)
    assert.equal(rendererFor(t('CSV', 'rows.csv')).rendererName, renderCsv.name)
    assert.equal(rendererFor(t('CSV')).rendererName, renderCsv.name)
    assert.equal(rendererFor(t('JSON')).rendererName, renderJson.name)
    assert.equal(rendererFor(t('JSON', 'book.xlsx')).rendererName, renderJson.name)
  })

  test('combinations that cannot work answer 400 saying why', ({ assert }) => {
    const cases: [OutputType, string | undefined, RegExp][] = [
      [
        'DOCX',
        'book.xlsx',
        /DOCX output cannot be produced from the template file book\.xlsx: use \.docx/,
      ],
      ['DOCX', undefined, /DOCX output needs a template file \(\.docx\)/],
      ['XLSX', 'letter.docx', /use \.xlsx or no template file/],
      ['HTML', 'letter.docx', /HTML output cannot be produced/],
      ['CSV', 'book.xlsx', /CSV output cannot be produced/],
      ['PDF', 'notes.txt', /PDF output cannot be produced/],
    ]
    for (const [type, file, message] of cases) {
      let error: unknown
      try {
        rendererFor(t(type, file))
      } catch (e) {
        error = e
      }
      assert.instanceOf(error, ReportError, `${type} ${file}`)
      assert.equal((error as ReportError).status, 400)
      assert.match((error as ReportError).message, message)
      assert.equal(templateProblem(t(type, file)), (error as ReportError).message)
    }
    assert.isNull(templateProblem(t('PDF', 'x.html')))
  })

  test('refused output types use the upstream wording', ({ assert }) => {
    for (const type of ['CHART', 'TABLE', 'PIVOT_TABLE'] as OutputType[]) {
      assert.throws(
        () => rendererFor(t(type)),
        `${type} report output type is not supported by Reporting REST API`
      )
    }
    for (const type of ['XLS', 'DOC', 'CUSTOM'] as OutputType[]) {
      assert.throws(
        () => rendererFor(t(type, 'x.xls')),
        `${type} report output type is not supported by Modelgate`
      )
    }
  })

  test('content types and extensions per output type', ({ assert }) => {
    assert.equal(
      CONTENT_TYPES.XLSX,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
    )
    assert.equal(
      CONTENT_TYPES.DOCX,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
    )
    assert.equal(CONTENT_TYPES.PDF, 'application/pdf')
    assert.equal(CONTENT_TYPES.HTML, 'text/html')
    assert.equal(CONTENT_TYPES.CSV, 'application/csv')
    assert.equal(CONTENT_TYPES.JSON, 'application/json')
    assert.equal(CONTENT_TYPES.XLS, 'application/octet-stream')
    assert.deepEqual(
      [
        FILE_EXTENSIONS.XLSX,
        FILE_EXTENSIONS.DOCX,
        FILE_EXTENSIONS.PDF,
        FILE_EXTENSIONS.HTML,
        FILE_EXTENSIONS.CSV,
        FILE_EXTENSIONS.JSON,
      ],
      ['xlsx', 'docx', 'pdf', 'html', 'csv', 'json']
    )
  })
})
