/**
 * DOCX in Jmix's syntax (app/reports/renderers/docx.ts): `##band=` tables repeat their field
 * row per band instance, `${Band.field}` text prints the first instance, `${Root.x}` the
 * parameters; markers split over Word runs work; prototype names print nothing; 10,000 rows.
 * Documents are read back with mammoth.
 */
import { test } from '@japa/runner'
import { renderDocx } from '../../app/reports/renderers/docx.js'
import { valueFormatter } from '../../app/reports/format.js'
import { ReportError } from '../../app/reports/types.js'
import {
  band,
  bodyOf,
  docx,
  docxLines,
  docxText,
  layout,
  makeJob,
  ordersTree,
  para,
  row,
  table,
} from './reports_helpers.js'

const job = (content: Buffer, over = {}) =>
  makeJob({ content, template: { outputType: 'DOCX', fileName: 't.docx' }, ...over })

test.group('reports docx: Jmix syntax', () => {
  test('a ##band table repeats its field row per instance; text takes the first instance and Root', async ({
    assert,
  }) => {
    const content = docx(
      para('Report for ${Root.title}, first order ${Orders.number}') +
        table(
          row(['##band=Orders Number'], ['Customer'], ['Total']),
          row(['${number}'], ['${customer}'], ['${total}'])
        ) +
        para('End.')
    )
    const value = valueFormatter([{ name: 'Orders.total', format: '#,##0.00' }], {})
    const lines = await docxLines(await bodyOf(await renderDocx(job(content, { value }))))
    assert.deepEqual(lines, [
      'Report for Quarter 1, first order ORD-1',
      'Number',
      'Customer',
      'Total',
      'ORD-1',
      'Customer 1',
      '10.50',
      'ORD-2',
      'Customer 2',
      '21.00',
      'End.',
    ])
  })

  test('a marker and tags split over several runs (as Word writes them) still work', async ({
    assert,
  }) => {
    const content = docx(
      para('Title: ', '$', '{Ro', 'ot.ti', 'tle}') +
        table(
          row(['#', '#ba', 'nd=Or', 'ders ', 'No.'], ['Who']),
          row(['$', '{num', 'ber', '}'], ['${cus', 'tomer}'])
        )
    )
    const lines = await docxLines(await bodyOf(await renderDocx(job(content))))
    assert.deepEqual(lines, [
      'Title: Quarter 1',
      'No.',
      'Who',
      'ORD-1',
      'Customer 1',
      'ORD-2',
      'Customer 2',
    ])
  })

  test('a one-row table repeats its only row; a band found recursively is flattened', async ({
    assert,
  }) => {
    const content = docx(table(row(['##band=Items ${product}'], ['${qty}'])))
    const lines = await docxLines(await bodyOf(await renderDocx(job(content))))
    assert.deepEqual(lines, ['P1-1', '1', 'P1-2', '2', 'P2-1', '1', 'P2-2', '2'])
  })

  test('a nested Items table inside an Orders row shows that order’s items only', async ({
    assert,
  }) => {
    const tree = ordersTree(2, 2)
    tree.root.bands.Orders[1].bands.Items = []
    const inner = table(row(['##band=Items ${product}'], ['${qty}']))
    const masterRow = `<w:tr><w:tc>${para('${number}')}</w:tc><w:tc>${inner}<w:p/></w:tc></w:tr>`
    const content = docx(table(row(['##band=Orders Order'], []), masterRow))
    const lines = await docxLines(await bodyOf(await renderDocx(job(content, tree))))
    assert.deepEqual(lines, ['Order', 'ORD-1', 'P1-1', '1', 'P1-2', '2', 'ORD-2'])
  })

  test('a marker in the data row under a plain header row works too', async ({ assert }) => {
    const content = docx(
      table(row(['Order'], ['Who']), row(['##band=Orders ${number}'], ['${customer}']))
    )
    const lines = await docxLines(await bodyOf(await renderDocx(job(content))))
    assert.deepEqual(lines, ['Order', 'Who', 'ORD-1', 'Customer 1', 'ORD-2', 'Customer 2'])
  })

  test('stray braces stay text; ${Band.field} inside its own row is the current row', async ({
    assert,
  }) => {
    const content = docx(
      para('Costs {5} } and $ {x}') +
        table(row(['##band=Orders ${number}'], ['${Orders.customer}'], ['${Root.title}']))
    )
    const lines = await docxLines(await bodyOf(await renderDocx(job(content))))
    assert.deepEqual(lines, [
      'Costs {5} } and $ {x}',
      'ORD-1',
      'Customer 1',
      'Quarter 1',
      'ORD-2',
      'Customer 2',
      'Quarter 1',
    ])
  })

  test('zero instances remove the row; a header row stays', async ({ assert }) => {
    const content = docx(table(row(['##band=Orders Number']), row(['${number}'])) + para('after'))
    const empty = makeJob({
      content,
      template: { outputType: 'DOCX' },
      root: band('Root', {}, { Orders: [] }),
    })
    const lines = await docxLines(await bodyOf(await renderDocx(empty)))
    assert.deepEqual(lines, ['Number', 'after'])
  })

  test('values are XML-escaped text and line breaks stay line breaks', async ({ assert }) => {
    const root = band('Root', { note: 'a < b & "c"</w:t><w:t>x', multi: 'one\ntwo' }, {})
    const content = docx(para('${note}') + para('${multi}'))
    const text = await docxText(
      await bodyOf(await renderDocx(makeJob({ content, root, layout: [] })))
    )
    assert.include(text, 'a < b & "c"</w:t><w:t>x')
    assert.match(text, /one\s*\n?\s*two/)
  })
})

test.group('reports docx: safety and limits', () => {
  test('prototype names and raw-XML tags print nothing', async ({ assert }) => {
    const root = band('Root', { x: 'ok' }, {})
    const content = docx(
      para(
        '[${constructor}][${__proto__}][${toString}][${x.constructor}][${Root.constructor}][${Root.__proto__.polluted}][${@x}][${x}]'
      )
    )
    const text = await docxText(
      await bodyOf(await renderDocx(makeJob({ content, root, layout: [] })))
    )
    assert.equal(text.trim(), '[][][][][][][][ok]')
    assert.isUndefined(({} as Record<string, unknown>).polluted)
  })

  test('a broken template answers 400 with the reason; no file answers 400', async ({ assert }) => {
    const broken = docx(para('${#Orders}${number}'))
    const error = await renderDocx(job(broken)).catch((e) => e)
    assert.instanceOf(error, ReportError)
    assert.equal(error.status, 400)
    assert.match(error.message, /DOCX template error: .*Orders/)
    const none = await renderDocx(makeJob({ template: { outputType: 'DOCX' } })).catch((e) => e)
    assert.equal(none.status, 400)
    const notZip = await renderDocx(job(Buffer.from('not a zip'))).catch((e) => e)
    assert.equal(notZip.status, 400)
    assert.match(notZip.message, /cannot be read/)
  })

  test('the output limit answers 413', async ({ assert }) => {
    const content = docx(table(row(['##band=Orders ${number}'])))
    const error = await renderDocx(job(content, { maxOutputBytes: 100 })).catch((e) => e)
    assert.equal(error.status, 413)
  })

  test('10,000 rows render linearly and every row is there', async ({ assert }) => {
    const small = ordersTree(1000)
    const big = ordersTree(10000)
    const content = docx(
      table(row(['##band=Orders No.'], ['Customer']), row(['${number}'], ['${customer}']))
    )
    let t = performance.now()
    await renderDocx(job(content, small))
    const ms1k = performance.now() - t
    t = performance.now()
    const out = await bodyOf(await renderDocx(job(content, big)))
    const ms10k = performance.now() - t
    console.log(`      docx: 1,000 rows ${ms1k.toFixed(0)} ms, 10,000 rows ${ms10k.toFixed(0)} ms`)
    const lines = await docxLines(out)
    assert.equal(lines.length, 2 + 2 * 10000)
    assert.equal(lines.at(-2), 'ORD-10000')
    assert.isBelow(ms10k, Math.max(ms1k, 50) * 25)
  }).timeout(60_000)

  test('layout without rows keeps working for unknown bands (loop over a non-band is empty)', async ({
    assert,
  }) => {
    const content = docx(para('${#Nope}x${/Nope}y') + table(row(['##band=Missing ${a}'])))
    const lines = await docxLines(
      await bodyOf(await renderDocx(job(content, { layout: [layout('Orders', ['number'])] })))
    )
    assert.deepEqual(lines, ['y'])
  })
})
